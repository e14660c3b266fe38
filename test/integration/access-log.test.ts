import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logger, setLogLevel, setLogSink } from '../../src/common/logger';
import { AccountAdmin } from '../../src/modules/accounts/account.service';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * The request log (issue 25 §3): one JSON line a request, written by pino-http, with the route
 * template or operation name, status, duration, request id and who asked; never the query string,
 * a key, a secret, a public link's token or an authorization header.
 */

const COMPANIES = '{ companies { nodes { id } } }';

type Line = Record<string, unknown>;

/** Lines written while a test runs, parsed; `logged(id)` waits for a request's line (written on 'finish', maybe after the client read the response). */
function captureLog() {
  const lines: Line[] = [];
  const raw: string[] = [];
  const waiting: Array<() => void> = [];
  setLogSink((line) => {
    raw.push(line);
    lines.push(JSON.parse(line) as Line);
    for (const wake of waiting.splice(0)) wake();
  });
  const requestLines = (requestId: string | null) => lines.filter((l) => l.message === 'request' && l.requestId === requestId);
  return {
    lines,
    text: () => raw.join('\n'),
    async logged(requestId: string | null): Promise<Line[]> {
      while (requestLines(requestId).length === 0) await new Promise<void>((wake) => waiting.push(wake));
      return requestLines(requestId);
    },
  };
}

function restoreLog() {
  setLogSink(null);
  setLogLevel((process.env.LOG_LEVEL as 'error') ?? 'error');
}

describe('access log', () => {
  let server: TestServer;
  let key: string;
  let log: ReturnType<typeof captureLog>;

  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.createAccount()).admin.apiKey;
    setLogLevel('info');
    log = captureLog();
  }, 60_000);
  afterAll(async () => {
    restoreLog();
    await server?.close();
  });

  it('names the full path, mount prefix included, and never the query string', async () => {
    const v3 = await server.v3(key).get('/companies.json', { page: 2 });
    const gql = await server.graphql(key, COMPANIES);
    const missing = await server.request('GET', '/api/v3/nothing-here.json', { apiKey: key, query: { q: 'secret' } });
    expect(await log.logged(v3.headers.get('x-request-id'))).toEqual([expect.objectContaining({ method: 'GET', path: '/api/v3/companies.json', status: 200 })]);
    expect(await log.logged(gql.headers.get('x-request-id'))).toEqual([expect.objectContaining({ method: 'POST', path: '/graphql', status: 200 })]);
    expect(await log.logged(missing.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ path: '/api/v3/nothing-here.json', route: 'unmatched', status: 404 }),
    ]);
    const text = JSON.stringify(log.lines);
    expect(text).not.toContain(key);
    expect(text).not.toContain('page=2');
    expect(text).not.toContain('secret');
  });

  it('keeps a sane X-Request-Id from the caller, and makes one otherwise', async () => {
    const given = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123.abc' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123.abc');
    expect(await log.logged('trace-123.abc')).toEqual([expect.objectContaining({ route: '/healthz', status: 200 })]);
    const odd = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'no spaces <allowed>' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes no request line above info, and still answers the request id', async () => {
    setLogLevel('warn');
    try {
      const res = await server.v3(key).get('/companies.json');
      const id = res.headers.get('x-request-id');
      expect(id).toBeTruthy();
      await new Promise((r) => setTimeout(r, 50));
      expect(log.lines.filter((l) => l.requestId === id)).toEqual([]);
    } finally {
      setLogLevel('info');
    }
  });

  it('censors secret fields wherever a call puts them, and secrets quoted in text', () => {
    const before = log.lines.length;
    logger.warn('outbound', {
      headers: { authorization: 'Bearer hdr-secret-1', 'x-api-key': 'hdr-secret-2', cookie: 'sid=hdr-secret-3', accept: 'application/json' },
      req: { headers: { 'x-app-key': 'hdr-secret-4' } },
      apiKey: 'field-secret-5',
      note: 'GET /api/v3/people.json?api_key=text-secret-6&page=1 with Bearer text-secret-7 from /documents/public/text-secret-8',
    });
    const [line] = log.lines.slice(before);
    expect(line).toMatchObject({ level: 'warn', message: 'outbound', headers: { authorization: '[REDACTED]', accept: 'application/json' } });
    expect(typeof line.time).toBe('string');
    expect(JSON.stringify(line)).not.toMatch(/secret-\d/);
  });
});

