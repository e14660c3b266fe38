import { spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startChild, type Child } from '../support/child-process';
import { ownDatabase } from '../support/own-database';
import { eventually, startSmtp } from '../support/smtp';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 13 §1: how the service grows past one machine. Two API processes (`RUN_WORKER=false`) and
 * one `npm run worker` process, built as they run in production, on one database and one Redis:
 * every document and mail created through either API is done by the worker, once; the rate limit
 * is one bucket across both APIs; a worker killed with SIGKILL mid-fetch and mid-send leaves the
 * work to its successor, which completes it; SIGTERM lets a running job finish.
 */

const root = join(__dirname, '..', '..');
const redisUrl = process.env.TEST_REDIS_URL;
const describeWithRedis = redisUrl ? describe : describe.skip;

/** A fetch target on loopback: counts hits per path; `/slow/*` hangs on its first hit, `/late/*` answers after 1.5 s. */
async function startTarget(): Promise<{ server: Server; base: string; hits: Map<string, number>; hit(path: string): Promise<void> }> {
  const hits = new Map<string, number>();
  const waiters: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    for (const wake of waiters.splice(0)) wake();
    const body = `content of ${path}`;
    if (path.startsWith('/slow/') && n === 1) {
      // Headers and a first chunk, then silence: the fetch is in the middle when the worker dies.
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(body.length + 10) });
      res.write(body.slice(0, 4));
      return;
    }
    const send = () => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(Buffer.byteLength(body)) });
      res.end(body);
    };
    if (path.startsWith('/late/')) setTimeout(send, 1500);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hit = async (path: string) => {
    while (!hits.get(path)) await new Promise<void>((wake) => waiters.push(wake));
  };
  return { server, base, hits, hit };
}

