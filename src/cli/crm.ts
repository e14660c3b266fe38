import 'reflect-metadata';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, NotFoundError, ValidationFailed } from '../common/errors';
import { logger, setLogLevel } from '../common/logger';
import type { ImportCommandOptions } from './import-command';
import { OUTBOX_LIST_DEFAULT, OUTBOX_LIST_MAX, OutboxStatus } from '../modules/outbox/outbox-status';
import { EXPORT_RESOURCES } from './export-command';

/** How docs/cli.md runs it; help and error lines name commands this way. */
const RUN = 'npm run --silent crm --';

/** Exit codes (docs/cli.md): scripts tell a wrong command line from a command that failed. */
const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2 });

/**
 * The rest of the core a command needs, loaded only once the command line is good: help and usage
 * errors answer without loading the ORM and every entity (about a second).
 */
const loadCore = async () => ({
  ...(await import('../modules/accounts/account.service')),
  ...(await import('../modules/users/user.entity')),
  ...(await import('../modules/outbox/outbox.service')),
  ...(await import('../modules/api-keys/api-key.service')),
  // Every module, so that each declares its scopes (keys:create checks them).
  ...(await import('../modules')),
});
type Core = Awaited<ReturnType<typeof loadCore>>;

/** What a data command does once the command line is parsed: one JSON object, printed as one line. */
type Task = (em: EntityManager, core: Core) => Promise<Record<string, unknown>>;

/** A command that talks to a running service over HTTP instead of opening the database (`import`). */
let clientCommand: ((dataDir: string) => Promise<number>) | null = null;

// Values are checked while parsing, before the database is opened: a missing or malformed one is
// a usage error (exit 2). The messages say what the hand-written parser said before commander.

/** Turns an option's text into its value, or throws naming the option (`flag`). */
type Parser<T> = (flag: string) => (value: string) => T;

/** A text value, not blank (a blank value is as good as none). */
const text: Parser<string> = (flag) => (value) => {
  if (value.trim() === '') throw new InvalidArgumentError(`${flag} is required`);
  return value;
};

/** A database id: digits, at most the largest integer column value. */
const id: Parser<number> = (flag) => (value) => {
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2_147_483_647) throw new InvalidArgumentError(`${flag} must be a positive integer`);
  return Number(value);
};

/** `--limit`: how many outbox rows, 1..OUTBOX_LIST_MAX (each renders its subject line). */
const limit: Parser<number> = (flag) => (value) => {
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > OUTBOX_LIST_MAX)
    throw new InvalidArgumentError(`${flag} must be an integer from 1 to ${OUTBOX_LIST_MAX}`);
  return Number(value);
};

/** `--scopes`: a comma-separated list (checked against the known scopes by the service). */
const scopeList: Parser<string[]> = (flag) => (value) => {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (scopes.length === 0) throw new InvalidArgumentError(`${flag} is required`);
  return scopes;
};

/** `--expires`: an ISO 8601 date and time (with its offset, or UTC). */
const instant: Parser<Date> = (flag) => (value) => {
  const at = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw new InvalidArgumentError(`${flag} must be an ISO 8601 date and time, e.g. 2027-01-31T00:00:00Z`);
  return at;
};

/** An API key as the key commands print it: never its secret nor its hash. */
const keyLine = (k: {
  id: number;
  user: { id: number };
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}) => ({
  id: k.id,
  user_id: k.user.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  expires_at: k.expiresAt?.toISOString() ?? null,
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
  created_at: k.createdAt.toISOString(),
});

