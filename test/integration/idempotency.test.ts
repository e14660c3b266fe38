import { randomBytes } from 'node:crypto';
import { IdempotencyStore } from '../../src/db/idempotency-keys';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Idempotency keys (issue 26 §1) on v3 writes and GraphQL mutations, against real PostgreSQL: a
 * retry gets the first answer again and writes nothing; another request under the same key is a
 * 422; a bad key is a 400 naming the header; keys belong to the caller's key; two API servers
 * racing one key write once (the database decides); an expired key is a new one.
 */
describe('Idempotency-Key', () => {
  let server: TestServer;
  let other: TestServer;
  let account: TestAccount;
  const newKey = () => `key-${randomBytes(8).toString('hex')}`;
  const dealsNamed = async (name: string) =>
    (await server.sql<{ n: number }>(`select count(*)::int as n from deals where account_id = ? and name = ?`, [account.accountId, name]))[0].n;
  const post = (s: TestServer, apiKey: string, key: string, deal: Record<string, unknown>) =>
    s.request('POST', '/api/v3/deals.json', { apiKey, body: { deal }, headers: { 'Idempotency-Key': key } });

  beforeAll(async () => {
    server = await startTestServer();
    // A second API server on the same database: its own pool and process state, as another process has.
    other = await startTestServer();
    account = await server.createAccount();
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  it('a v3 create retried with its key answers the first answer again and creates nothing more', async () => {
    const key = newKey();
    const first = await post(server, account.admin.apiKey, key, { name: 'Once', value: 10 });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post(server, account.admin.apiKey, key, { name: 'Once', value: 10 });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    // The rate headers are the retry's own, as on any request.
    expect(again.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(await dealsNamed('Once')).toBe(1);
    // The credential's place does not matter: a header key is the same caller's key.
    const byHeader = await server.request('POST', '/api/v3/deals.json', {
      body: { deal: { name: 'Once', value: 10 } },
      headers: { 'Idempotency-Key': key, 'X-Api-Key': account.admin.apiKey },
    });
    expect(byHeader.headers.get('idempotent-replayed')).toBe('true');
    expect(await dealsNamed('Once')).toBe(1);
  });

  it('the same key with another request is a 422 naming the header, and writes nothing', async () => {
    const key = newKey();
    expect((await post(server, account.admin.apiKey, key, { name: 'First payload' })).status).toBe(200);
    const other = await post(server, account.admin.apiKey, key, { name: 'Second payload' });
    expect(other.status).toBe(422);
    expect(JSON.stringify(other.body)).toContain('Idempotency-Key');
    expect(await dealsNamed('Second payload')).toBe(0);
    // The same key on another route is another key.
    const update = await server.request('PUT', `/api/v3/deals/${(await post(server, account.admin.apiKey, key, { name: 'First payload' })).body.id}.json`, {
      apiKey: account.admin.apiKey,
      body: { deal: { name: 'Renamed once' } },
      headers: { 'Idempotency-Key': key },
    });
    expect(update.status).toBe(200);
  });

  it('a refused write is kept too: its retry gets the same 422', async () => {
    const key = newKey();
    const refused = await post(server, account.admin.apiKey, key, { name: 'Refused', probability: 140 });
    expect(refused.status).toBe(422);
    const again = await post(server, account.admin.apiKey, key, { name: 'Refused', probability: 140 });
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(refused.text);
  });

  it('a key longer than 255 characters, or not printable ASCII, is a 400 naming the header, and nothing is written', async () => {
    for (const key of ['k'.repeat(256), 'clé']) {
      const res = await post(server, account.admin.apiKey, key, { name: 'Bad key' });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('Idempotency-Key');
    }
    expect((await post(server, account.admin.apiKey, 'k'.repeat(255), { name: 'Longest key' })).status).toBe(200);
    expect(await dealsNamed('Bad key')).toBe(0);
  });

  it("a key is the caller's: another user's request under the same key runs", async () => {
    const key = newKey();
    const member = await account.addUser({ isAdmin: true });
    expect((await post(server, account.admin.apiKey, key, { name: 'Mine' })).status).toBe(200);
    const theirs = await post(server, member.apiKey, key, { name: 'Mine' });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await dealsNamed('Mine')).toBe(2);
  });

  it('a delete retried answers as the first time, not 404', async () => {
    const id = (await post(server, account.admin.apiKey, newKey(), { name: 'To delete' })).body.id as number;
    const key = newKey();
    const first = await server.request('DELETE', `/api/v3/deals/${id}.json`, { apiKey: account.admin.apiKey, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    const again = await server.request('DELETE', `/api/v3/deals/${id}.json`, { apiKey: account.admin.apiKey, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // Without the key it is a new request: the deal is gone.
    expect((await server.request('DELETE', `/api/v3/deals/${id}.json`, { apiKey: account.admin.apiKey })).status).toBe(404);
  });

  it('two API servers racing one key write once; the others replay it or are told to retry (409)', async () => {
    const key = newKey();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 === 0 ? server : other, account.admin.apiKey, key, { name: 'Raced once', value: 3 })),
    );
    expect(await dealsNamed('Raced once')).toBe(1);
    const ok = results.filter((r) => r.status === 200);
    const busy = results.filter((r) => r.status === 409);
    expect(ok.length + busy.length).toBe(results.length);
    expect(ok.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(new Set(ok.map((r) => r.text)).size).toBe(1);
    for (const r of busy) {
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body.error).toContain('Idempotency-Key');
    }
    // Once done, every retry on either server is the replay.
    const later = await post(other, account.admin.apiKey, key, { name: 'Raced once', value: 3 });
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.text).toBe(ok[0].text);
  });

  it('a GraphQL mutation with a key runs once; a query ignores the key', async () => {
    const key = newKey();
    const mutation = 'mutation($input: DealCreateInput!) { createDeal(input: $input) { deal { databaseId name } userErrors { field message } } }';
    const variables = { input: { name: 'GraphQL once' } };
    const first = await server.graphql(account.admin.apiKey, mutation, variables, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(first.body.data.createDeal.userErrors).toEqual([]);
    const again = await other.graphql(account.admin.apiKey, mutation, variables, { 'Idempotency-Key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await dealsNamed('GraphQL once')).toBe(1);
    const changed = await server.graphql(account.admin.apiKey, mutation, { input: { name: 'GraphQL twice' } }, { 'Idempotency-Key': key });
    expect(changed.status).toBe(422);
    expect(changed.body.errors[0].extensions).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', header: 'Idempotency-Key' });
    expect(await dealsNamed('GraphQL twice')).toBe(0);
    const bad = await server.graphql(account.admin.apiKey, mutation, variables, { 'Idempotency-Key': 'x'.repeat(300) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].extensions.header).toBe('Idempotency-Key');
    const query = await server.graphql(account.admin.apiKey, '{ deals(first: 1) { nodes { databaseId } } }', {}, { 'Idempotency-Key': key });
    expect(query.status).toBe(200);
    expect(query.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a key past its expiry is a new key', async () => {
    // 0.0005 hours: 1.8 s.
    const brief = await startTestServer({ IDEMPOTENCY_KEY_TTL_HOURS: '0.0005' });
    try {
      const key = newKey();
      expect((await post(brief, account.admin.apiKey, key, { name: 'Expiring' })).status).toBe(200);
      expect((await post(brief, account.admin.apiKey, key, { name: 'Expiring' })).headers.get('idempotent-replayed')).toBe('true');
      await new Promise((r) => setTimeout(r, 2_000));
      const later = await post(brief, account.admin.apiKey, key, { name: 'Expiring' });
      expect(later.status).toBe(200);
      expect(later.headers.get('idempotent-replayed')).toBeNull();
      expect(await dealsNamed('Expiring')).toBe(2);
    } finally {
      await brief.close();
    }
  });

  it('the sweep prunes expired keys, a batch at a time, and leaves live ones', async () => {
    const owner = 'f'.repeat(64);
    await server.sql(
      `insert into idempotency_keys (owner, scope, key, fingerprint, state, status, locked_until, expires_at)
       select ?, 'POST /api/v3/deals.json', 'old-' || n, ?, 'done', 200, now(), now() - interval '1 minute' from generate_series(1, 5) n`,
      [owner, 'a'.repeat(64)],
    );
    await server.sql(
      `insert into idempotency_keys (owner, scope, key, fingerprint, state, status, locked_until, expires_at) values (?, 'POST /api/v3/deals.json', 'live', ?, 'done', 200, now(), now() + interval '1 hour')`,
      [owner, 'a'.repeat(64)],
    );
    const store = new IdempotencyStore(server.orm, 24);
    expect(await store.prune(3)).toBe(3);
    expect(await store.prune(100)).toBeGreaterThanOrEqual(2);
    expect((await server.sql<{ key: string }>(`select key from idempotency_keys where owner = ?`, [owner])).map((r) => r.key)).toEqual(['live']);
  });
});
