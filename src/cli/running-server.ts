import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { basename, join } from 'node:path';
import { pidAlive } from '../common/pid';

/**
 * One `npm start` per data folder: a second one (a newcomer who forgot the first) must not touch
 * the database the first one serves. The lock file `<dataDir>/server.pid` names the running
 * server's pid and URL; a pid that is gone or is no longer a node process is stale.
 */
export interface RunningServer {
  readonly pid: number;
  readonly url: string;
}

function isNode(pid: number): boolean {
  if (!pidAlive(pid)) return false;
  try {
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
    return /node/.test(basename(argv0));
  } catch {
    // No /proc (macOS): a live pid is taken as the server.
    return true;
  }
}

/** Takes the lock, or returns the server that holds it. The lock goes when this process exits. */
export async function claimServerLock(dataDir: string, url: string): Promise<RunningServer | null> {
  const file = join(dataDir, 'server.pid');
  const mine = JSON.stringify({ pid: process.pid, url });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, mine, { flag: 'wx', mode: 0o644 });
      process.once('exit', () => {
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
        } catch {
          // Already gone.
        }
      });
      return null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: RunningServer | null = null;
    try {
      holder = JSON.parse(await readFile(file, 'utf8')) as RunningServer;
    } catch {
      // Unreadable or half written: treat as stale.
    }
    if (holder && holder.pid !== process.pid && isNode(holder.pid)) return holder;
    await rm(file, { force: true });
  }
  throw new Error(`could not take the server lock ${file}`);
}

/** Whether something accepts TCP connections on host:port (within a second). */
export function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (used: boolean) => {
      socket.destroy();
      resolve(used);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether a CRM answers `/healthz` at `base` (healthy or not yet: 200 ok or 503 unavailable). */
export async function answersHealthz(base: string): Promise<boolean> {
  try {
    const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) });
    const body = (await response.json()) as { status?: unknown };
    return body.status === 'ok' || body.status === 'unavailable';
  } catch {
    return false;
  }
}

/** `npm start` refuses to start, for a reason its one-line message gives with what to do. */
export class StartRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefusedError';
    this.stack = message;
  }
}

/**
 * Before touching any database: refuses when this data folder's server already runs (embedded
 * default only — with DATABASE_URL several servers may share one database) or the port is taken.
 */
export async function refuseSecondStart(config: { dataDir: string; host: string; port: number; databaseUrl: string | undefined }): Promise<void> {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = `http://${host}:${config.port}`;
  if (!config.databaseUrl) {
    await mkdir(config.dataDir, { recursive: true });
    const running = await claimServerLock(config.dataDir, base);
    if (running) {
      throw new StartRefusedError(
        `The CRM already runs from this checkout (pid ${running.pid}) at ${running.url}: use it, or stop it first (Ctrl-C in its terminal, or kill ${running.pid}).`,
      );
    }
  }
  if (await portInUse(host, config.port)) {
    throw new StartRefusedError(
      (await answersHealthz(base))
        ? `A CRM already runs at ${base} (another checkout or DATA_DIR): use it, or set PORT to start this one elsewhere.`
        : `Port ${config.port} is already in use by another program: set PORT to a free port.`,
    );
  }
}
