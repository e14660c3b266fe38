import { describeWithRedis, serversSharingRedis, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * AUTH_FAILURE_BURST / AUTH_FAILURE_PER_SECOND: failed authentications (a key given but unknown) are
 * limited per client address, on both surfaces and across processes sharing a Redis; a valid key is
 * never refused by it.
 */

const UNKNOWN_KEY = 'f'.repeat(64);
const COMPANIES = '{ companies { nodes { id } } }';

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