/** `a, b or c` */
const words = (values: readonly string[]): string =>
  values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}` : values.join('');

/** One of `values` (listed in the option's description by `words`). */
const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (flag) =>
  (value) => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`${flag} must be ${words(values)}`);
    return value as T;
  };

const STATUSES: readonly OutboxStatus[] = Object.values(OutboxStatus);

const REQUIRED_HEADING = 'Required:';

/** Options a command cannot run without: checked before its action (see buildProgram's preAction hook). */
const MANDATORY = new WeakSet<Option>();

function option<T>(flags: string, description: string, parse: Parser<T>): Option {
  const made = new Option(flags, description);
  return made.argParser(parse(made.long ?? flags));
}

function required<T>(flags: string, description: string, parse: Parser<T>): Option {
  const made = option(flags, description, parse).helpGroup(REQUIRED_HEADING);
  MANDATORY.add(made);
  return made;
}

/**
 * The command line: every command, its options and their descriptions (`--help`, `help <command>`).
 * Each action only records its task; main() opens the database once the line is known to be good.
 */
function buildProgram(setTask: (task: Task) => void): Command {
  const program: Command = new Command('crm')
    .usage('<command> [options]')
    .description(`Operators' commands for the CRM service: accounts, users, API keys, apps and the outbox.\nRun as: ${RUN} <command> [options]`)
    .helpCommand(false)
    .exitOverride()
    .configureOutput({
      // Usage errors are printed by main() as the JSON line; commander's own line would repeat it.
      outputError: () => {},
    })
    .configureHelp({ sortSubcommands: false })
    // commander's own mandatory options would say "required option '--email <address>' not specified".
    .hook('preAction', (_program, command) => {
      for (const o of command.options)
        if (MANDATORY.has(o) && command.getOptionValue(o.attributeName()) === undefined)
          command.error(`${o.long} is required`, { code: 'commander.missingMandatoryOptionValue', exitCode: EXIT.usage });
    })
    .addHelpText(
      'after',
      [
        '',
        'Output: a data command prints exactly one JSON line on stdout; logs go to stderr.',
        'An error is a JSON line too, {"error": ...}, with "fields" when the service',
        'refused a value and "help" (where to read the usage) on a usage error.',
        '',
        'Exit codes:',
        '  0  success',
        '  1  failure: the command ran and failed (a value the service refused, a record',
        '     not found, the database unreachable)',
        '  2  usage error: unknown command or option, missing or malformed value',
        '',
        'Database: DATABASE_URL, else the embedded database (shared with a running',
        'npm start).',
        '',
        'Examples:',
        `  ${RUN} help accounts:create`,
        `  ${RUN} accounts:create --name Acme --email admin@acme.test`,
      ].join('\n'),
    );

  program
    .command('accounts:create')
    .description('Create an account with its first user, an administrator; prints their API key.')
    .summary('Create an account and its admin user; prints the admin API key')
    .addOption(required('--name <name>', 'the account name (at most 200 characters)', text))
    .addOption(required('--email <address>', "the admin user's email address", text))
    .option('--first-name <name>', "the admin user's first name")
    .option('--last-name <name>', "the admin user's last name")
    .option('--time-zone <zone>', "the account's IANA time zone, e.g. Europe/Paris (default: UTC)")
    .option('--currency <code>', "the account's currency, an ISO 4217 code, e.g. EUR (default: USD)")
    .addHelpText('after', '\nPrints {"account_id", "user_id", "api_key"}. The key is shown only now.')
    .action((o: { name: string; email: string; firstName?: string; lastName?: string; timeZone?: string; currency?: string }) =>
      setTask(async (em, { AccountAdmin }) => {
        const { account, user, apiKey } = await new AccountAdmin(em).createAccount({
          name: o.name,
          timeZone: o.timeZone,
          currency: o.currency,
          admin: { email: o.email, firstName: o.firstName, lastName: o.lastName },
        });
        return { account_id: account.id, user_id: user.id, api_key: apiKey };
      }),
    );

  program
    .command('users:create')
    .description('Add a user to an account; prints their API key.')
    .summary('Add a user to an account; prints the user API key')
    .addOption(required('--account <id>', "the account's id", id))
    .addOption(required('--email <address>', "the user's email address", text))
    .addOption(required('--first-name <name>', "the user's first name", text))
    .addOption(required('--last-name <name>', "the user's last name", text))
    .option('--time-zone <zone>', "the user's IANA time zone (default: the account's)")
    .option('--admin', 'make the user an administrator of the account')
    .addOption(
      option(
        '--visibility <scope>',
        "the records the user sees: all (the account's) or own (theirs and those shared with them)",
        oneOf(['all', 'own'] as const),
      ).default('all'),
    )
    .addHelpText('after', '\nPrints {"user_id", "api_key"}. The key is shown only now.')
    .action((o: { account: number; email: string; firstName: string; lastName: string; timeZone?: string; admin?: boolean; visibility: 'all' | 'own' }) =>
      setTask(async (em, { AccountAdmin, Visibility }) => {
        const { user, apiKey } = await new AccountAdmin(em).createUser(o.account, {
          email: o.email,
          firstName: o.firstName,
          lastName: o.lastName,
          timeZone: o.timeZone ?? null,
          isAdmin: o.admin ?? false,
          visibility: o.visibility === 'own' ? Visibility.OWN : Visibility.ALL,
        });
        return { user_id: user.id, api_key: apiKey };
      }),
    );

  program
    .command('users:reset-key')
    .description('Issue a new API key for a user; the old key stops working at once. Prints the new key.')
    .summary("Replace a user's API key (the old one stops working at once)")
    .addOption(required('--user <id>', "the user's id", id))
    .addHelpText('after', '\nPrints {"api_key"}.')
    .action((o: { user: number }) => setTask(async (em, { AccountAdmin }) => ({ api_key: await new AccountAdmin(em).resetKey(o.user) })));

  program
    .command('keys:create')
    .description('Create a scoped API key of a user: it acts as them with at most the scopes given (docs/api-keys.md). Prints its secret, once.')
    .summary('Create a scoped API key of a user; prints its secret once')
    .addOption(required('--account <id>', "the account's id", id))
    .addOption(required('--user <id>', 'the id of the user it acts as (a user of the account)', id))
    .addOption(required('--name <name>', 'what the key is for (at most 100 characters)', text))
    .addOption(required('--scopes <list>', 'comma-separated scopes, e.g. deals:read,people:write (admin: administrators only)', scopeList))
    .addOption(option('--expires <datetime>', 'when it stops working, ISO 8601 (default: never)', instant))
    .addHelpText('after', '\nPrints the key {"id", "user_id", "name", "prefix", "scopes", ..., "secret"}. The secret is shown only now.')
    .action((o: { account: number; user: number; name: string; scopes: string[]; expires?: Date }) =>
      setTask(async (em, { createApiKey, User }) => {
        const user = await em.findOne(User, { id: o.user, account: o.account });
        if (!user) throw new NotFoundError('User', o.user);
        const maker = { accountId: o.account, userId: user.id, isAdmin: user.isAdmin, scopes: null };
        const key = await em.transactional((tx) =>
          createApiKey(tx as EntityManager, maker, { name: o.name, scopes: o.scopes, expiresAt: o.expires ?? null }, new Date()),
        );
        return { ...keyLine(key), secret: key.revealedSecret };
      }),
    );

  program
    .command('keys:list')
    .description("List an account's scoped API keys (of one user with --user), newest first; never their secrets.")
    .summary("List an account's scoped API keys")
    .addOption(required('--account <id>', "the account's id", id))
    .addOption(option('--user <id>', "only this user's keys", id))
    .addHelpText('after', '\nPrints {"keys": [...]}, at most 200.')
    .action((o: { account: number; user?: number }) =>
      setTask(async (em, { listApiKeys }) => ({ keys: (await listApiKeys(em, o.account, o.user ?? null, 200)).map(keyLine) })),
    );

  program
    .command('keys:revoke')
    .description('Revoke a scoped API key: it stops working at once.')
    .summary('Revoke a scoped API key')
    .addOption(required('--account <id>', "the account's id", id))
    .addOption(required('--id <id>', "the key's id (keys:list)", id))
    .addHelpText('after', '\nPrints the key as keys:list does, with its revoked_at.')
    .action((o: { account: number; id: number }) =>
      setTask(async (em, { revokeApiKey }) => keyLine(await em.transactional((tx) => revokeApiKey(tx as EntityManager, o.account, null, o.id, new Date())))),
    );

  program
    .command('apps:create')
    .description('Register an API app; its app_key raises the rate limit of the requests that send it.')
    .summary('Register an API app; prints its app key')
    .addOption(required('--name <name>', 'the app name (at most 200 characters)', text))
    .addHelpText('after', '\nPrints {"app_key"}. The key is shown only now.')
    .action((o: { name: string }) => setTask(async (em, { AccountAdmin }) => ({ app_key: await new AccountAdmin(em).createApp(o.name) })));

  program
    .command('outbox:list')
    // Issue 13: without SMTP the outbox stays readable; this is the operator's view of it.
    .description("List an account's outbox (the mail the service owes or sent), newest first, with each mail's subject line.")
    .summary("List an account's outbox messages, newest first")
    .addOption(required('--account <id>', "the account's id", id))
    .addOption(option('--status <status>', `only messages in this state: ${words(STATUSES)}`, oneOf(STATUSES)))
    .addOption(option('--limit <n>', `how many messages, 1 to ${OUTBOX_LIST_MAX}`, limit).default(OUTBOX_LIST_DEFAULT))
    .addHelpText('after', '\nPrints {"messages": [...]} (docs/mail.md, "Reading the outbox").')
    .action((o: { account: number; status?: OutboxStatus; limit: number }) =>
      setTask(async (em, { listOutbox }) => ({ messages: await listOutbox(em, o.account, { status: o.status ?? null, limit: o.limit }) })),
    );

  program
    .command('export')
    // Issue 27 §2: a client of a running server (its GraphQL), not of the database.
    .description(
      'Export a list to a CSV or JSONL file through a running server, as the user of --key: starts the export, shows its progress on stderr, then downloads the file to --out (or prints its link).',
    )
    .summary('Export a list (people, deals, ...) to a file')
    .addOption(required('--resource <name>', `the list: ${words(EXPORT_RESOURCES)}`, oneOf(EXPORT_RESOURCES)))
    .addOption(option('--format <format>', 'csv or jsonl', oneOf(['csv', 'jsonl'] as const)).default('csv'))
    .addOption(option('--filter <json>', 'the list\'s GraphQL filter as JSON, e.g. \'{"workCity": {"eq": "Berlin"}}\'', jsonObject))
    .addOption(option('--out <file>', 'where to write the file; without it the link is printed', text))
    .addOption(option('--url <server>', 'the server (default: CRM_URL, else the one npm start runs)', text))
    .addOption(option('--key <key>', 'the API key of the user whose records are exported (default: CRM_API_KEY)', text))
    .addHelpText('after', '\nPrints {"export", "rows", "changes_cursor", "expires_at", "file" | "download_url"} (docs/exports.md).')
    .action((o: { resource: string; format: 'csv' | 'jsonl'; filter?: Record<string, unknown>; out?: string; url?: string; key?: string }) => {
      clientTask = async () => (await import('./export-command')).runExportCommand(o);
    });

  program
    .command('import')
    // Issue 27 §1: a client of a running service (docs/imports.md), not of the database.
    .description(
      'Import a CSV or JSONL file into a running service: uploads it, starts the import, shows its progress (a bar on a terminal) and prints the final counts. Exit 1 when the import did not end DONE.',
    )
    .summary('Import a CSV or JSONL file of people, companies or deals')
    .addOption(required('--file <path>', 'the file (.jsonl or .ndjson: JSONL, else CSV), or an http(s) URL the service fetches', (_flag) => (value) => value))
    .addOption(required('--resource <name>', 'people, companies or deals', oneOf(['people', 'companies', 'deals'] as const)))
    .addOption(required('--mode <mode>', 'create, update or upsert', oneOf(['create', 'update', 'upsert'] as const)))
    .addOption(option('--map <pairs>', 'file column=v3 field, comma-separated ("First Name=first_name,E-mail=email")', (_flag) => (value) => value))
    .addOption(option('--match-by <key>', 'EMAIL (people), NAME (companies) or NAME_AND_COMPANY (deals)', (_flag) => (value) => value))
    .addOption(option('--external-id <field>', 'match by this custom field (custom_label_N) instead', (_flag) => (value) => value))
    .addOption(new Option('--dry-run', 'validate and count, write nothing'))
    .addOption(option('--url <url>', 'the service (default: CRM_URL, else the npm start of this folder)', (_flag) => (value) => value))
    .addOption(option('--key <key>', 'an API key (default: CRM_API_KEY)', (_flag) => (value) => value))
    .action((o: ImportCommandOptions) => {
      clientCommand = async (dataDir) => {
        const { runImportCommand } = await import('./import-command');
        const { ok, line } = await runImportCommand(o, dataDir);
        write(line);
        return ok ? EXIT.ok : EXIT.failure;
      };
    });

  program
    .command('help')
    .argument('[command]', 'the command to describe')
    .description('Show the help of a command (its options), or the list of commands.')
    .summary('Show the help of a command, or this list')
    .action((name: string | undefined) => {
      if (name === undefined) program.help();
      const target = program.commands.find((c) => c.name() === name);
      if (!target) program.error(`unknown command '${name}'`, { code: 'commander.unknownCommand', exitCode: EXIT.usage });
      target.help();
    });

  return program;
}

