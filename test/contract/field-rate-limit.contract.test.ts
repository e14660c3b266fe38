import { startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * Per-field limits with windows (graphql-rate-limit, src/graphql/field-rate-limit.ts) on expensive
 * mutations, here made small through FIELD_RATE_LIMITS; the overall token bucket is raised out of
 * the way (test config). One process, no Redis: the in-memory windows.
 */

/** Freezes the wall clock (Date only; timers run as usual): windows move exactly when a test advances time. */
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
  return { advance: (ms) => jest.setSystemTime(Date.now() + ms), restore: () => jest.useRealTimers() };
}

const CREATE = 'mutation($input: DocumentCreateInput!) { createDocument(input: $input) { document { databaseId } userErrors { message } } }';
const RESET = 'mutation($id: Int!) { resetDocumentPublicLink(id: $id) { document { publicLink } userErrors { message } } }';

describe('per-field rate limits (graphql-rate-limit)', () => {
  let server: TestServer;
  let account: TestAccount;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ FIELD_RATE_LIMITS: 'Mutation.createDocument=3/1m, Mutation.resetDocumentPublicLink=2/1m' });
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  const create = (key: string) => server.graphql(key, CREATE, { input: { url: `https://files.example.test/limited-${++n}.pdf` } });
  const createV3 = (key: string) => server.v3(key).post('/documents.json', { document: { url: `https://files.example.test/limited-${++n}.pdf` } });
  const created = (res: TestResponse) => res.status === 200 && res.body.data?.createDocument?.userErrors.length === 0;
  const documentsOf = async (userId: number) => (await server.sql<{ n: number }>('select count(*)::int as n from documents where owner_id = ?', [userId]))[0].n;

  function expectRefused(res: TestResponse, retryAfter: number): void {
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(retryAfter));
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toBe(`createDocument is limited to 3 calls per user in 60 s: retry in ${retryAfter} s`);
    expect(res.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter });
  }

  it('beyond max calls in the window: RATE_LIMITED with the honest retry time, over GraphQL and v3 alike', async () => {
    const user = await account.addUser();
    const clock = freezeClock();
    try {
      expect(created(await create(user.apiKey))).toBe(true);
      clock.advance(20_000);
      // v3 runs the same mutation: it counts in the same window.
      expect((await createV3(user.apiKey)).status).toBe(200);
      expect(created(await create(user.apiKey))).toBe(true);
      // The oldest call leaves the window 40 s from now.
      expectRefused(await create(user.apiKey), 40);
      const v3 = await createV3(user.apiKey);
      expect(v3.status).toBe(429);
      expect(v3.headers.get('retry-after')).toBe('40');
      expect(v3.body).toEqual({ error: 'Rate limit exceeded. Retry in 40 second(s).' });
      expect(await documentsOf(user.id)).toBe(3);
      // Only this field: the user's other calls go on, and reading documents too.
      expect((await server.v3(user.apiKey).get('/documents.json')).status).toBe(200);
      expect((await server.v3(user.apiKey).post('/people.json', { person: { last_name: 'Still allowed' } })).status).toBe(200);
      // Refused calls are not counted: the retry time was honest.
      clock.advance(39_000);
      expectRefused(await create(user.apiKey), 1);
      clock.advance(1_000);
      expect(created(await create(user.apiKey))).toBe(true);
      // The two calls made 20 s in leave the window 20 s from now.
      expectRefused(await create(user.apiKey), 20);
      expect(await documentsOf(user.id)).toBe(4);
    } finally {
      clock.restore();
    }
  });

  it('windows are per user', async () => {
    const [noisy, quiet] = [await account.addUser(), await account.addUser()];
    const clock = freezeClock();
    try {
      for (let i = 0; i < 3; i++) expect(created(await create(noisy.apiKey))).toBe(true);
      expect((await create(noisy.apiKey)).status).toBe(429);
      expect(created(await create(quiet.apiKey))).toBe(true);
    } finally {
      clock.restore();
    }
  });

  it('concurrent calls are counted exactly: max pass, the rest are refused', async () => {
    const user = await account.addUser();
    const clock = freezeClock();
    try {
      const all = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? create(user.apiKey) : createV3(user.apiKey))));
      expect(all.filter((r) => r.status === 200)).toHaveLength(3);
      expect(all.filter((r) => r.status === 429)).toHaveLength(5);
      expect(await documentsOf(user.id)).toBe(3);
    } finally {
      clock.restore();
    }
  });

  it('resetDocumentPublicLink has a window of its own', async () => {
    const user = await account.addUser();
    const clock = freezeClock();
    try {
      const id = (await create(user.apiKey)).body.data.createDocument.document.databaseId as number;
      const reset = () => server.graphql(user.apiKey, RESET, { id });
      expect((await reset()).body.data.resetDocumentPublicLink.userErrors).toEqual([]);
      expect((await reset()).body.data.resetDocumentPublicLink.userErrors).toEqual([]);
      const refused = await reset();
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 60 });
      expect(refused.body.errors[0].message).toMatch(/^resetDocumentPublicLink is limited to 2 calls per user in 60 s/);
      // Creating documents draws on its own window (1 of 3 used).
      expect(created(await create(user.apiKey))).toBe(true);
    } finally {
      clock.restore();
    }
  });
});

describe('FIELD_RATE_LIMITS', () => {
  it('naming a field that declares no limit stops the server', async () => {
    await expect(startTestServer({ FIELD_RATE_LIMITS: 'Mutation.createPerson=1/1m' })).rejects.toThrow(
      'FIELD_RATE_LIMITS: Mutation.createPerson declares no rate limit (those that do: Mutation.createDocument, Mutation.resetDocumentPublicLink)',
    );
  });
});
