import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';

const root = join(__dirname, '..', '..');

/** Runs the CLI exactly as docs/cli.md says, against the test database. */
function crm(...args: string[]): { status: number | null; stdout: string; json: any } {
  const result = spawnSync('npm', ['run', '--silent', 'crm', '--', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL, LOG_LEVEL: 'error' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const lines = result.stdout.split('\n').filter((l) => l.trim() !== '');
  return { status: result.status, stdout: result.stdout, json: lines.length === 1 ? JSON.parse(lines[0]) : undefined };
}

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

  it('answers bad input with a JSON error line and a non-zero exit', () => {
    const missing = crm('accounts:create', '--name', 'No Email');
    expect(missing.status).not.toBe(0);
    expect(missing.json.error).toMatch(/--email is required/);
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