/** The command a usage error is about (the first argument naming one), for the line pointing to its help. */
function helpFor(program: Command, args: readonly string[]): string {
  const named = program.commands.find((c) => c.name() !== 'help' && c.name() === args[0]);
  return named ? `${RUN} help ${named.name()}` : `${RUN} --help`;
}

/** The usage error's JSON line, or null when commander only displayed help (exit 0). */
function usageError(error: CommanderError, program: Command, args: readonly string[]): { code: number; line: Record<string, string> | null } {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return { code: EXIT.ok, line: null };
  // help() without an error (`help`, `help <command>`) exits 0; with one (no command given) it printed the list on stderr.
  if (error.code === 'commander.help' && error.exitCode === 0) return { code: EXIT.ok, line: null };
  const message = error.code === 'commander.help' ? 'a command is required' : error.message.replace(/^error: /, '');
  return { code: EXIT.usage, line: { error: message, help: helpFor(program, args) } };
}

const write = (line: Record<string, unknown>) => process.stdout.write(JSON.stringify(line) + '\n');

/** A command that talks to a running server instead of the database (`export`). */
let clientTask: (() => Promise<Record<string, unknown>>) | null = null;

/** `--filter`: a JSON object. */
const jsonObject: Parser<Record<string, unknown>> = (flag) => (value) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError(`${flag} must be a JSON object`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError(`${flag} must be a JSON object`);
  return parsed as Record<string, unknown>;
};

