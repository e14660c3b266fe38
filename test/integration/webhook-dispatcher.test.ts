import type { JobQueue } from '../../src/context/job-queue';
import { createDispatcher } from '../../src/modules/webhooks';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * The webhook dispatcher (webhook-dispatch.ts) without a worker around it: two dispatchers on one
 * database (two worker processes) woken over and over while changes keep coming make each change's
 * delivery exactly once, and the wakes of a running pass are one more pass, not one each.
 */
describe('webhook dispatcher', () => {
  let server: TestServer;
  let account: TestAccount;
  const enqueued: number[] = [];
  const queue: JobQueue = {
    enqueue: async (name, data) => {
      if (name === 'deliver-webhooks') enqueued.push((data as { endpointId: number }).endpointId);
    },
  };

  beforeAll(async () => {
    // No worker: the dispatchers below are the only ones.
    server = await startTestServer({ RUN_WORKER: 'false', DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1' });
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  it('two dispatchers racing make each delivery once, and passes until the backlog is read', async () => {
    // Changes that earlier test files on this database left undispatched (their servers closed
    // first) are read first, so the passes below read this test's changes only.
    const drain = createDispatcher({ orm: server.orm, queue: { enqueue: async () => undefined } }, (e) => {
      throw e;
    });
    await drain.run();
    await drain.close();
    const made = await server.graphql(
      account.admin.apiKey,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId } userErrors { message } } }',
      { input: { url: 'http://127.0.0.1:9/hook', models: ['DEAL'], actions: ['CREATE'] } },
    );
    const endpointId = made.body.data.createWebhookEndpoint.webhookEndpoint.databaseId as number;
    const errors: unknown[] = [];
    // Small passes: a backlog takes several.
    const one = createDispatcher({ orm: server.orm, queue, batch: 7 }, (e) => errors.push(e));
    const two = createDispatcher({ orm: server.orm, queue, batch: 7 }, (e) => errors.push(e));
    const ids: number[] = [];
    // Deals created while both dispatchers are woken after every create.
    for (let i = 0; i < 40; i++) {
      const res = await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: `Raced ${i}` } });
      expect(res.status).toBe(200);
      ids.push(res.body.id as number);
      one.wake();
      two.wake();
      one.wake();
    }
    await Promise.all([one.run(), two.run()]);
    // A backlog of 30 with no wake but one run: read in passes of 7 until none is left.
    for (let i = 40; i < 70; i++) ids.push((await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: `Raced ${i}` } })).body.id as number);
    expect((await two.run()).changes).toBe(30);
    // And once more: nothing left.
    expect((await one.run()).changes).toBe(0);
    await Promise.all([one.close(), two.close()]);
    expect(errors).toEqual([]);
    const rows = await server.sql<{ change_id: string; record_id: number }>(
      `select d.change_id::text, rc.record_id from webhook_deliveries d join record_changes rc on rc.id = d.change_id where d.endpoint_id = ? order by d.id`,
      [endpointId],
    );
    // One delivery per create, none twice (the compare and set of the cursor, and the unique index behind it).
    expect(rows.map((r) => r.record_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(rows.map((r) => r.change_id)).size).toBe(rows.length);
    expect(new Set(enqueued)).toEqual(new Set([endpointId]));
  });
});
