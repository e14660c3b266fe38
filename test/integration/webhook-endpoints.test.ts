import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Webhook endpoints (issue 24 §3; DECISIONS: Webhooks): the v3 `/admin/webhooks.json` flows of the
 * official Ruby client (webhooks_create.yml, webhooks_index.yml, webhooks_delete.yml), admins only,
 * the recorded keys without any secret, `delete` accepted as `destroy`, a private URL refused
 * naming `url`; over GraphQL several models and actions, the signing secret shown once, rotation.
 */

/** As recorded, in order, plus url and failure_email (never the recording's account_key). */
const KEYS = [
  'id',
  'event_model',
  'name',
  'is_activated',
  'created_at',
  'updated_at',
  'account_id',
  'last_run_at',
  'event_action',
  'description',
  'url',
  'failure_email',
];
const ENDPOINT = 'databaseId url name description models actions onlyWhenChanged enabled failureEmail ownerId signingSecret';

describe('webhook endpoints', () => {
  let server: TestServer;
  let account: TestAccount;
  let member: { id: number; apiKey: string };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    member = await account.addUser({ isAdmin: false, visibility: Visibility.ALL });
  }, 60_000);
  afterAll(() => server.close());

  const admin = () => server.v3(account.admin.apiKey);

  it('the Ruby client: create answers the webhook, index lists it under "webhooks", delete answers null', async () => {
    const created = await admin().post('/admin/webhooks.json', {
      webhook: { event_model: 'person', event_action: 'create', failure_email: 'test@test.com', url: 'http://this.pld.com' },
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(KEYS);
    expect(created.body).toMatchObject({
      event_model: 'person',
      event_action: 'create',
      is_activated: true,
      account_id: account.accountId,
      last_run_at: null,
      url: 'http://this.pld.com/',
      failure_email: 'test@test.com',
    });
    expect(created.body.name).toMatch(/ person:create$/);
    expect(created.body.description).toBe(`${created.body.name} => http://this.pld.com/`);
    expect(created.text).not.toMatch(/whsec_|secret|account_key/);

    const index = await admin().get('/admin/webhooks.json');
    expect(index.status).toBe(200);
    expect(Object.keys(index.body)).toEqual(['webhooks']);
    expect(index.body.webhooks.map((w: { id: number }) => w.id)).toContain(created.body.id);

    const removed = await admin().del(`/admin/webhooks/${created.body.id}.json`);
    expect({ status: removed.status, text: removed.text }).toEqual({ status: 200, text: 'null' });
    expect((await admin().get('/admin/webhooks.json')).body.webhooks.map((w: { id: number }) => w.id)).not.toContain(created.body.id);
  });

  it('takes `delete` as `destroy`, and updates', async () => {
    const created = await admin().post('/admin/webhooks.json', {
      webhook: { event_model: 'company', event_action: 'delete', url: 'https://hooks.example.com/a' },
    });
    expect(created.body.event_action).toBe('destroy');
    const updated = await admin().put(`/admin/webhooks/${created.body.id}.json`, { webhook: { event_model: 'deal', url: 'https://hooks.example.com/b' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ event_model: 'deal', event_action: 'destroy', url: 'https://hooks.example.com/b' });
  });

  it('refuses, naming the field and writing nothing: an unknown model or action, a blank or private URL', async () => {
    const count = async () => Number((await server.sql('select count(*)::int as n from webhook_endpoints where account_id = ?', [account.accountId]))[0].n);
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ event_model: 'widget', event_action: 'create', url: 'https://hooks.example.com/x' }, 'event_model'],
      [{ event_model: 'deal', event_action: 'explode', url: 'https://hooks.example.com/x' }, 'event_action'],
      [{ event_action: 'create', url: 'https://hooks.example.com/x' }, 'event_model'],
      [{ event_model: 'deal', url: '' }, 'url'],
      [{ event_model: 'deal', url: 'ftp://hooks.example.com/x' }, 'url'],
      [{ event_model: 'deal', url: 'http://127.0.0.1:8080/hook' }, 'url'],
      [{ event_model: 'deal', url: 'http://10.1.2.3/hook' }, 'url'],
      [{ event_model: 'deal', url: 'http://[::1]/hook' }, 'url'],
      [{ event_model: 'deal', url: 'http://localhost/hook' }, 'url'],
      [{ event_model: 'deal', url: 'https://hooks.example.com/x', failure_email: 'not an address' }, 'failure_email'],
    ];
    for (const [webhook, field] of cases) {
      const res = await admin().post('/admin/webhooks.json', { webhook });
      expect({ webhook, status: res.status, fields: (res.body as Array<{ field: string }>).map((e) => e.field) }).toEqual({
        webhook,
        status: 422,
        fields: [field],
      });
    }
    expect(await count()).toBe(before);
  });

  it('is for administrators only: every route answers 403 {"error"} to others', async () => {
    const id = (await admin().post('/admin/webhooks.json', { webhook: { event_model: 'deal', url: 'https://hooks.example.com/c' } })).body.id;
    const v3 = server.v3(member.apiKey);
    for (const res of [
      await v3.get('/admin/webhooks.json'),
      await v3.get(`/admin/webhooks/${id}.json`),
      await v3.post('/admin/webhooks.json', { webhook: { event_model: 'deal', url: 'https://hooks.example.com/d' } }),
      await v3.put(`/admin/webhooks/${id}.json`, { webhook: { url: 'https://hooks.example.com/e' } }),
      await v3.del(`/admin/webhooks/${id}.json`),
    ]) {
      expect({ status: res.status, error: typeof res.body?.error }).toEqual({ status: 403, error: 'string' });
    }
    const graphql = await server.graphql(member.apiKey, '{ webhookEndpoints { nodes { databaseId } } }');
    expect(graphql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    // Another account's admin does not find it.
    const other = await server.createAccount();
    expect((await server.v3(other.admin.apiKey).get(`/admin/webhooks/${id}.json`)).status).toBe(404);
  });

  it('GraphQL: several models and actions, a field filter, the signing secret once, rotation', async () => {
    const created = await server.graphql(
      account.admin.apiKey,
      `mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { ${ENDPOINT} } userErrors { field code message } } }`,
      {
        input: {
          url: 'https://hooks.example.com/g',
          models: ['DEAL', 'PERSON'],
          actions: ['UPDATE'],
          onlyWhenChanged: ['name', 'custom_fields.custom_label_3'],
          description: 'CRM sync',
        },
      },
    );
    const endpoint = created.body.data.createWebhookEndpoint.webhookEndpoint;
    expect(created.body.data.createWebhookEndpoint.userErrors).toEqual([]);
    expect(endpoint).toMatchObject({
      models: ['DEAL', 'PERSON'],
      actions: ['UPDATE'],
      onlyWhenChanged: ['name', 'custom_fields.custom_label_3'],
      enabled: true,
      ownerId: account.admin.id,
      description: 'CRM sync',
    });
    expect(endpoint.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await server.graphql(account.admin.apiKey, `{ webhookEndpoint(id: ${endpoint.databaseId}) { signingSecret } }`);
    expect(read.body.data.webhookEndpoint.signingSecret).toBeNull();
    const rotated = await server.graphql(
      account.admin.apiKey,
      `mutation { rotateWebhookEndpointSecret(id: ${endpoint.databaseId}) { webhookEndpoint { signingSecret } userErrors { field code } } }`,
    );
    const secret = rotated.body.data.rotateWebhookEndpointSecret.webhookEndpoint.signingSecret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.signingSecret);
    const [row] = await server.sql('select secret, previous_secret, previous_secret_until from webhook_endpoints where id = ?', [endpoint.databaseId]);
    expect(row).toMatchObject({ secret, previous_secret: endpoint.signingSecret });
    expect(new Date(row.previous_secret_until).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    // The v3 face of an endpoint of several models and actions.
    const v3 = await admin().get(`/admin/webhooks/${endpoint.databaseId}.json`);
    expect(v3.body).toMatchObject({ event_model: 'deal,person', event_action: 'update' });
    const bad = await server.graphql(
      account.admin.apiKey,
      `mutation { updateWebhookEndpoint(id: ${endpoint.databaseId}, input: { models: [], onlyWhenChanged: ["Not A Column"] }) { userErrors { field code } } }`,
    );
    expect(bad.body.data.updateWebhookEndpoint.userErrors).toEqual([
      { field: ['input', 'models'], code: 'BLANK' },
      { field: ['input', 'onlyWhenChanged'], code: 'INVALID' },
    ]);
  });

  it('enabled again, a disabled endpoint starts its failures over', async () => {
    const created = await admin().post('/admin/webhooks.json', { webhook: { event_model: 'deal', event_action: 'update', url: 'http://hooks.example.com/a' } });
    const id = created.body.id as number;
    await server.sql(
      `update webhook_endpoints set enabled = false, disabled_reason = 'failing for 5 days', failing_since = now() - interval '6 days' where id = ?`,
      [id],
    );
    const again = await admin().put(`/admin/webhooks/${id}.json`, { webhook: { is_activated: true } });
    expect(again.status).toBe(200);
    expect(again.body.is_activated).toBe(true);
    expect(await server.sql(`select enabled, disabled_reason, failing_since from webhook_endpoints where id = ?`, [id])).toEqual([
      { enabled: true, disabled_reason: null, failing_since: null },
    ]);
    // Still enabled and failing: saying enabled again does not restart the clock.
    await server.sql(`update webhook_endpoints set failing_since = now() - interval '1 day' where id = ?`, [id]);
    await admin().put(`/admin/webhooks/${id}.json`, { webhook: { is_activated: true } });
    const [row] = await server.sql<{ failing_since: Date | null }>(`select failing_since from webhook_endpoints where id = ?`, [id]);
    expect(row.failing_since).not.toBeNull();
  });
});