/** Errors of reaching PostgreSQL at all (node's socket codes, and the server refusing the login or database). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', '28P01', '28000', '3D000']);

function unreachable(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE.has(code) ? (error as Error).message : null;
}

/**
 * Runs the command line: a data command prints exactly one JSON line on stdout (logs go to
 * stderr); help is text on stdout. Resolves with the exit code (EXIT).
 */
async function main(args: readonly string[]): Promise<number> {
  let task: Task | null = null;
  const program = buildProgram((t) => (task = t));
  try {
    program.parse([...args], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    const { code, line } = usageError(error, program, args);
    if (line) write(line);
    return code;
  }
  const client = clientTask as (() => Promise<Record<string, unknown>>) | null;
  if (client) {
    const { ExportCommandError } = await import('./export-command');
    try {
      write(await client());
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof ExportCommandError)) throw error;
      write(error.fields ? { error: error.message, fields: error.fields } : { error: error.message });
      return EXIT.failure;
    }
  }
  const command = clientCommand as ((dataDir: string) => Promise<number>) | null;
  if (command) {
    const { loadConfig } = await import('../config/config');
    try {
      return await command(loadConfig().dataDir);
    } catch (error) {
      write({ error: error instanceof Error ? error.message : String(error) });
      return EXIT.failure;
    }
  }
  const run = task as Task | null;
  if (!run) return EXIT.ok;

  const { loadConfig } = await import('../config/config');
  const { migrate, openOrm } = await import('../app/orm');
  const { resolveDatabase } = await import('./database');
  const config = loadConfig();
  setLogLevel(config.logLevel === 'info' ? 'warn' : config.logLevel);
  let closing: Array<() => Promise<unknown>> = [];
  try {
    const { url, embedded } = await resolveDatabase(config);
    if (embedded) closing = [() => embedded.stop()];
    const orm = await openOrm({ clientUrl: url, poolMax: 2 });
    closing = [() => orm.close(true), ...closing];
    await migrate(orm);
    write(await run(orm.em.fork(), await loadCore()));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ValidationFailed) {
      write({ error: error.message, fields: error.issues });
      return EXIT.failure;
    }
    if (error instanceof DomainError) {
      write({ error: error.message });
      return EXIT.failure;
    }
    const cause = unreachable(error);
    if (cause !== null) {
      write({ error: `the database is unreachable: ${cause}` });
      return EXIT.failure;
    }
    logger.error('command failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    write({ error: 'command failed; see stderr' });
    return EXIT.failure;
  } finally {
    for (const close of closing) await close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    logger.error('command failed', { error: String(error) });
    write({ error: 'command failed; see stderr' });
    process.exit(EXIT.failure);
  },
);
