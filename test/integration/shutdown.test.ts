import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { startChild, type Child } from '../support/child-process';
import { ownDatabase } from '../support/own-database';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * `npm start`'s process (the built dist/src/main.js) on SIGTERM: exits at once when idle, even with
 * a keep-alive connection open; lets an in-flight request finish; cuts it after SHUTDOWN_GRACE_MS.
 * Timing bounds are generous (a loaded 2-core machine) and nothing sleeps: each step waits for an event.
 */

const root = join(__dirname, '..', '..');

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

function get(port: number, path: string, agent: Agent): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, at: Date.now() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A second session holding an exclusive lock on `companies`: the list waits on it until released. */
async function lockCompanies(url: string): Promise<{ waiting(): Promise<void>; release(): Promise<void> }> {
  const holder = new Client({ connectionString: url });
  await holder.connect();
  await holder.query('begin');
  await holder.query('lock table "companies" in access exclusive mode');
  return {
    /** Resolves once another session is queued behind the lock (polls pg_locks: the event is in the database). */
    async waiting() {
      for (;;) {
        const { rows } = await holder.query(`select count(*)::int as n from pg_locks where relation = '"companies"'::regclass and not granted`);
        if (rows[0].n > 0) return;
        await holder.query('select pg_sleep(0.02)');
      }
    },
    async release() {
      await holder.query('rollback');
      await holder.end();
    },
  };
}

describe('graceful shutdown of the server process', () => {
  let server: TestServer;
  let database: Awaited<ReturnType<typeof ownDatabase>>;
  let key: string;
  const agents: Agent[] = [];
  const children: Child[] = [];
  const keepAlive = () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    agents.push(agent);
    return agent;
  };

  beforeAll(async () => {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    if (build.status !== 0) throw new Error(`build failed: ${build.stdout}${build.stderr}`);
    // `npm start` runs a worker too, which sweeps every due row of its database: this file's own.
    database = await ownDatabase('shutdown');
    server = await startTestServer({}, { databaseUrl: database.url });
    key = (await server.createAccount()).admin.apiKey;
  }, 300_000);
  afterAll(async () => {
    for (const agent of agents) agent.destroy();
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await server?.close();
    await Promise.all(children.map((c) => c.exited));
    await database?.drop();
  });

  it('exits 0 within a bound when idle, a keep-alive connection open', async () => {
    const child = await startChild({ DATABASE_URL: database.url });
    children.push(child);
    const agent = keepAlive();
    const health = await get(child.port, '/healthz', agent);
    expect(health.status).toBe(200);
    expect(health.headers.connection).toBe('keep-alive');
    const sent = Date.now();
    child.process.kill('SIGTERM');
    const exit = await child.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    // Before: 15 s (a hang ended by the watchdog, exit 1). Now tens of milliseconds; 3 s leaves room for a loaded machine.
    expect(exit.at - sent).toBeLessThan(3_000);
  }, 120_000);

  it("stops when npm start is stopped: the signal npm forwards to its script's shell reaches the server", async () => {
    // npm runs `start` as `sh -c <script>` and forwards SIGTERM to that shell only. A shell that
    // waits for node dies of it and leaves the server (and an embedded database) running.
    const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const child = await startChild({ DATABASE_URL: database.url }, { script });
    children.push(child);
    expect((await get(child.port, '/healthz', new Agent())).status).toBe(200);
    child.process.kill('SIGTERM');
    const exit = await child.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    await child.logLine(/"message":"shutting down"/);
    await expect(get(child.port, '/healthz', new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 120_000);

  it('finishes an in-flight request (then closes its connection) before exiting 0, and accepts no new one', async () => {
    const child = await startChild({ DATABASE_URL: database.url });
    children.push(child);
    const agent = keepAlive();
    expect((await get(child.port, '/healthz', agent)).status).toBe(200);
    const lock = await lockCompanies(database.url);
    let inFlight: Promise<Reply>;
    try {
      inFlight = get(child.port, `/api/v3/companies.json?api_key=${key}`, agent);
      inFlight.catch(() => undefined);
      await lock.waiting();
      child.process.kill('SIGTERM');
      // Written once the listening socket is closed (stderr is a synchronous pipe: "shutting down",
      // logged before, can be read while the socket still accepts).
      await child.logLine(/"message":"stopped accepting connections"/);
      // The listener is closed as soon as shutdown starts.
      await expect(get(child.port, '/healthz', new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(child.process.exitCode).toBeNull();
    } finally {
      await lock.release();
    }
    const reply = await inFlight;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ entries: [], pagination: { total: 0 } });
    expect(reply.headers.connection).toBe('close');
    const exit = await child.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(exit.at).toBeGreaterThanOrEqual(reply.at);
    expect(exit.at - reply.at).toBeLessThan(3_000);
  }, 120_000);

  it('cuts a request still running after SHUTDOWN_GRACE_MS, then exits 0', async () => {
    const child = await startChild({ DATABASE_URL: database.url, SHUTDOWN_GRACE_MS: '400' });
    children.push(child);
    const lock = await lockCompanies(database.url);
    let cutAfter: number;
    try {
      const inFlight = get(child.port, `/api/v3/companies.json?api_key=${key}`, keepAlive());
      inFlight.catch(() => undefined);
      await lock.waiting();
      const sent = Date.now();
      child.process.kill('SIGTERM');
      await expect(inFlight).rejects.toMatchObject({ code: 'ECONNRESET' });
      cutAfter = Date.now() - sent;
      await child.logLine(/grace period over/);
    } finally {
      // The cancelled request's statement still holds a pooled connection until the lock goes.
      await lock.release();
    }
    expect(cutAfter).toBeGreaterThanOrEqual(400);
    expect(cutAfter).toBeLessThan(5_000);
    const exit = await child.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
  }, 120_000);
});