/**
 * A run that uses every credential the service takes or hands out, with a worker delivering
 * signed webhooks, at LOG_LEVEL=debug: the captured output holds none of them, while the request
 * lines carry route, status, duration, request id and the viewer's ids.
 */
describe('access log: no credential reaches the log', () => {
  let server: TestServer;
  let account: TestAccount;
  let receiver: Server;
  const received: IncomingHttpHeaders[] = [];
  const metricsToken = randomBytes(24).toString('hex');
  let log: ReturnType<typeof captureLog>;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(req.headers);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    server = await startTestServer({
      RUN_WORKER: 'true',
      DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1',
      JOB_POLL_INTERVAL_MS: '200',
      METRICS_TOKEN: metricsToken,
    });
    account = await server.createAccount();
    setLogLevel('debug');
    log = captureLog();
  }, 60_000);
  afterAll(async () => {
    restoreLog();
    await server?.close();
    await new Promise((r) => receiver.close(r));
  });

  it('logs none of the secrets used, and who asked for what', async () => {
    const key = account.admin.apiKey;
    const member = await account.addUser();
    const appKey = await new AccountAdmin(server.orm.em.fork()).createApp('log test');
    const unknownKey = randomBytes(32).toString('hex');
    const cookie = `session=${randomBytes(16).toString('hex')}`;
    const id = (res: { headers: Headers }) => res.headers.get('x-request-id');

    // api_key in the query string (v3), with an app_key beside it, and X-App-Key.
    const byQuery = await server.v3(key).get('/companies.json', { page: 1 });
    const withApp = await server.request('GET', '/api/v3/companies.json', { apiKey: key, query: { app_key: appKey } });
    const withAppHeader = await server.request('GET', '/api/v3/companies.json', { apiKey: key, headers: { 'x-app-key': appKey, cookie } });
    // Authorization: Bearer and X-Api-Key (GraphQL), a named operation.
    const byBearer = await server.graphql(key, `query ListForLog ${COMPANIES}`);
    const byHeader = await server.request('POST', '/graphql', { body: { query: COMPANIES }, headers: { 'x-api-key': member.apiKey } });
    // Keys that are not known: 401s.
    const unknownQuery = await server.request('GET', '/api/v3/companies.json', { apiKey: unknownKey });
    const unknownBearer = await server.graphql(unknownKey, COMPANIES);
    const unknownApp = await server.request('GET', '/api/v3/companies.json', { apiKey: key, query: { app_key: unknownKey } });
    for (const res of [byQuery, withApp, withAppHeader, byBearer, byHeader]) expect(res.status).toBe(200);
    for (const res of [unknownQuery, unknownBearer, unknownApp]) expect(res.status).toBe(401);

    // A document's public link (its token is the credential), read while the fetch is pending (404).
    const document = await server.v3(key).post('/documents.json', { document: { url: 'https://example.com/report.pdf' } });
    expect(document.status).toBe(200);
    const link = new URL(document.body.public_link as string);
    const linkToken = link.pathname.split('/').pop()!;
    const publicRead = await server.request('GET', link.pathname);
    expect(publicRead.status).toBe(404);

    // A webhook endpoint's signing secret, shown on create and on rotation; the worker signs a delivery with it.
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const created = await server.graphql(
      key,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId signingSecret } userErrors { field } } }',
      { input: { url, models: ['DEAL'] } },
    );
    const { databaseId, signingSecret } = created.body.data.createWebhookEndpoint.webhookEndpoint as { databaseId: number; signingSecret: string };
    const rotated = await server.graphql(key, `mutation { rotateWebhookEndpointSecret(id: ${databaseId}) { webhookEndpoint { signingSecret } } }`);
    const rotatedSecret = rotated.body.data.rotateWebhookEndpointSecret.webhookEndpoint.signingSecret as string;
    expect(rotatedSecret).toMatch(/^whsec_/);
    const deal = await server.v3(key).post('/deals.json', { deal: { name: 'Logged' } });
    expect(deal.status).toBe(200);
    const deadline = Date.now() + 15_000;
    while (received.length === 0) {
      if (Date.now() > deadline) throw new Error('no webhook delivered');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(received[0]['webhook-signature']).toMatch(/^v1,/);

    // The metrics token.
    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(metrics.status).toBe(200);
    await metrics.text();

    // An export's download link (its token is the credential, like a public link's), fetched once the job is done.
    const started = await server.graphql(
      key,
      'mutation { startExport(input: { resource: PEOPLE, format: CSV }) { export { databaseId } userErrors { code } } }',
    );
    const exportId = String(started.body.data.startExport.export.databaseId);
    let downloadUrl: string | null = null;
    const exportDeadline = Date.now() + 20_000;
    while (!downloadUrl) {
      if (Date.now() > exportDeadline) throw new Error('the export did not finish');
      const read = await server.graphql(key, 'query($id: ID!) { export(id: $id) { state downloadUrl } }', { id: exportId });
      downloadUrl = read.body.data.export.downloadUrl as string | null;
      if (!downloadUrl) await new Promise((r) => setTimeout(r, 100));
    }
    const downloadPath = new URL(downloadUrl).pathname;
    const downloadToken = downloadPath.split('/').pop()!;
    const download = await server.request('GET', downloadPath);
    expect(download.status).toBe(200);

    // The lines: who asked and for what route, with status and duration.
    const viewer = { accountId: account.accountId, userId: account.admin.id };
    const line = async (res: { headers: Headers }) => {
      const lines = await log.logged(id(res));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: res === metrics ? 'debug' : 'info', requestId: id(res), ms: expect.any(Number) });
      expect(typeof lines[0].time).toBe('string');
      return lines[0];
    };
    expect(await line(byQuery)).toMatchObject({ method: 'GET', route: '/api/v3/companies', status: 200, ...viewer });
    expect(await line(withApp)).toMatchObject({ route: '/api/v3/companies', status: 200, ...viewer, appId: expect.any(Number) });
    expect(await line(byBearer)).toMatchObject({ method: 'POST', route: '/graphql', operation: 'ListForLog', status: 200, ...viewer });
    expect(await line(byHeader)).toMatchObject({ route: '/graphql', status: 200, accountId: account.accountId, userId: member.id });
    const refused = await line(unknownQuery);
    expect(refused).toMatchObject({ route: '/api/v3/companies', status: 401 });
    expect(refused).not.toHaveProperty('accountId');
    expect(await line(publicRead)).toMatchObject({ route: '/documents/public/:token', path: '/documents/public/[REDACTED]', status: 404 });
    expect(await line(download)).toMatchObject({ route: '/exports/download/:token', path: '/exports/download/[REDACTED]', status: 200 });
    expect(await line(document)).toMatchObject({ method: 'POST', route: '/api/v3/documents', status: 200, ...viewer });
    expect(await line(metrics)).toMatchObject({ level: 'debug', route: '/metrics', status: 200 });
    // The worker's lines are there too (the delivery's job, written once its handler returns).
    const jobDeadline = Date.now() + 15_000;
    while (!log.lines.some((l) => l.message === 'job done' && l.job === 'deliver-webhooks')) {
      if (Date.now() > jobDeadline) throw new Error('no job line for the delivery');
      await new Promise((r) => setTimeout(r, 50));
    }

    const text = log.text();
    const secrets: Record<string, string> = {
      'admin key': key,
      'member key': member.apiKey,
      'app key': appKey,
      'unknown key': unknownKey,
      'public link token': linkToken,
      'export download token': downloadToken,
      'signing secret': signingSecret,
      'signing secret bytes': signingSecret.replace(/^whsec_/, ''),
      'rotated secret': rotatedSecret.replace(/^whsec_/, ''),
      'webhook signature': String(received[0]['webhook-signature']).replace(/^v1,/, ''),
      'metrics token': metricsToken,
      cookie,
    };
    const leaked = Object.entries(secrets).filter(([, secret]) => text.includes(secret));
    expect(leaked.map(([name]) => name)).toEqual([]);
    expect(text).not.toMatch(/api_key=(?!\[REDACTED\])/);
    expect(text).not.toMatch(/app_key=(?!\[REDACTED\])/);
  }, 60_000);
});