describeWithRedis('several processes on one database and one Redis', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let admin: TestServer;
  let account: TestAccount;
  let rita: { id: number; apiKey: string };
  const children: Child[] = [];
  let api1: Child;
  let api2: Child;
  let worker: Child;

  const common = () => ({
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl!,
    // One prefix for this run: both APIs share its buckets, nothing else does.
    REDIS_PREFIX: `crm-mp-${randomBytes(4).toString('hex')}:`,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'CRM <crm@example.test>',
    DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1',
    DOCUMENTS_DIR: join(tmpdir(), `crm-mp-documents-${process.pid}`),
    DOCUMENT_FETCH_TIMEOUT_MS: '4000',
    JOB_LOCK_LIFETIME_MS: '9000',
    JOB_POLL_INTERVAL_MS: '300',
    JOB_SWEEP_INTERVAL_MS: '1000',
    LOG_LEVEL: 'info',
  });
  let env: Record<string, string>;
  let database: Awaited<ReturnType<typeof ownDatabase>>;

  const startWorker = async (extra: Record<string, string> = {}) => {
    const child = await startChild({ ...env, ...extra }, { entry: 'dist/src/worker.js', ready: 'CRM worker running' });
    children.push(child);
    return child;
  };
  const startApi = async (extra: Record<string, string> = {}) => {
    const child = await startChild({ ...env, RUN_WORKER: 'false', ...extra });
    children.push(child);
    return child;
  };
  const v3 = (api: Child, key: string) => async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${api.port}/api/v3${path}?api_key=${key}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const documentRow = async (id: number) =>
    (
      await admin.sql<{ upload_status: number; fetch_attempts: number; upload_status_error_message: string | null }>(
        `select upload_status, fetch_attempts, upload_status_error_message from documents where id = ?`,
        [id],
      )
    )[0];

  beforeAll(async () => {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    if (build.status !== 0) throw new Error(`build failed: ${build.stdout}${build.stderr}`);
    // The worker acts on every due row of its database: this file's own (see own-database.ts).
    database = await ownDatabase('multi_process');
    smtp = await startSmtp();
    target = await startTarget();
    env = common();
    // Accounts are made in-process (the CLI's code path) on the same database.
    admin = await startTestServer({ DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1' }, { databaseUrl: database.url });
    account = await admin.createAccount();
    rita = await account.addUser({ firstName: 'Rita', lastName: 'Levi', email: 'rita@example.test' });
    [api1, api2] = await Promise.all([
      startApi({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '60' }),
      startApi({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '60' }),
    ]);
    worker = await startWorker();
  }, 300_000);

  afterAll(async () => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await admin?.close();
    await database?.drop();
    await new Promise<void>((resolve) => (smtp ? smtp.server.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (target ? target.server.close(() => resolve()) : resolve()));
  });

  it('documents and mail created through both APIs are all done by the worker, each once', async () => {
    const apis = [v3(api1, account.admin.apiKey), v3(api2, account.admin.apiKey)];
    const documents: number[] = [];
    const people: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const api = apis[i % 2];
      const doc = await api('POST', '/documents.json', { document: { url: `${target.base}/doc/${i}.txt` } });
      expect(doc.status).toBe(200);
      expect(doc.body.upload_status).toBe(1);
      documents.push(doc.body.id);
      const person = await api('POST', '/people.json', { person: { last_name: `Parallel${i}`, user_id: rita.id } });
      expect(person.status).toBe(200);
      people.push(person.body.id);
    }
    await eventually(
      async () => {
        const rows = await admin.sql<{ n: number }>(`select count(*)::int as n from documents where id in (${documents.join(',')}) and upload_status = 2`);
        return rows[0].n === documents.length;
      },
      30_000,
      'every document complete',
    );
    await eventually(
      async () => {
        const rows = await admin.sql<{ n: number }>(
          `select count(*)::int as n from outbox_messages where subject_type = 'Person' and subject_id in (${people.join(',')}) and status = 'sent'`,
        );
        return rows[0].n === people.length;
      },
      30_000,
      'every mail sent',
    );
    // Once each: one fetch per URL, one claim per row, one mail per Message-ID.
    for (let i = 0; i < 8; i += 1) expect(target.hits.get(`/doc/${i}.txt`)).toBe(1);
    const attempts = await admin.sql<{ a: number }>(`select fetch_attempts as a from documents where id in (${documents.join(',')})`);
    expect(attempts.every((r) => r.a === 1)).toBe(true);
    const mailAttempts = await admin.sql<{ a: number }>(
      `select attempts as a from outbox_messages where subject_type = 'Person' and subject_id in (${people.join(',')})`,
    );
    expect(mailAttempts.every((r) => r.a === 1)).toBe(true);
    const ids = smtp.received.filter((m) => /Parallel\d/.test(m.mail.text ?? '')).map((m) => m.mail.messageId);
    expect(ids).toHaveLength(people.length);
    expect(new Set(ids).size).toBe(people.length);
  }, 90_000);

  it('shares one rate-limit bucket between the API processes', async () => {
    const apis = [v3(api1, rita.apiKey), v3(api2, rita.apiKey)];
    const started = Date.now();
    const statuses: number[] = [];
    // Burst 60, 1 a second: two buckets of their own would let all 90 through.
    for (let i = 0; i < 90; i += 1) statuses.push((await apis[i % 2]('GET', '/profile.json')).status);
    const elapsed = (Date.now() - started) / 1000;
    const passed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(passed).toBeLessThanOrEqual(60 + Math.ceil(elapsed) + 1);
    expect(statuses).toContain(429);
  }, 60_000);

  it('a worker killed with SIGKILL mid-fetch leaves the document to the next worker, which completes it', async () => {
    const api = v3(api1, account.admin.apiKey);
    const doc = (await api('POST', '/documents.json', { document: { url: `${target.base}/slow/killed.txt` } })).body;
    await target.hit('/slow/killed.txt');
    worker.process.kill('SIGKILL');
    await worker.exited;
    expect((await documentRow(doc.id)).upload_status).toBe(1);
    worker = await startWorker();
    await eventually(async () => (await documentRow(doc.id)).upload_status === 2, 40_000, 'the document complete after the restart');
    expect(target.hits.get('/slow/killed.txt')).toBe(2);
    expect((await documentRow(doc.id)).fetch_attempts).toBe(2);
  }, 90_000);

  it('a worker killed with SIGKILL mid-send leaves the mail to the next worker, which delivers it once', async () => {
    smtp.setMode('hold');
    const person = (await v3(api2, account.admin.apiKey)('POST', '/people.json', { person: { last_name: 'Interrupted', user_id: rita.id } })).body;
    await eventually(() => smtp.held.some((m) => m.mail.text?.includes('Interrupted')), 20_000, 'the mail in flight');
    worker.process.kill('SIGKILL');
    await worker.exited;
    smtp.setMode('accept');
    const row = async () =>
      (
        await admin.sql<{ status: string; attempts: number }>(`select status, attempts from outbox_messages where subject_type = 'Person' and subject_id = ?`, [
          person.id,
        ])
      )[0];
    expect((await row()).status).toBe('pending');
    worker = await startWorker();
    await eventually(async () => (await row()).status === 'sent', 40_000, 'the mail sent after the restart');
    expect((await row()).attempts).toBe(2);
    expect(smtp.received.filter((m) => m.mail.text?.includes('Interrupted'))).toHaveLength(1);
  }, 90_000);

  it('webhooks: changes made through both APIs are delivered once each; a worker killed mid-delivery leaves it to the next, which sends it again', async () => {
    const made = await admin.graphql(
      account.admin.apiKey,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId } userErrors { message } } }',
      { input: { url: `${target.base}/hook/once`, models: ['COMPANY'], actions: ['CREATE'] } },
    );
    const endpointId = made.body.data.createWebhookEndpoint.webhookEndpoint.databaseId as number;
    for (let i = 0; i < 6; i += 1) await v3(i % 2 ? api1 : api2, account.admin.apiKey)('POST', '/companies.json', { company: { name: `Hooked ${i}` } });
    await eventually(() => target.hits.get('/hook/once') === 6, 30_000, 'six deliveries');
    const rows = await admin.sql<{ status: string; attempts: number }>(`select status, attempts from webhook_deliveries where endpoint_id = ?`, [endpointId]);
    expect(rows).toEqual(Array.from({ length: 6 }, () => ({ status: 'delivered', attempts: 1 })));
    await admin.graphql(account.admin.apiKey, `mutation { updateWebhookEndpoint(id: ${endpointId}, input: { enabled: false }) { userErrors { message } } }`);

    // The first POST to /slow/ hangs: the worker dies in the middle of it.
    const slow = await admin.graphql(
      account.admin.apiKey,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId } userErrors { message } } }',
      { input: { url: `${target.base}/slow/hook`, models: ['COMPANY'], actions: ['CREATE'] } },
    );
    const slowId = slow.body.data.createWebhookEndpoint.webhookEndpoint.databaseId as number;
    await v3(api1, account.admin.apiKey)('POST', '/companies.json', { company: { name: 'Hooked while dying' } });
    await target.hit('/slow/hook');
    worker.process.kill('SIGKILL');
    await worker.exited;
    worker = await startWorker();
    await eventually(
      async () => (await admin.sql(`select status from webhook_deliveries where endpoint_id = ? and status = 'delivered'`, [slowId])).length === 1,
      40_000,
      'the delivery sent by the next worker',
    );
    expect(target.hits.get('/slow/hook')).toBe(2);
    // One delivery (one webhook-id), attempted twice: the receiver de-duplicates by the id.
    expect(await admin.sql(`select attempts from webhook_deliveries where endpoint_id = ?`, [slowId])).toEqual([{ attempts: 2 }]);
  }, 90_000);

  it('SIGTERM: the worker stops taking jobs, lets the running fetch finish, and exits 0', async () => {
    const doc = (await v3(api1, account.admin.apiKey)('POST', '/documents.json', { document: { url: `${target.base}/late/graceful.txt` } })).body;
    await target.hit('/late/graceful.txt');
    const signalled = Date.now();
    worker.process.kill('SIGTERM');
    const exit = await worker.exited;
    expect(exit.code).toBe(0);
    // The fetch answers 1.5 s after it starts: the worker waits for it, not for its whole grace (10 s).
    expect(exit.at - signalled).toBeLessThan(6_000);
    expect((await documentRow(doc.id)).upload_status).toBe(2);
    expect(target.hits.get('/late/graceful.txt')).toBe(1);
  }, 60_000);

  it('SIGTERM past the grace period: the running fetch is cut, its document stays pending, and the next worker completes it', async () => {
    worker = await startWorker({ SHUTDOWN_GRACE_MS: '1000' });
    const doc = (await v3(api2, account.admin.apiKey)('POST', '/documents.json', { document: { url: `${target.base}/slow/abandoned.txt` } })).body;
    await target.hit('/slow/abandoned.txt');
    const signalled = Date.now();
    worker.process.kill('SIGTERM');
    const exit = await worker.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan(4_000);
    // Not an error: the fetch did not fail, the worker left. Its claim was given back.
    expect(await documentRow(doc.id)).toMatchObject({ upload_status: 1, upload_status_error_message: null });
    worker = await startWorker();
    await eventually(async () => (await documentRow(doc.id)).upload_status === 2, 30_000, 'the document complete after the restart');
    expect(target.hits.get('/slow/abandoned.txt')).toBe(2);
  }, 60_000);
});
