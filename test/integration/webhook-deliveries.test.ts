import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { RETRY_SCHEDULE_MS } from '../../src/modules/webhooks/webhook-delivery';
import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Webhook deliveries (issue 24 §3): a change reaches a local receiver, signed as Standard Webhooks
 * has it (checked with the `standardwebhooks` package, an implementation of its own), in the
 * order the changes were made; a failure is retried with the same webhook-id and bytes; a 410
 * disables the endpoint; an endpoint receives only what its owner may see.
 */

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** The deliveries among `got` that `secret` signed: one endpoint's, when several listen on the receiver. */
function signedBy(secret: string, got: readonly Received[]): Received[] {
  const hook = new Webhook(secret);
  return got.filter((r) => {
    try {
      hook.verify(r.body, r.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  });
}

describe('webhook deliveries', () => {
  let server: TestServer;
  let account: TestAccount;
  let receiver: Server;
  let base: string;
  const received: Received[] = [];
  /** Statuses the receiver answers next, in turn (then 200). */
  const answers: number[] = [];
  /** Run (and awaited) before the receiver answers a delivery to this path. */
  const beforeAnswering = new Map<string, (got: Received) => Promise<void>>();

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        received.push(got);
        const hook = beforeAnswering.get(req.url ?? '');
        void (hook ? hook(got) : Promise.resolve()).finally(() => {
          res.statusCode = answers.shift() ?? 200;
          res.end('ok');
        });
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    // A worker (the changes' NOTIFY wakes its dispatch), and the receiver's loopback host allowed.
    server = await startTestServer({ RUN_WORKER: 'true', DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1', JOB_POLL_INTERVAL_MS: '200' });
    account = await server.createAccount();
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await new Promise((r) => receiver.close(r));
  });

  const endpoint = async (key: string, path: string, input: Record<string, unknown> = {}) => {
    const res = await server.graphql(
      key,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId signingSecret } userErrors { field message } } }',
      { input: { url: `${base}${path}`, models: ['DEAL'], ...input } },
    );
    expect(res.body.data.createWebhookEndpoint.userErrors).toEqual([]);
    return res.body.data.createWebhookEndpoint.webhookEndpoint as { databaseId: number; signingSecret: string };
  };
  const until = async <T>(what: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const value = await what();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('signs each delivery (Standard Webhooks), in the order of the changes, with the fields an update changed', async () => {
    const { databaseId, signingSecret } = await endpoint(account.admin.apiKey, '/ordered');
    const before = received.length;
    const deal = (await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Hooked', value: 5 } })).body.id as number;
    await server.v3(account.admin.apiKey).put(`/deals/${deal}.json`, { deal: { name: 'Hooked twice' } });
    await server.v3(account.admin.apiKey).del(`/deals/${deal}.json`);
    const mine = await until(() => {
      const got = received.slice(before);
      return got.length >= 3 ? got : undefined;
    });
    const hook = new Webhook(signingSecret);
    const payloads = mine.map((r) => hook.verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, any> });
    expect(payloads.map((p) => [p.type, p.data.record_id])).toEqual([
      ['deal.created', deal],
      ['deal.updated', deal],
      ['deal.destroyed', deal],
    ]);
    expect(payloads[1].data.changes).toEqual({ name: { previous: 'Hooked', value: 'Hooked twice' } });
    expect(payloads[2].data.record).toMatchObject({ name: 'Hooked twice' });
    expect(payloads[0].data).toMatchObject({ model: 'deal', action: 'create', origin: 'v3', actor: { type: 'user', user_id: account.admin.id } });
    // A signature from another secret does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(mine[0].body, mine[0].headers as Record<string, string>)).toThrow();
    const log = await server.sql(
      `select d.status, count(a.id)::int as attempts from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id where d.endpoint_id = ? group by d.id, d.status order by d.id`,
      [databaseId],
    );
    expect(log).toEqual([
      { status: 'delivered', attempts: 1 },
      { status: 'delivered', attempts: 1 },
      { status: 'delivered', attempts: 1 },
    ]);
    await server.graphql(account.admin.apiKey, `mutation { deleteWebhookEndpoint(id: ${databaseId}) { deletedDatabaseId } }`);
  });

  it('carries the record as its owner reads it over v3', async () => {
    const { databaseId, signingSecret } = await endpoint(account.admin.apiKey, '/records', { actions: ['CREATE'] });
    const before = received.length;
    const deal = (await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Carried', value: 12.5 } })).body.id as number;
    const got = await until(() => received[before]);
    const payload = new Webhook(signingSecret).verify(got.body, got.headers as Record<string, string>) as { data: Record<string, any> };
    const shown = await server.v3(account.admin.apiKey).get(`/deals/${deal}.json`);
    expect(shown.status).toBe(200);
    // Byte for byte what GET /deals/:id.json answers (nothing changed the deal since).
    expect(payload.data.record).toEqual(shown.body);
    expect(payload.data.record.created_at).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
    await server.graphql(account.admin.apiKey, `mutation { deleteWebhookEndpoint(id: ${databaseId}) { deletedDatabaseId } }`);
  });

  it('retries a failure later with the same webhook-id and bytes; a 410 disables the endpoint', async () => {
    const { databaseId } = await endpoint(account.admin.apiKey, '/flaky', { actions: ['CREATE'] });
    answers.push(500);
    const before = received.length;
    await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Flaky' } });
    const first = await until(() => received[before]);
    const [pending] = await until(async () => {
      const rows = await server.sql(
        `select id, status, attempts, next_attempt_at, last_status_code from webhook_deliveries where endpoint_id = ? and last_status_code = 500`,
        [databaseId],
      );
      return rows.length ? rows : undefined;
    });
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
    const wait = new Date(pending.next_attempt_at).getTime() - Date.now();
    expect(wait).toBeGreaterThan(RETRY_SCHEDULE_MS[0] * 0.9 - 2000);
    expect(wait).toBeLessThan(RETRY_SCHEDULE_MS[0] * 1.1 + 1000);
    // The retry runs at its time, about 5 s later (a job scheduled then, not the sweep's next round).
    const firstAt = Date.now();
    const second = await until(() => received[before + 1], 20_000);
    expect(Date.now() - firstAt).toBeGreaterThan(RETRY_SCHEDULE_MS[0] * 0.9 - 1500);
    // Recorded once the receiver has answered.
    const [delivered] = await until(async () => {
      const rows = await server.sql(`select status, attempts from webhook_deliveries where id = ? and status <> 'pending'`, [pending.id]);
      return rows.length ? rows : undefined;
    });
    expect(delivered).toEqual({ status: 'delivered', attempts: 2 });
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    // Gone: disabled, and nothing more is sent.
    answers.push(410);
    const count = received.length;
    await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Gone' } });
    await until(async () => {
      const [row] = await server.sql(`select enabled, disabled_reason from webhook_endpoints where id = ?`, [databaseId]);
      return row.enabled ? undefined : row;
    });
    expect(received.length).toBe(count + 1);
    const endpointNow = await server.graphql(account.admin.apiKey, `{ webhookEndpoint(id: ${databaseId}) { enabled disabledReason } }`);
    expect(endpointNow.body.data.webhookEndpoint).toEqual({ enabled: false, disabledReason: 'the URL answered 410 Gone' });
  });

  it('a redelivery asked for while the delivery is in flight is sent after it, not lost under its success', async () => {
    const { databaseId } = await endpoint(account.admin.apiKey, '/inflight', { actions: ['CREATE'] });
    let asked = false;
    beforeAnswering.set('/inflight', async (got) => {
      if (asked) return;
      asked = true;
      const id = Number(String(got.headers['webhook-id']).replace('msg_', ''));
      const again = await server.graphql(account.admin.apiKey, `mutation { redeliverWebhookDelivery(endpointId: ${databaseId}, id: ${id}) { queued } }`);
      expect(again.body.data.redeliverWebhookDelivery.queued).toBe(1);
    });
    const before = received.length;
    await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'In flight' } });
    const both = await until(() => {
      const mine = received.slice(before).filter((r) => r.body.includes('"In flight"'));
      return mine.length >= 2 ? mine : undefined;
    });
    expect(both[1].headers['webhook-id']).toBe(both[0].headers['webhook-id']);
    const rows = await until(async () => {
      const got = await server.sql<{ status: string; attempts: number }>(`select status, attempts from webhook_deliveries where endpoint_id = ?`, [databaseId]);
      return got.length === 1 && got[0].status === 'delivered' ? got : undefined;
    });
    expect(rows).toEqual([{ status: 'delivered', attempts: 1 }]);
    beforeAnswering.delete('/inflight');
    await server.graphql(account.admin.apiKey, `mutation { deleteWebhookEndpoint(id: ${databaseId}) { deletedDatabaseId } }`);
  });

  it('an endpoint receives only the changes its owner may see', async () => {
    const owner = await account.addUser({ isAdmin: true, visibility: Visibility.OWN });
    const other = await account.addUser({ isAdmin: false, visibility: Visibility.OWN });
    const { databaseId, signingSecret } = await endpoint(owner.apiKey, '/restricted', { actions: ['CREATE'] });
    // No longer an administrator: the endpoint now sees what they see, their own deals.
    await server.sql(`update users set is_admin = false where id = ?`, [owner.id]);
    const before = received.length;
    const hidden = (await server.v3(other.apiKey).post('/deals.json', { deal: { name: 'Not theirs' } })).body.id as number;
    const theirs = (await server.v3(owner.apiKey).post('/deals.json', { deal: { name: 'Theirs' } })).body.id as number;
    const got = await until(() => {
      const mine = signedBy(signingSecret, received.slice(before));
      return mine.length ? mine : undefined;
    });
    await new Promise((r) => setTimeout(r, 500));
    // This endpoint's deliveries only (another test's endpoint may still be listening).
    const theirsOnly = signedBy(signingSecret, received.slice(before));
    const ids = theirsOnly.map((r) => JSON.parse(r.body) as { data: { record_id: number } }).map((p) => p.data.record_id);
    expect(ids).toContain(theirs);
    expect(ids).not.toContain(hidden);
    // Nor any field of it, in any body; their own deal comes with its record.
    expect(theirsOnly.some((r) => r.body.includes('Not theirs'))).toBe(false);
    expect(got.map((r) => (JSON.parse(r.body) as { data: { record: { name?: string } } }).data.record.name)).toContain('Theirs');
    expect(got.length).toBeGreaterThan(0);
    expect(await server.sql(`select change_id from webhook_deliveries where endpoint_id = ?`, [databaseId])).toHaveLength(1);
  });

  it('the delivery log, a test delivery, a redelivery and a replay, for administrators only', async () => {
    const { databaseId, signingSecret } = await endpoint(account.admin.apiKey, '/log', { actions: ['CREATE'] });
    const hook = new Webhook(signingSecret);
    const before = received.length;
    const tested = await server.graphql(account.admin.apiKey, `mutation { testWebhookEndpoint(id: ${databaseId}) { queued userErrors { field code } } }`);
    expect(tested.body.data.testWebhookEndpoint).toEqual({ queued: 1, userErrors: [] });
    const test = await until(() => received.slice(before).find((r) => r.body.includes('webhook.test')));
    expect(hook.verify(test.body, test.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: databaseId } });
    await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Logged' } });
    const LOG = `{ webhookDeliveries(endpointId: ${databaseId}) { databaseId eventType changeSequence status attempts { statusCode durationMs } payload } }`;
    const log = await until(async () => {
      const rows = (await server.graphql(account.admin.apiKey, LOG)).body.data.webhookDeliveries as Array<{
        databaseId: number;
        eventType: string;
        status: string;
        changeSequence: string | null;
        attempts: unknown[];
      }>;
      return rows.length === 2 && rows.every((r) => r.status === 'DELIVERED') ? rows : undefined;
    });

    expect(log.map((r) => [r.eventType, r.status, r.attempts.length])).toEqual([
      ['deal.created', 'DELIVERED', 1],
      ['webhook.test', 'DELIVERED', 1],
    ]);
    expect(log[1].changeSequence).toBeNull();
    const count = received.length;
    const again = await server.graphql(
      account.admin.apiKey,
      `mutation { redeliverWebhookDelivery(endpointId: ${databaseId}, id: ${log[0].databaseId}) { queued } }`,
    );
    expect(again.body.data.redeliverWebhookDelivery.queued).toBe(1);
    const resent = await until(() => received[count]);
    expect(resent.headers['webhook-id']).toBe(`msg_${log[0].databaseId}`);
    const replay = await server.graphql(
      account.admin.apiKey,
      `mutation($since: DateTimeISO!) { replayWebhookEndpoint(id: ${databaseId}, since: $since) { queued } }`,
      {
        since: new Date(Date.now() - 60_000).toISOString(),
      },
    );
    expect(replay.body.data.replayWebhookEndpoint.queued).toBe(2);
    await until(() => (received.length >= count + 3 ? true : undefined));
    // Not for others.
    const member = await account.addUser({ isAdmin: false });
    expect((await server.graphql(member.apiKey, LOG)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const foreign = await server.createAccount();
    expect(
      (await server.graphql(foreign.admin.apiKey, `mutation { testWebhookEndpoint(id: ${databaseId}) { queued userErrors { field code } } }`)).body.data
        .testWebhookEndpoint,
    ).toEqual({
      queued: 0,
      userErrors: [{ field: ['id'], code: 'NOT_FOUND' }],
    });
  });
});
