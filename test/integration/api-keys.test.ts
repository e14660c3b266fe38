import { createHash } from 'node:crypto';
import { setLogLevel, setLogSink } from '../../src/common/logger';
import { createDispatcher } from '../../src/modules/webhooks/webhook-dispatch';
import { Visibility } from '../../src/context/viewer';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** What v3 GET /deals.json reads: the deals and the people they name (a deal's contacts). */
const DEAL_READER = ['deals:read', 'people:read'];

/*
 * Scoped API keys (issue 26 §3, docs/api-keys.md): made and revoked over GraphQL, accepted
 * wherever a key is, held to their scopes on both surfaces by the one check of the core.
 */

const CREATE = `mutation($input: ApiKeyCreateInput!) {
  createApiKey(input: $input) { apiKey { databaseId name prefix scopes expiresAt lastUsedAt revokedAt secret } userErrors { field code message } }
}`;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('scoped API keys', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ RUN_WORKER: 'false', DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1' });
    account = await server.createAccount();
    admin = account.admin.apiKey;
    setLogLevel('debug');
    setLogSink((line) => lines.push(line));
  }, 60_000);

  afterAll(async () => {
    setLogSink(null);
    setLogLevel((process.env.LOG_LEVEL as 'error') ?? 'error');
    await server.close();
  });

  async function makeKey(
    scopes: string[],
    options: { by?: string; expiresAt?: string; name?: string } = {},
  ): Promise<{ id: number; secret: string; body: Record<string, unknown> }> {
    const res = await server.graphql(options.by ?? admin, CREATE, { input: { name: options.name ?? 'integration', scopes, expiresAt: options.expiresAt } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createApiKey.userErrors).toEqual([]);
    const key = res.body.data.createApiKey.apiKey;
    return { id: key.databaseId as number, secret: key.secret as string, body: key };
  }

  it('shows the secret once, stores only its hash, and lists keys without it', async () => {
    const { id, secret, body } = await makeKey(['deals:read', 'people:read']);
    expect(secret).toMatch(/^crm_sk_[A-Za-z0-9_-]{43}$/);
    expect(body.prefix).toBe(secret.slice(0, 15));
    expect(body.scopes).toEqual(['deals:read', 'people:read']);
    const [row] = await server.sql<{ key_hash: string; prefix: string }>(`select key_hash, prefix from api_keys where id = ?`, [id]);
    expect(row.key_hash).toBe(sha256(secret));
    const stored = JSON.stringify(await server.sql(`select * from api_keys where id = ?`, [id]));
    expect(stored).not.toContain(secret);
    const listed = await server.graphql(admin, '{ apiKeys { databaseId name prefix scopes secret } }');
    expect(listed.body.errors).toBeUndefined();
    const mine = listed.body.data.apiKeys.find((k: { databaseId: number }) => k.databaseId === id);
    expect(mine).toEqual({ databaseId: id, name: 'integration', prefix: secret.slice(0, 15), scopes: ['deals:read', 'people:read'], secret: null });
    expect(listed.text).not.toContain(secret);
  });

  it('keeps no answer carrying a secret for an Idempotency-Key: the secret is stored nowhere', async () => {
    const input = { input: { name: 'retried', scopes: ['deals:read'] } };
    const first = await server.graphql(admin, CREATE, input, { 'idempotency-key': 'api-key-create-1' });
    const secret = first.body.data.createApiKey.apiKey.secret as string;
    expect(secret).toMatch(/^crm_sk_/);
    const stored = await server.sql(`select encode(body, 'escape') as body from idempotency_keys`);
    expect(JSON.stringify(stored)).not.toContain(secret);
    // A retry makes another key (and shows its own secret once).
    const retry = await server.graphql(admin, CREATE, input, { 'idempotency-key': 'api-key-create-1' });
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body.data.createApiKey.apiKey.secret).not.toBe(secret);
  });

  it('authenticates as api_key, Bearer and X-Api-Key, and records when it was last used', async () => {
    const { id, secret } = await makeKey(DEAL_READER);
    expect((await server.sql(`select last_used_at from api_keys where id = ?`, [id]))[0].last_used_at).toBeNull();
    expect((await server.request('GET', '/api/v3/deals.json', { query: { api_key: secret } })).status).toBe(200);
    expect((await server.request('GET', '/api/v3/deals.json', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    expect((await server.request('GET', '/api/v3/deals.json', { headers: { 'x-api-key': secret } })).status).toBe(200);
    const gql = await server.graphql(secret, '{ deals { nodes { databaseId } } }');
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();
    const lastUsed = async () => (await server.sql<{ at: string | null }>(`select last_used_at::text as at from api_keys where id = ?`, [id]))[0].at;
    const first = await lastUsed();
    expect(first).not.toBeNull();
    // Kept to the minute: a use within it writes nothing (the time has microseconds: a write would show).
    await server.request('GET', '/api/v3/deals.json', { query: { api_key: secret } });
    expect(await lastUsed()).toBe(first);
    // A minute on, the next use writes it again.
    await server.sql(`update api_keys set last_used_at = last_used_at - interval '2 minutes' where id = ?`, [id]);
    const aged = await lastUsed();
    await server.request('GET', '/api/v3/deals.json', { query: { api_key: secret } });
    expect(await lastUsed()).not.toBe(aged);
  });

  it('a read-only key reads and is refused writes on both surfaces, naming the scope', async () => {
    const { secret } = await makeKey(['deals:read', 'people:read', 'companies:read']);
    const v3 = server.v3(secret);
    expect((await v3.get('/deals.json')).status).toBe(200);
    const before = (await server.sql<{ n: number }>(`select count(*)::int as n from deals where account_id = ?`, [account.accountId]))[0].n;
    const post = await v3.post('/deals.json', { deal: { name: 'Not allowed' } });
    expect(post.status).toBe(403);
    expect(post.body).toEqual({ error: 'This API key lacks the scope deals:write' });
    const gql = await server.graphql(secret, 'mutation { createDeal(input: { name: "Not allowed" }) { deal { databaseId } userErrors { message } } }');
    expect(gql.body.data ?? null).toBeNull();
    expect(gql.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', scope: 'deals:write' });
    expect(gql.body.errors[0].message).toBe('This API key lacks the scope deals:write');
    expect((await server.sql<{ n: number }>(`select count(*)::int as n from deals where account_id = ?`, [account.accountId]))[0].n).toBe(before);
  });

  it('refuses lists and nested fields of resources the key may not read, rather than answering them empty', async () => {
    const company = await server.v3(admin).post('/companies.json', { company: { name: 'Scoped Co' } });
    expect(company.status).toBe(200);
    const deal = await server.v3(admin).post('/deals.json', { deal: { name: 'Scoped deal', company_id: company.body.id } });
    expect(deal.status).toBe(200);
    const { secret } = await makeKey(['deals:read']);
    const flat = await server.graphql(secret, `{ deal(id: ${deal.body.id}) { name } }`);
    expect(flat.body.errors).toBeUndefined();
    expect(flat.body.data.deal.name).toBe('Scoped deal');
    const nested = await server.graphql(secret, `{ deal(id: ${deal.body.id}) { name company { name } } }`);
    expect(nested.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', scope: 'companies:read' });
    // Through a fragment too.
    const fragment = await server.graphql(secret, `query { deals { nodes { ...D } } } fragment D on Deal { company { name } }`);
    expect(fragment.body.errors[0].extensions.scope).toBe('companies:read');
    const list = await server.graphql(secret, '{ people { nodes { databaseId } } }');
    expect(list.body.data ?? null).toBeNull();
    expect(list.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', scope: 'people:read' });
    // v3 answers what its route shows: a deal names its people, so a deals-only key is refused them.
    const deals = await server.v3(secret).get('/deals.json');
    expect(deals.status).toBe(403);
    expect(deals.body).toEqual({ error: 'This API key lacks the scope people:read' });
    const v3 = await server.v3(secret).get('/companies.json');
    expect(v3.status).toBe(403);
    expect(v3.body).toEqual({ error: 'This API key lacks the scope companies:read' });
    // A write scope reads too.
    const writer = await makeKey(['companies:write']);
    expect((await server.v3(writer.secret).get('/companies.json')).status).toBe(200);
  });

  it('answers 401 for expired and revoked keys, like unknown ones', async () => {
    const { id, secret } = await makeKey(DEAL_READER);
    expect((await server.v3(secret).get('/deals.json')).status).toBe(200);
    const revoked = await server.graphql(admin, `mutation { revokeApiKey(id: ${id}) { apiKey { revokedAt } userErrors { code } } }`);
    expect(revoked.body.data.revokeApiKey.apiKey.revokedAt).not.toBeNull();
    const afterRevoke = await server.v3(secret).get('/deals.json');
    expect(afterRevoke.status).toBe(401);
    const unknown = await server.v3(`crm_sk_${'x'.repeat(43)}`).get('/deals.json');
    expect(unknown.status).toBe(401);
    expect(afterRevoke.body).toEqual(unknown.body);
    expect((await server.graphql(secret, '{ viewer { databaseId } }')).status).toBe(401);
    const expiring = await makeKey(DEAL_READER, { expiresAt: new Date(Date.now() + 60 * 60_000).toISOString() });
    expect((await server.v3(expiring.secret).get('/deals.json')).status).toBe(200);
    await server.sql(`update api_keys set expires_at = now() - interval '1 second' where id = ?`, [expiring.id]);
    expect((await server.v3(expiring.secret).get('/deals.json')).status).toBe(401);
  });

  it('refuses bad input with a user error naming it, and writes nothing', async () => {
    const count = async () => (await server.sql<{ n: number }>(`select count(*)::int as n from api_keys where account_id = ?`, [account.accountId]))[0].n;
    const before = await count();
    const unknown = await server.graphql(admin, CREATE, { input: { name: 'bad', scopes: ['deals:read', 'dealz:write'] } });
    expect(unknown.body.data.createApiKey.apiKey).toBeNull();
    expect(unknown.body.data.createApiKey.userErrors).toEqual([
      { field: ['input', 'scopes'], code: 'INVALID', message: expect.stringContaining('unknown scope "dealz:write"') },
    ]);
    const blank = await server.graphql(admin, CREATE, { input: { name: '  ', scopes: [] } });
    expect(blank.body.data.createApiKey.userErrors.map((e: { field: string[] }) => e.field.join('.'))).toEqual(['input.name', 'input.scopes']);
    const long = await server.graphql(admin, CREATE, { input: { name: 'n'.repeat(101), scopes: ['deals:read'] } });
    expect(long.body.data.createApiKey.userErrors).toEqual([{ field: ['input', 'name'], code: 'TOO_LONG', message: expect.stringContaining('100') }]);
    const many = await server.graphql(admin, CREATE, { input: { name: 'many', scopes: new Array(65).fill('deals:read') } });
    expect(many.body.data.createApiKey.userErrors[0].message).toContain('at most 64');
    const past = await server.graphql(admin, CREATE, { input: { name: 'past', scopes: ['deals:read'], expiresAt: '2020-01-01T00:00:00Z' } });
    expect(past.body.data.createApiKey.userErrors).toEqual([{ field: ['input', 'expiresAt'], code: 'INVALID', message: 'must be in the future' }]);
    const user = await account.addUser({ isAdmin: false });
    const notAdmin = await server.graphql(user.apiKey, CREATE, { input: { name: 'admin?', scopes: ['admin'] } });
    expect(notAdmin.body.data.createApiKey.userErrors[0].message).toBe('admin is for administrators only');
    expect(await count()).toBe(before);
  });

  it('a key cannot manage keys without admin, nor give more than it holds', async () => {
    const reader = await makeKey(['deals:read']);
    const refused = await server.graphql(reader.secret, CREATE, { input: { name: 'more', scopes: ['deals:read'] } });
    expect(refused.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', scope: 'admin' });
    expect((await server.graphql(reader.secret, '{ apiKeys { databaseId } }')).body.errors[0].extensions.scope).toBe('admin');
    const manager = await makeKey(['admin', 'deals:read']);
    const escalate = await server.graphql(manager.secret, CREATE, { input: { name: 'more', scopes: ['deals:write', 'people:read'] } });
    expect(escalate.body.data.createApiKey.userErrors).toEqual([
      { field: ['input', 'scopes'], code: 'INVALID', message: 'cannot give deals:write, people:read: the key making it lacks them' },
    ]);
    const within = await makeKey(['deals:read'], { by: manager.secret });
    expect(within.secret).toMatch(/^crm_sk_/);
  });

  it('acts as its user: another user of the account sees only their own keys, and a deleted user’s keys stop', async () => {
    const user = await account.addUser({ isAdmin: false });
    const { id, secret } = await makeKey(DEAL_READER, { by: user.apiKey });
    const [row] = await server.sql<{ user_id: number }>(`select user_id from api_keys where id = ?`, [id]);
    expect(row.user_id).toBe(user.id);
    const viewer = await server.graphql(secret, '{ viewer { databaseId } }');
    expect(viewer.body.data.viewer.databaseId).toBe(user.id);
    const theirs = await server.graphql(user.apiKey, '{ apiKeys { databaseId } }');
    expect(theirs.body.data.apiKeys.map((k: { databaseId: number }) => k.databaseId)).toEqual([id]);
    const notAll = await server.graphql(user.apiKey, '{ apiKeys(all: true) { databaseId } }');
    expect(notAll.body.errors[0].extensions.code).toBe('FORBIDDEN');
    // Another user's key is NOT_FOUND to a non-admin.
    const other = await makeKey(['deals:read']);
    const revoke = await server.graphql(user.apiKey, `mutation { revokeApiKey(id: ${other.id}) { apiKey { databaseId } userErrors { code } } }`);
    expect(revoke.body.data.revokeApiKey.userErrors).toEqual([{ code: 'NOT_FOUND' }]);
    await server.sql(`delete from users where id = ?`, [user.id]);
    expect((await server.v3(secret).get('/deals.json')).status).toBe(401);
  });

  it('keeps its user’s visibility on top of its scopes', async () => {
    const user = await account.addUser({ isAdmin: false, visibility: Visibility.OWN });
    const theirs = await server.v3(user.apiKey).post('/deals.json', { deal: { name: 'Their own deal' } });
    const others = await server.v3(admin).post('/deals.json', { deal: { name: 'The admin deal' } });
    expect([theirs.status, others.status]).toEqual([200, 200]);
    const { secret } = await makeKey(['deals:read'], { by: user.apiKey });
    const seen = await server.graphql(secret, '{ deals(first: 100) { nodes { databaseId } } }');
    expect(seen.body.errors).toBeUndefined();
    const ids = seen.body.data.deals.nodes.map((n: { databaseId: number }) => n.databaseId);
    expect(ids).toContain(theirs.body.id);
    expect(ids).not.toContain(others.body.id);
  });

  it('limits the change feed and webhook endpoints made with a scoped key to what it may read', async () => {
    const drain = createDispatcher({ orm: server.orm, queue: { enqueue: async () => undefined } }, (e) => {
      throw e;
    });
    await drain.run();
    const { secret } = await makeKey(['deals:read', 'webhook_endpoints:write']);
    const made = await server.graphql(
      secret,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId } userErrors { message } } }',
      { input: { url: 'http://127.0.0.1:9/hook', models: ['DEAL', 'PERSON'], actions: ['CREATE'] } },
    );
    // Asking for changes it may not read is refused, naming the scope.
    expect(made.body.data.createWebhookEndpoint.userErrors).toEqual([{ message: 'this API key lacks the scope people:read' }]);
    const deals = await server.graphql(
      secret,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId } userErrors { message } } }',
      { input: { url: 'http://127.0.0.1:9/hook', models: ['DEAL'], actions: ['CREATE'] } },
    );
    expect(deals.body.data.createWebhookEndpoint.userErrors).toEqual([]);
    const endpointId = deals.body.data.createWebhookEndpoint.webhookEndpoint.databaseId as number;
    // An administrator's own key adds people to it: it still receives only what the key that made it may read.
    const widened = await server.graphql(
      admin,
      `mutation { updateWebhookEndpoint(id: ${endpointId}, input: { models: [DEAL, PERSON] }) { userErrors { message } } }`,
    );
    expect(widened.body.data.updateWebhookEndpoint.userErrors).toEqual([]);
    const feedStart = (await server.graphql(secret, '{ changes(first: 200) { endCursor hasNextPage } }')).body.data.changes;
    let after = feedStart.endCursor as string;
    for (let more = feedStart.hasNextPage as boolean; more;) {
      const page = (await server.graphql(secret, 'query($a: String) { changes(after: $a, first: 200) { endCursor hasNextPage } }', { a: after })).body.data
        .changes;
      after = page.endCursor;
      more = page.hasNextPage;
    }
    const deal = await server.v3(admin).post('/deals.json', { deal: { name: 'Seen' } });
    const person = await server.v3(admin).post('/people.json', { person: { first_name: 'Un', last_name: 'Seen' } });
    expect([deal.status, person.status]).toEqual([200, 200]);
    const feed = await server.graphql(secret, 'query($a: String) { changes(after: $a) { nodes { model recordDatabaseId } } }', { a: after });
    expect(feed.body.errors).toBeUndefined();
    expect(feed.body.data.changes.nodes).toEqual([{ model: 'DEAL', recordDatabaseId: deal.body.id }]);
    // The same feed with the admin's own key holds both.
    const full = await server.graphql(admin, 'query($a: String) { changes(after: $a) { nodes { model } } }', { a: after });
    expect(full.body.data.changes.nodes.map((n: { model: string }) => n.model).sort()).toEqual(['DEAL', 'PERSON']);
    await drain.run();
    await drain.close();
    const delivered = await server.sql<{ event_type: string }>(`select event_type from webhook_deliveries where endpoint_id = ? order by id`, [endpointId]);
    expect(delivered.map((d) => d.event_type)).toEqual(['deal.created']);
  });

  it('answers node lookups of records the key may not read as null, as records it may not see', async () => {
    const company = await server.v3(admin).post('/companies.json', { company: { name: 'Hidden by scope' } });
    const { secret } = await makeKey(['deals:read']);
    const id = (await server.graphql(admin, `{ company(id: ${company.body.id}) { id } }`)).body.data.company.id as string;
    const probe = await server.graphql(secret, 'query($id: ID!) { node(id: $id) { ... on Deal { name } } }', { id });
    expect(probe.body.errors).toBeUndefined();
    expect(probe.body.data.node).toBeNull();
    const typed = await server.graphql(secret, 'query($id: ID!) { node(id: $id) { __typename } }', { id });
    expect(typed.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('never writes a secret to a log line', async () => {
    const { id, secret } = await makeKey(DEAL_READER);
    await server.request('GET', '/api/v3/deals.json', { query: { api_key: secret } });
    await server.request('GET', '/api/v3/people.json', { query: { api_key: secret } });
    await server.request('GET', '/api/v3/deals.json', { query: { api_key: `${secret}x` } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.length).toBeGreaterThan(0);
    const text = lines.join('\n');
    // The request line names the key by its id.
    const requests = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.message === 'request' && l.route === '/api/v3/people');
    expect(requests.at(-1)).toMatchObject({ status: 200, apiKeyId: id });
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(15));
  });
});
