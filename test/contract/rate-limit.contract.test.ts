import { randomBytes } from 'node:crypto';
import { AccountAdmin } from '../../src/modules/accounts/account.service';
import { describeWithRedis, startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * DECISIONS: Auth and rate limit: a token bucket of 10 refilled 5 per second per user key; 20 and
 * 10 per second with a registered app_key; REST and GraphQL draw on the same budget. Excess → 429
 * {error} with Retry-After (v3 §8.1). The server runs with the production defaults.
 */

const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * Freezes the wall clock (Date only; timers run as usual) so bucket refills happen exactly when a
 * test advances time, whatever the speed of the machine (house style: fake the clock, nothing else).
 */
function freezeClock(): { advance(ms: number): void; restore(): void } {
  jest.useFakeTimers({
    now: Date.now(),
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return {
    advance: (ms) => jest.setSystemTime(Date.now() + ms),
    restore: () => jest.useRealTimers(),
  };
}

describe('rate limit (v3 §8.1)', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10', APP_RATE_LIMIT_PER_SECOND: '10', APP_RATE_LIMIT_BURST: '20' });
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  /** A fresh key per test: buckets are per user. */
  const freshKey = async () => (await account.addUser()).apiKey;
  const list = (apiKey: string, query: Record<string, string> = {}) => server.request('GET', '/api/v3/companies.json', { apiKey, query });
  const gql = (apiKey: string, query: Record<string, string> = {}) =>
    server.request('POST', '/graphql', { body: { query: '{ companies { totalCount } }' }, headers: { authorization: `Bearer ${apiKey}` }, query });

  function expect429(res: TestResponse, limit: number): void {
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe(JSON_UTF8);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(res.headers.get('x-request-id')).toBeTruthy();
  }

  it('a burst of 10 passes, the 11th is a 429 {error} with Retry-After; tokens come back at 5 per second', async () => {
    const key = await freshKey();
    const clock = freezeClock();
    try {
      const burst = await Promise.all(Array.from({ length: 10 }, () => list(key)));
      const eleventh = await list(key);
      expect(burst.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect429(eleventh, 10);
      expect(eleventh.body).toEqual({ error: expect.any(String) });
      expect(Object.keys(eleventh.body)).toEqual(['error']);
      const remaining = burst.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
      expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      for (const r of burst) expect(r.headers.get('x-ratelimit-limit')).toBe('10');
      // Retry-After is honest: after it, a call passes.
      clock.advance(Number(eleventh.headers.get('retry-after')) * 1000);
      expect((await list(key)).status).toBe(200);
      // One second later, exactly 5 more.
      await Promise.all(Array.from({ length: 10 }, () => list(key))); // drain
      clock.advance(1000);
      const next = await Promise.all(Array.from({ length: 7 }, () => list(key)));
      expect(next.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429]);
      // A long idle time fills the bucket again, never beyond 10.
      clock.advance(60_000);
      const refilled = await Promise.all(Array.from({ length: 11 }, () => list(key)));
      expect(refilled.map((r) => r.status).sort()).toEqual([...Array(10).fill(200), 429]);
    } finally {
      clock.restore();
    }
  });

  it('other users are not affected by one user’s burst', async () => {
    const noisy = await freshKey();
    const quiet = await freshKey();
    const clock = freezeClock();
    try {
      await Promise.all(Array.from({ length: 12 }, () => list(noisy)));
      expect((await list(noisy)).status).toBe(429);
      expect((await list(quiet)).status).toBe(200);
    } finally {
      clock.restore();
    }
  });

  it('a steady 5 per second is never limited, even with half the bucket spent', async () => {
    const key = await freshKey();
    const clock = freezeClock();
    try {
      expect((await Promise.all(Array.from({ length: 5 }, () => list(key)))).map((r) => r.status)).toEqual(Array(5).fill(200));
      const statuses: number[] = [];
      const remaining: number[] = [];
      for (let i = 0; i < 15; i++) {
        // One request every 200 ms of (frozen, then advanced) wall-clock time: exactly the refill rate.
        clock.advance(200);
        const res = await list(key);
        statuses.push(res.status);
        remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
      }
      expect(statuses).toEqual(Array(15).fill(200));
      // Each request spends the token refilled since the last one: the level stays at 5.
      expect(remaining).toEqual(Array(15).fill(5));
    } finally {
      clock.restore();
    }
  });

  it('REST and GraphQL draw on the same budget; GraphQL answers 429 too', async () => {
    const key = await freshKey();
    const clock = freezeClock();
    try {
      await sharedBudget(key);
    } finally {
      clock.restore();
    }
  });

  async function sharedBudget(key: string): Promise<void> {
    const mixed = await Promise.all([...Array.from({ length: 5 }, () => list(key)), ...Array.from({ length: 5 }, () => gql(key))]);
    expect(mixed.map((r) => r.status)).toEqual(Array(10).fill(200));
    const rest = await list(key);
    expect429(rest, 10);
    const graphql = await gql(key);
    expect(graphql.status).toBe(429);
    expect(Number(graphql.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(graphql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(graphql.body.data ?? null).toBeNull();
  }

  it('a GraphQL burst limits REST as well', async () => {
    const key = await freshKey();
    const clock = freezeClock();
    try {
      const burst = await Promise.all(Array.from({ length: 10 }, () => gql(key)));
      expect(burst.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(burst.map((r) => r.body.errors)).toEqual(Array(10).fill(undefined));
      expect429(await list(key), 10);
    } finally {
      clock.restore();
    }
  });

  it('concurrent requests sharing a caller-chosen X-Request-Id each report their own bucket state', async () => {
    const key = await freshKey();
    const clock = freezeClock();
    try {
      const burst = await Promise.all(
        Array.from({ length: 6 }, () => server.request('GET', '/api/v3/companies.json', { apiKey: key, headers: { 'x-request-id': 'same-id' } })),
      );
      expect(burst.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(burst.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9]);
    } finally {
      clock.restore();
    }
  });

  it('a multi-field GraphQL operation costs one token per root field, charged at once (src/graphql/cost.ts)', async () => {
    const key = await freshKey();
    const res = await server.request('POST', '/graphql', {
      body: { query: '{ a: companies { totalCount } b: companies { totalCount } c: companies { totalCount } }' },
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('7');
  });

  it('a registered app_key gets a bucket of 20', async () => {
    const key = await freshKey();
    const appKey = await new AccountAdmin(server.orm.em.fork()).createApp('x');
    const clock = freezeClock();
    try {
      const burst = await Promise.all(Array.from({ length: 20 }, () => list(key, { app_key: appKey })));
      const twentyFirst = await list(key, { app_key: appKey });
      expect(burst.map((r) => r.status)).toEqual(Array(20).fill(200));
      for (const r of burst) expect(r.headers.get('x-ratelimit-limit')).toBe('20');
      expect429(twentyFirst, 20);
      expect(twentyFirst.body).toEqual({ error: expect.any(String) });
      // Refilled at 10 per second.
      clock.advance(1000);
      const next = await Promise.all(Array.from({ length: 12 }, () => list(key, { app_key: appKey })));
      expect(next.filter((r) => r.status === 200)).toHaveLength(10);
    } finally {
      clock.restore();
    }
  });

  it('every authenticated request takes 1, whatever it answers (unknown route, 422); a 401 takes none', async () => {
    const key = await freshKey();
    // The clock stands still: no token comes back however slowly a loaded machine sends these.
    const clock = freezeClock();
    try {
      for (let i = 0; i < 3; i++) expect((await server.request('GET', '/api/v3/no_such_route.json', { apiKey: key })).status).toBe(404);
      for (let i = 0; i < 2; i++)
        expect((await server.request('GET', '/api/v3/companies.json', { apiKey: key, query: { sort: 'no_such_column' } })).status).toBe(422);
      for (let i = 0; i < 15; i++)
        expect((await server.request('GET', '/api/v3/companies.json', { apiKey: key, query: { app_key: 'b'.repeat(64) } })).status).toBe(401);
      const res = await list(key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
      // Spent: the unknown route answers 429 like any other request.
      for (let i = 0; i < 4; i++) await server.request('GET', '/api/v3/no_such_route.json', { apiKey: key });
      expect429(await server.request('GET', '/api/v3/no_such_route.json', { apiKey: key }), 10);
    } finally {
      clock.restore();
    }
  });
});

describeWithRedis('rate limit headers with the shared (Redis) buckets', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      REDIS_URL: process.env.TEST_REDIS_URL as string,
      REDIS_PREFIX: `crmtest:${randomBytes(4).toString('hex')}:`,
      RATE_LIMIT_PER_SECOND: '0.001', // no refill while the test runs
      RATE_LIMIT_BURST: '100',
    });
  }, 60_000);
  afterAll(() => server?.close());

  it('concurrent requests sharing a caller-chosen X-Request-Id each report their own remaining tokens', async () => {
    const { admin } = await server.createAccount();
    const remaining: number[] = [];
    for (let round = 0; round < 3; round++) {
      const burst = await Promise.all(
        Array.from({ length: 8 }, () => server.request('GET', '/api/v3/companies.json', { apiKey: admin.apiKey, headers: { 'x-request-id': 'same-id' } })),
      );
      expect(burst.map((r) => r.status)).toEqual(Array(8).fill(200));
      remaining.push(...burst.map((r) => Number(r.headers.get('x-ratelimit-remaining'))));
    }
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: 24 }, (_, i) => 99 - i));
  });
});
