import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../support/child-process';
import { startTestServer, type TestServer } from '../support/test-server';

const root = join(__dirname, '..', '..');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs the CLI exactly as docs/cli.md says, against the test database (or `env`'s). */
function run(args: readonly string[], env: Record<string, string> = {}): Run {
  const result = spawnSync('npm', ['run', '--silent', 'crm', '--', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL, LOG_LEVEL: 'error', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const lines = result.stdout.split('\n').filter((l) => l.trim() !== '');
  let json: unknown;
  try {
    json = lines.length === 1 ? JSON.parse(lines[0]) : undefined;
  } catch {
    json = undefined; // help is text
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, json };
}

const crm = (...args: string[]): Run => run(args);

describe('CLI', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.close());

  it('bootstraps an account, users, key resets and apps with one JSON line each', async () => {
    const account = crm(
      'accounts:create',
      '--name',
      'Cli Co',
      '--email',
      'boss@cli.test',
      '--first-name',
      'Bo',
      '--last-name',
      'Ss',
      '--time-zone',
      'Europe/Paris',
      '--currency',
      'EUR',
    );
    expect(account.status).toBe(0);
    expect(account.json).toEqual({ account_id: expect.any(Number), user_id: expect.any(Number), api_key: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const me = await server.request('GET', '/api/v3/profile.json', { apiKey: account.json.api_key });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: account.json.user_id, first_name: 'Bo', last_name: 'Ss', time_zone: 'Europe/Paris' });
    expect(me.text).not.toContain(account.json.api_key);
    const list = await server.request('GET', '/api/v3/companies.json', { apiKey: account.json.api_key });
    expect(list.status).toBe(200);

    const user = crm(
      'users:create',
      '--account',
      String(account.json.account_id),
      '--email',
      'own@cli.test',
      '--first-name',
      'O',
      '--last-name',
      'W',
      '--visibility',
      'own',
    );
    expect(user.status).toBe(0);
    expect(user.json).toEqual({ user_id: expect.any(Number), api_key: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const reset = crm('users:reset-key', '--user', String(user.json.user_id));
    expect(reset.status).toBe(0);
    expect(reset.json.api_key).not.toBe(user.json.api_key);
    expect((await server.request('GET', '/api/v3/companies.json', { apiKey: user.json.api_key })).status).toBe(401);
    expect((await server.request('GET', '/api/v3/companies.json', { apiKey: reset.json.api_key })).status).toBe(200);

    const app = crm('apps:create', '--name', 'Mobile');
    expect(app.status).toBe(0);
    expect(app.json).toEqual({ app_key: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const withApp = await server.request('GET', '/api/v3/companies.json', { apiKey: reset.json.api_key, query: { app_key: app.json.app_key } });
    expect(withApp.status).toBe(200);
  }, 240_000);

  it('creates scoped API keys (the secret printed once), lists and revokes them', async () => {
    const account = await server.createAccount();
    const user = await account.addUser({ isAdmin: false });
    const scope = ['--account', String(account.accountId)];
    const made = crm(
      'keys:create',
      ...scope,
      '--user',
      String(user.id),
      '--name',
      'Reporting',
      '--scopes',
      'deals:read, people:read',
      '--expires',
      '2099-01-01T00:00:00Z',
    );
    expect(made.status).toBe(0);
    expect(made.json).toMatchObject({
      user_id: user.id,
      name: 'Reporting',
      scopes: ['deals:read', 'people:read'],
      expires_at: '2099-01-01T00:00:00.000Z',
      revoked_at: null,
    });
    expect(made.json.secret).toMatch(/^crm_sk_[A-Za-z0-9_-]{43}$/);
    expect((await server.request('GET', '/api/v3/deals.json', { apiKey: made.json.secret })).status).toBe(200);
    expect((await server.request('GET', '/api/v3/companies.json', { apiKey: made.json.secret })).status).toBe(403);
    const listed = crm('keys:list', ...scope);
    expect(listed.status).toBe(0);
    expect(listed.json.keys).toEqual([expect.objectContaining({ id: made.json.id, prefix: made.json.prefix })]);
    expect(listed.stdout).not.toContain(made.json.secret);
    // A scope no resource declares, and admin for a user who is not one: refused, nothing written.
    const unknown = crm('keys:create', ...scope, '--user', String(user.id), '--name', 'x', '--scopes', 'deals:read,dealz:read');
    expect(unknown.status).toBe(1);
    expect(unknown.json.fields).toEqual([{ field: 'scopes', code: 'INVALID', message: expect.stringContaining('unknown scope "dealz:read"') }]);
    expect(crm('keys:create', ...scope, '--user', String(user.id), '--name', 'x', '--scopes', 'admin').json.fields[0].message).toBe(
      'admin is for administrators only',
    );
    expect(crm('keys:create', ...scope, '--user', String(user.id), '--name', 'x', '--scopes', 'deals:read', '--expires', 'soon').status).toBe(2);
    expect(crm('keys:create', '--account', String(account.accountId + 1000), '--user', String(user.id), '--name', 'x', '--scopes', 'deals:read').status).toBe(
      1,
    );
    expect(crm('keys:list', ...scope).json.keys).toHaveLength(1);
    const revoked = crm('keys:revoke', ...scope, '--id', String(made.json.id));
    expect(revoked.status).toBe(0);
    expect(revoked.json.revoked_at).toEqual(expect.any(String));
    expect((await server.request('GET', '/api/v3/deals.json', { apiKey: made.json.secret })).status).toBe(401);
  }, 240_000);

  it('answers bad input with a JSON error line and a non-zero exit', () => {
    const missing = crm('accounts:create', '--name', 'No Email');
    expect(missing.status).toBe(2);
    expect(missing.json).toEqual({ error: '--email is required', help: 'npm run --silent crm -- help accounts:create' });
    const badUser = crm('users:reset-key', '--user', '999999');
    expect(badUser.status).toBe(1);
    expect(badUser.json.error).toMatch(/does not exist/);
    const badZone = crm('accounts:create', '--name', 'Z', '--email', 'z@z.test', '--time-zone', 'Mars/Olympus');
    expect(badZone.status).toBe(1);
    expect(badZone.json.fields[0].field).toBe('timeZone');
    const unknown = crm('nope');
    expect(unknown.status).toBe(2);
    expect(unknown.json.error).toMatch(/unknown command/);
  }, 240_000);
});

/** Issue 25 §3: the CLI on commander: readable help for the list and each command, and exit codes 0 / 1 / 2. */
describe('CLI help and exit codes', () => {
  const COMMANDS = [
    'accounts:create',
    'users:create',
    'users:reset-key',
    'keys:create',
    'keys:list',
    'keys:revoke',
    'apps:create',
    'outbox:list',
    'export',
    'import',
  ];

  /** The `  term  description` rows of a help section ("Commands:", "Required:", "Options:"), continuation lines joined. */
  const rows = (help: string, heading: string): Array<[string, string]> => {
    const section = help.split(`\n${heading}\n`)[1]?.split('\n\n')[0] ?? '';
    const found: Array<[string, string]> = [];
    for (const line of section.split('\n')) {
      const row = /^ {2}(\S.*?)(?: {2,}(\S.*))?$/.exec(line);
      if (row) found.push([row[1], row[2] ?? '']);
      else if (found.length > 0) found[found.length - 1][1] += ` ${line.trim()}`;
    }
    return found;
  };

  it('crm --help (and crm help) lists every command with a one-line description, as text on stdout, exit 0', () => {
    const help = crm('--help');
    expect(help.status).toBe(0);
    expect(help.json).toBeUndefined();
    expect(help.stdout).toMatch(/^Usage: crm <command> \[options\]\n/);
    const commands = rows(help.stdout, 'Commands:');
    expect(commands.map(([term]) => term.split(' ')[0])).toEqual([...COMMANDS, 'help']);
    for (const [term, description] of commands) expect({ term, description: description.length > 10 }).toEqual({ term, description: true });
    expect(help.stdout).toMatch(/Exit codes:\n {2}0 {2}success\n {2}1 {2}failure.*\n.*\n {2}2 {2}usage error/);
    expect(crm('help')).toMatchObject({ status: 0, stdout: help.stdout });
  }, 240_000);

  it.each(COMMANDS)(
    "crm help %s shows every option described (as the command's --help does)",
    (command) => {
      const help = crm('help', command);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: crm ${command} \\[options\\]\n`));
      const options = [...rows(help.stdout, 'Required:'), ...rows(help.stdout, 'Options:')];
      expect(options.length).toBeGreaterThan(1);
      for (const [flags, description] of options) expect({ flags, described: description.length > 5 }).toEqual({ flags, described: true });
      expect(crm(command, '--help')).toMatchObject({ status: 0, stdout: help.stdout });
    },
    240_000,
  );

  it('names the required options and the values of accounts:create, users:create and outbox:list', () => {
    expect(rows(crm('help', 'accounts:create').stdout, 'Required:').map(([flags]) => flags)).toEqual(['--name <name>', '--email <address>']);
    expect(rows(crm('help', 'accounts:create').stdout, 'Options:').map(([flags]) => flags.split(' ')[0])).toEqual([
      '--first-name',
      '--last-name',
      '--time-zone',
      '--currency',
      '-h,',
    ]);
    const users = crm('users:create', '-h').stdout;
    expect(rows(users, 'Required:').map(([flags]) => flags.split(' ')[0])).toEqual(['--account', '--email', '--first-name', '--last-name']);
    expect(users.replace(/\s+/g, ' ')).toContain(
      '--visibility <scope> the records the user sees: all (the account\'s) or own (theirs and those shared with them) (default: "all")',
    );
    const outbox = crm('outbox:list', '--help').stdout;
    expect(outbox).toMatch(/--status <status> +only messages in this state: pending, sent or failed\n/);
    expect(outbox).toMatch(/--limit <n> +how many messages, 1 to 500 \(default: 50\)/);
  }, 240_000);

  it('exits 2 on a usage error, with one JSON line saying what and where the help is', () => {
    const usage = (args: string[], error: string | RegExp, help: string) => {
      const result = crm(...args);
      expect({ args, status: result.status }).toEqual({ args, status: 2 });
      expect(result.json).toEqual({ error: typeof error === 'string' ? error : expect.stringMatching(error), help: `npm run --silent crm -- ${help}` });
      return result;
    };
    usage(['nope'], "unknown command 'nope'", '--help');
    usage(['help', 'nope'], "unknown command 'nope'", '--help');
    // No command: the list of commands goes to stderr, for the person who typed it.
    expect(usage([], 'a command is required', '--help').stderr).toContain('Commands:');
    usage(['apps:create', '--name', 'X', '--bogus'], "unknown option '--bogus'", 'help apps:create');
    usage(['users:reset-key'], '--user is required', 'help users:reset-key');
    usage(['users:reset-key', '--user', 'abc'], /^option '--user <id>' argument 'abc' is invalid\. --user must be a positive integer$/, 'help users:reset-key');
    usage(['users:reset-key', '--user', '99999999999'], /must be a positive integer/, 'help users:reset-key');
    usage(['apps:create', '--name', '   '], /--name is required$/, 'help apps:create');
    usage(
      ['users:create', '--account', '1', '--email', 'a@b.test', '--first-name', 'A', '--last-name', 'B', '--visibility', 'some'],
      /--visibility must be all or own$/,
      'help users:create',
    );
    usage(['outbox:list', '--account', '1', '--limit', '0'], /--limit must be an integer from 1 to 500$/, 'help outbox:list');
    usage(['outbox:list', '--account', '1', '--status', 'lost'], /--status must be pending, sent or failed$/, 'help outbox:list');
    usage(['apps:create', '--name', 'X', 'extra'], /too many arguments/, 'help apps:create');
  }, 240_000);

  it('exits 1 when the command fails, e.g. the database is unreachable', async () => {
    const port = await freePort();
    const result = run(['apps:create', '--name', 'Nowhere'], { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres` });
    expect(result.status).toBe(1);
    expect(result.json).toEqual({ error: expect.stringMatching(/^the database is unreachable: .*ECONNREFUSED/) });
  }, 240_000);
});
