import 'reflect-metadata';
import { parseArgs } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config/config';
import { DomainError, ValidationFailed } from '../common/errors';
import { logger, setLogLevel } from '../common/logger';
import { migrate, openOrm } from '../app/orm';
import { AccountAdmin } from '../modules/accounts/account.service';
import { OutboxStatus } from '../modules/outbox/outbox-message.entity';
import { listOutbox, OUTBOX_LIST_DEFAULT, OUTBOX_LIST_MAX } from '../modules/outbox/outbox.service';
import { Visibility } from '../modules/users/user.entity';
import { resolveDatabase } from './database';

const USAGE = `usage: npm run --silent crm -- <command> [options]
  accounts:create --name N --email E [--first-name F] [--last-name L] [--time-zone TZ] [--currency USD]
  users:create --account ID --email E --first-name F --last-name L [--time-zone TZ] [--admin] [--visibility all|own]
  users:reset-key --user ID
  apps:create --name N
  outbox:list --account ID [--status pending|sent|failed] [--limit N]   (newest first; N from 1 to ${OUTBOX_LIST_MAX}, default ${OUTBOX_LIST_DEFAULT})`;

class UsageError extends Error {}

const OPTIONS = {
  name: { type: 'string' },
  email: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  'time-zone': { type: 'string' },
  currency: { type: 'string' },
  account: { type: 'string' },
  user: { type: 'string' },
  admin: { type: 'boolean' },
  visibility: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function id(values: Values, name: 'account' | 'user'): number {
  const raw = required(values, name);
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647) throw new UsageError(`--${name} must be a positive integer`);
  return Number(raw);
}

const STATUSES: ReadonlyMap<string, OutboxStatus> = new Map(Object.values(OutboxStatus).map((s) => [s, s]));

/** `--limit`: how many outbox rows, 1..OUTBOX_LIST_MAX (each renders its subject line). */
function limit(values: Values): number {
  const raw = values.limit;
  if (raw === undefined) return OUTBOX_LIST_DEFAULT;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > OUTBOX_LIST_MAX)
    throw new UsageError(`--limit must be an integer from 1 to ${OUTBOX_LIST_MAX}`);
  return Number(raw);
}

async function run(command: string, values: Values, em: EntityManager): Promise<Record<string, unknown>> {
  const admin = new AccountAdmin(em);
  switch (command) {
    case 'accounts:create': {
      const { account, user, apiKey } = await admin.createAccount({
        name: required(values, 'name'),
        timeZone: values['time-zone'],
        currency: values.currency,
        admin: { email: required(values, 'email'), firstName: values['first-name'], lastName: values['last-name'] },
      });
      return { account_id: account.id, user_id: user.id, api_key: apiKey };
    }
    case 'users:create': {
      const visibility = values.visibility ?? 'all';
      if (visibility !== 'all' && visibility !== 'own') throw new UsageError('--visibility must be all or own');
      const { user, apiKey } = await admin.createUser(id(values, 'account'), {
        email: required(values, 'email'),
        firstName: required(values, 'first-name'),
        lastName: required(values, 'last-name'),
        timeZone: values['time-zone'] ?? null,
        isAdmin: values.admin ?? false,
        visibility: visibility === 'own' ? Visibility.OWN : Visibility.ALL,
      });
      return { user_id: user.id, api_key: apiKey };
    }
    case 'users:reset-key':
      return { api_key: await admin.resetKey(id(values, 'user')) };
    case 'apps:create':
      return { app_key: await admin.createApp(required(values, 'name')) };
    case 'outbox:list': {
      // Issue 13: without SMTP the outbox stays readable; this is the operator's view of it.
      const status = values.status === undefined ? null : STATUSES.get(values.status);
      if (status === undefined) throw new UsageError('--status must be pending, sent or failed');
      return { messages: await listOutbox(em, id(values, 'account'), { status, limit: limit(values) }) };
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'a command is required');
  }
}

/** Prints exactly one JSON line on stdout; logs go to stderr; non-zero exit on error. */
async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stdout.write(JSON.stringify({ error: (error as Error).message, usage: USAGE }) + '\n');
    return 2;
  }
  const [command] = parsed.positionals;
  if (parsed.values.help || !command) {
    process.stdout.write(JSON.stringify({ usage: USAGE }) + '\n');
    return parsed.values.help ? 0 : 2;
  }
  const config = loadConfig();
  setLogLevel(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const { url, embedded } = await resolveDatabase(config);
  const orm = await openOrm({ clientUrl: url, poolMax: 2 });
  try {
    await migrate(orm);
    const result = await run(command, parsed.values, orm.em.fork());
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stdout.write(JSON.stringify({ error: error.message, usage: USAGE }) + '\n');
      return 2;
    }
    if (error instanceof ValidationFailed) {
      process.stdout.write(JSON.stringify({ error: error.message, fields: error.issues }) + '\n');
      return 1;
    }
    if (error instanceof DomainError) {
      process.stdout.write(JSON.stringify({ error: error.message }) + '\n');
      return 1;
    }
    logger.error('command failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.stdout.write(JSON.stringify({ error: 'command failed; see stderr' }) + '\n');
    return 1;
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    logger.error('command failed', { error: String(error) });
    process.stdout.write(JSON.stringify({ error: 'command failed; see stderr' }) + '\n');
    process.exit(1);
  },
);
