import { Client } from 'pg';
import { setLogLevel, setLogSink } from '../../src/common/logger';
import { describeWithRedis, serversSharingRedis, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

const UNKNOWN_KEY = 'f'.repeat(64);
const COMPANIES = '{ companies { nodes { id } } }';

/** A second session holding an exclusive lock on `table`: a statement touching it waits (deterministically) until cancelled. */
async function lockTable(table: 'companies' | 'users'): Promise<{ release(): Promise<void> }> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query('begin');
  await client.query(`lock table "${table}" in access exclusive mode`);
  return {
    async release() {
      await client.query('rollback');
      await client.end();
    },
  };
}

describe('statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS)', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    // Long enough that no ordinary statement reaches it on a loaded machine; the lock makes one wait past it.
    server = await startTestServer({ DATABASE_STATEMENT_TIMEOUT_MS: '1000' });
    key = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server?.close());

  it('is set on the pooled connections', async () => {
    expect(await server.sql('show statement_timeout')).toEqual([{ statement_timeout: '1s' }]);
  });

  it('a statement past it answers v3 503 {error}, and GraphQL 503 with code TIMEOUT, not a 500', async () => {
    const lock = await lockTable('companies');
    try {
      const v3 = await server.v3(key).get('/companies.json');
      expect({ status: v3.status, body: v3.body }).toEqual({ status: 503, body: { error: expect.stringMatching(/took too long/) } });
      const gql = await server.graphql(key, COMPANIES);
      expect(gql.status).toBe(503);
      expect(gql.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/took too long/), extensions: { code: 'TIMEOUT' } })]);
    } finally {
      await lock.release();
    }
    // The cancelled statement left the pool usable.
    expect((await server.v3(key).get('/companies.json')).status).toBe(200);
  }, 20_000);

  it('the authentication lookup past it answers 503 too (it runs before any operation)', async () => {
    const lock = await lockTable('users');
    try {
      const v3 = await server.v3(key).get('/companies.json');
      expect({ status: v3.status, body: v3.body }).toEqual({ status: 503, body: { error: expect.stringMatching(/took too long/) } });
      const gql = await server.graphql(key, COMPANIES);
      expect(gql.status).toBe(503);
      expect(gql.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'TIMEOUT' } })]);
    } finally {
      await lock.release();
    }
    expect((await server.graphql(key, COMPANIES)).status).toBe(200);
  }, 20_000);
});

describe('failed authentication is limited per client address (AUTH_FAILURE_BURST / AUTH_FAILURE_PER_SECOND)', () => {
  let server: TestServer;
  let account: TestAccount;

  // A refill of one token per 1000 s: nothing comes back during the test, whatever the machine's speed.
  beforeAll(async () => {
    server = await startTestServer({ AUTH_FAILURE_BURST: '3', AUTH_FAILURE_PER_SECOND: '0.001' });
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server?.close());

  it('answers 401 for the burst of unknown keys, then 429 with Retry-After on both surfaces; a valid key still works', async () => {
    const v3 = server.v3(UNKNOWN_KEY);
    const first = [await v3.get('/companies.json'), await v3.get('/companies.json'), await server.graphql(UNKNOWN_KEY, COMPANIES)];
    expect(first.map((r) => r.status)).toEqual([401, 401, 401]);

    const limited = await v3.get('/companies.json');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: expect.stringMatching(/failed authentications/) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(900);

    const gql = await server.graphql(UNKNOWN_KEY, COMPANIES);
    expect(gql.status).toBe(429);
    expect(Number(gql.headers.get('retry-after'))).toBeGreaterThanOrEqual(900);
    expect(gql.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);

    // An implausible key and an unknown app key are failures too.
    expect((await server.request('GET', '/api/v3/companies.json', { apiKey: 'short' })).status).toBe(429);
    expect((await server.request('GET', '/api/v3/companies.json', { apiKey: account.admin.apiKey, query: { app_key: UNKNOWN_KEY } })).status).toBe(429);

    // Only failures are refused: a valid key from the same address is served.
    expect((await server.v3(account.admin.apiKey).get('/companies.json')).status).toBe(200);
    expect((await server.graphql(account.admin.apiKey, COMPANIES)).status).toBe(200);
    // A request with no key at all is no guess: still a 401 (and an unknown route still a 404).
    expect((await server.request('GET', '/api/v3/companies.json')).status).toBe(401);
    expect((await server.request('GET', '/api/v3/nothing-here.json')).status).toBe(404);
  });
});

describeWithRedis('failed authentications are shared across processes (Redis)', () => {
  const servers = serversSharingRedis({
    AUTH_FAILURE_BURST: '2',
    AUTH_FAILURE_PER_SECOND: '0.001',
  });

  it('failures on one process count on the other', async () => {
    const statuses = [];
    const [a, b] = [servers.a(), servers.b()];
    for (const server of [a, b, a, b]) statuses.push((await server.v3(UNKNOWN_KEY).get('/companies.json')).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});

describe('access log', () => {
  let server: TestServer;
  let key: string;
  const lines: Array<Record<string, unknown>> = [];
  const waiting: Array<() => void> = [];

  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.createAccount()).admin.apiKey;
    setLogLevel('info');
    setLogSink((line) => {
      lines.push(JSON.parse(line));
      for (const wake of waiting.splice(0)) wake();
    });
  }, 60_000);
  afterAll(async () => {
    setLogSink(null);
    setLogLevel((process.env.LOG_LEVEL as 'error') ?? 'error');
    await server?.close();
  });

  const requestLines = (requestId: string | null) => lines.filter((l) => l.message === 'request' && l.requestId === requestId);
  /** The access line is written on the response's 'finish', which may come after the client has read it. */
  async function logged(requestId: string | null): Promise<Array<Record<string, unknown>>> {
    while (requestLines(requestId).length === 0) await new Promise<void>((wake) => waiting.push(wake));
    return requestLines(requestId);
  }

  it('names the full path, mount prefix included, and never the query string', async () => {
    const v3 = await server.v3(key).get('/companies.json', { page: 2 });
    const gql = await server.graphql(key, COMPANIES);
    const missing = await server.request('GET', '/api/v3/nothing-here.json', { apiKey: key, query: { q: 'secret' } });
    expect(await logged(v3.headers.get('x-request-id'))).toEqual([expect.objectContaining({ method: 'GET', path: '/api/v3/companies.json', status: 200 })]);
    expect(await logged(gql.headers.get('x-request-id'))).toEqual([expect.objectContaining({ method: 'POST', path: '/graphql', status: 200 })]);
    expect(await logged(missing.headers.get('x-request-id'))).toEqual([expect.objectContaining({ path: '/api/v3/nothing-here.json', status: 404 })]);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(key);
    expect(text).not.toContain('page=2');
    expect(text).not.toContain('secret');
  });
});
