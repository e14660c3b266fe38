import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { portInUse } from '../../src/cli/running-server';
import { isPostmasterOf, relocatedHome } from '../../src/db/embedded';
import { pidAlive } from '../../src/common/pid';

/**
 * `npm start` with the embedded default, as a newcomer runs it: the built server in child
 * processes, on a temporary DATA_DIR under a root-only parent and ports of its own (never the
 * project's `.data/`, whatever DATABASE_URL the test run has). One initdb for the whole file.
 */
const root = join(__dirname, '..', '..');
const mainJs = join(root, 'dist', 'src', 'main.js');
const asRoot = process.getuid?.() === 0;

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface App {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  exit: Promise<number | null>;
}

describe('embedded PostgreSQL default (npm start without DATABASE_URL)', () => {
  let parent: string;
  let dataDir: string;
  let port: number;
  let pgPort: number;
  let databaseDir = '';
  const apps: App[] = [];
  const postmasters = new Set<number>();
  let sleeper: ChildProcess | undefined;

  const start = (extra: NodeJS.ProcessEnv = {}): App => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort), LOG_LEVEL: 'info', ...extra };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [mainJs], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const app: App = { child, stdout: '', stderr: '', exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
    child.stdout!.on('data', (chunk) => (app.stdout += chunk));
    child.stderr!.on('data', (chunk) => (app.stderr += chunk));
    apps.push(app);
    return app;
  };
  const listening = (app: App) =>
    until('the server to listen', () => /Embedded PostgreSQL: .+\n/.test(app.stdout) || app.child.exitCode !== null).then(() => {
      if (app.child.exitCode !== null) throw new Error(`the server exited: ${app.stderr}`);
    });
  const healthz = async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
  /** The status /healthz answers, or null while nothing listens. */
  const healthStatus = () => healthz().catch(() => null);
  const postmasterPid = () => Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

  beforeAll(async () => {
    // tsc leaves unchanged outputs as they are; its build-info file is rewritten by every build that changed anything.
    const sources = Math.max(...['src', 'rest-facade', 'migrations', 'bench'].map((d) => newest(join(root, d))));
    const buildInfo = join(root, 'dist', '.tsbuildinfo');
    const built = existsSync(mainJs) && existsSync(buildInfo) ? Math.max(statSync(buildInfo).mtimeMs, statSync(mainJs).mtimeMs) : 0;
    if (built < sources) {
      const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8', timeout: 240_000 });
      if (build.status !== 0) throw new Error(`build failed: ${build.stdout}${build.stderr}`);
    }
    parent = mkdtempSync(join(tmpdir(), 'crm-embedded-test-'));
    dataDir = join(parent, 'data');
    port = await freePort();
    pgPort = await freePort();
    if (!asRoot) process.stderr.write('Not root: the root-only-parent checks of the embedded test are skipped (the rest runs).\n');
  }, 300_000);

  afterAll(async () => {
    for (const app of apps) if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGKILL');
    if (databaseDir && existsSync(join(databaseDir, 'postmaster.pid'))) postmasters.add(postmasterPid());
    for (const pid of postmasters) if (pidAlive(pid)) process.kill(pid, 'SIGINT');
    await until('the postmasters to stop', () => [...postmasters].every((pid) => !pidAlive(pid)), 30_000).catch(() => {
      for (const pid of postmasters) if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    sleeper?.kill('SIGKILL');
    if (parent) rmSync(parent, { recursive: true, force: true });
    if (dataDir) rmSync(relocatedHome(dataDir), { recursive: true, force: true });
  }, 60_000);

  it('refuses to start in production without DATABASE_URL: one line on stderr, non-zero, no embedded database or demo key', async () => {
    const prodDataDir = join(parent, 'production');
    const [prodPort, prodPgPort] = [await freePort(), await freePort()];
    const app = start({ NODE_ENV: 'production', DATA_DIR: prodDataDir, PORT: String(prodPort), EMBEDDED_PG_PORT: String(prodPgPort) });
    expect(await app.exit).toBe(1);
    apps.splice(apps.indexOf(app), 1); // the tests below count the servers they start from apps[0]
    expect(app.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^DATABASE_URL is not set: with NODE_ENV=production the server needs DATABASE_URL=postgres:\/\/\S+ /),
    ]);
    expect(app.stdout).toBe('');
    // Nothing was created: no data folder (so no pg/, demo-api-key or server.pid), no relocated cluster, no postmaster.
    expect(existsSync(prodDataDir)).toBe(false);
    expect(existsSync(relocatedHome(prodDataDir))).toBe(false);
    expect(await portInUse('127.0.0.1', prodPort)).toBe(false);
    expect(await portInUse('127.0.0.1', prodPgPort)).toBe(false);
  }, 30_000);

  it('starts under a root-only parent, the cluster where the postgres user can reach it', async () => {
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    const first = start();
    await listening(first);
    expect(await healthz()).toBe(200);
    databaseDir = /Embedded PostgreSQL: (.+) \(127\.0\.0\.1:(\d+)\)/.exec(first.stdout)![1];
    postmasters.add(postmasterPid());
    expect(first.stdout).toContain(`(127.0.0.1:${pgPort})`);
    expect(first.stdout).toMatch(/Admin API key: [0-9a-f]{64} \(the explorer fills it in on this machine\)/);
    // Kept for the explorer, readable by the service's user only.
    expect(statSync(join(dataDir, 'demo-api-key')).mode & 0o777).toBe(0o600);
    if (asRoot) {
      // Parent 700: the postgres user cannot reach DATA_DIR, so the cluster lives under /var/lib.
      expect(databaseDir).toBe(join(relocatedHome(dataDir), 'pg'));
      const stat = statSync(databaseDir);
      expect(stat.mode & 0o777).toBe(0o700);
      expect(stat.uid).not.toBe(0);
      expect(readFileSync(join(relocatedHome(dataDir), 'data-dir'), 'utf8').trim()).toBe(dataDir);
    } else {
      expect(databaseDir).toBe(join(dataDir, 'pg'));
    }
  }, 180_000);

  it('a second start leaves the running one intact and says so in one line', async () => {
    const first = apps[0];
    const postmaster = postmasterPid();
    const second = start();
    expect(await second.exit).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      `The CRM already runs from this checkout (pid ${first.child.pid}) at http://127.0.0.1:${port}: use it, or stop it first (Ctrl-C in its terminal, or kill ${first.child.pid}).`,
    ]);
    expect(second.stdout).toBe('');
    // The first server and its database are untouched and still answer.
    expect(first.child.exitCode).toBeNull();
    expect(postmasterPid()).toBe(postmaster);
    expect(pidAlive(postmaster)).toBe(true);
    expect(await healthz()).toBe(200);
    const key = /Admin API key: ([0-9a-f]{64})/.exec(first.stdout)![1];
    const people = await fetch(`http://127.0.0.1:${port}/api/v3/people.json?api_key=${key}`);
    expect(people.status).toBe(200);
  }, 120_000);

  it('reuses the postmaster a killed server left; a pid file naming another live process is stale', async () => {
    const postmaster = postmasterPid();
    sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    expect(isPostmasterOf(postmaster, databaseDir)).toBe(true);
    expect(isPostmasterOf(sleeper.pid!, databaseDir)).toBe(false);
    expect(isPostmasterOf(process.pid, databaseDir)).toBe(false);

    // The server dies without shutting down; its postmaster survives and is reused, not killed.
    apps[0].child.kill('SIGKILL');
    await apps[0].exit;
    expect(pidAlive(postmaster)).toBe(true);
    const third = start();
    await listening(third);
    expect(third.stderr).toContain('adopting the embedded PostgreSQL left running by a stopped server');
    expect(third.stderr).not.toContain('stale');
    expect(postmasterPid()).toBe(postmaster);
    expect(await healthz()).toBe(200);

    // Adopted: it goes when the server that adopted it stops.
    third.child.kill('SIGTERM');
    await third.exit;
    await until('the adopted postmaster to stop', () => !pidAlive(postmaster), 30_000);

    // A leftover pid file naming a live process that is not this PostgreSQL: stale, removed, that process untouched.
    const pidFile = join(databaseDir, 'postmaster.pid');
    writeFileSync(pidFile, `${sleeper.pid}\n${databaseDir}\n1700000000\n${pgPort}\n/tmp\n127.0.0.1\n  0  0\nready   \n`);
    const fourth = start();
    await listening(fourth);
    postmasters.add(postmasterPid());
    expect(fourth.stderr).toContain('removing a stale postmaster.pid');
    expect(pidAlive(sleeper.pid!)).toBe(true);
    expect(postmasterPid()).not.toBe(sleeper.pid);
    expect(isPostmasterOf(postmasterPid(), databaseDir)).toBe(true);
    expect(await healthz()).toBe(200);
  }, 240_000);

  it('answers /healthz 200 only once the demo account exists, its key file is written and start-up is announced', async () => {
    // The running server dies; its postmaster stays and the next start adopts it.
    const last = apps[apps.length - 1];
    last.child.kill('SIGKILL');
    await last.exit;
    const password = readFileSync(join(dirname(databaseDir), 'pg-password'), 'utf8').trim();
    const db = new Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${pgPort}/crm` });
    await db.connect();
    const keyFile = join(dataDir, 'demo-api-key');
    let fifth: App;
    try {
      // An empty database again (so the demo is seeded), and the seed held up deterministically:
      // it counts the accounts first, which waits for this lock.
      await db.query('truncate accounts cascade');
      rmSync(keyFile, { force: true });
      await db.query('begin');
      await db.query('lock table accounts in access exclusive mode');
      // A statement timeout far beyond the lock's hold, so the waiting seed is never cancelled.
      fifth = start({ DATABASE_STATEMENT_TIMEOUT_MS: '120000' });
      await until('the server to answer /healthz', async () => (await healthStatus()) !== null || fifth.child.exitCode !== null);
      expect(fifth.child.exitCode).toBeNull();
      // Listening, the seed waiting: not healthy, and nothing announced yet.
      for (let i = 0; i < 5; i++) {
        expect(await healthz()).toBe(503);
        expect(existsSync(keyFile)).toBe(false);
        expect(fifth.stdout).toBe('');
        await new Promise((r) => setTimeout(r, 100));
      }
      await db.query('rollback');
    } finally {
      await db.end();
    }
    // Healthy at last: at that moment the key file and everything start-up prints are there.
    await until('/healthz 200', async () => (await healthz()) === 200, 60_000);
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(fifth!.stdout).toContain(`Demo account created. Admin API key: ${key} (the explorer fills it in on this machine)\n`);
    expect(fifth!.stdout).toContain(`CRM listening on http://127.0.0.1:${port}\n`);
    expect(fifth!.stdout).toMatch(/Embedded PostgreSQL: .+\n$/);
    expect((await fetch(`http://127.0.0.1:${port}/api/v3/people.json?api_key=${key}`)).status).toBe(200);
  }, 120_000);
});
