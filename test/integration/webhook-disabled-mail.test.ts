import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliverOutboxMessage } from '../../src/modules/outbox/deliver';
import { smtpMailTransport, type MailTransport } from '../../src/modules/outbox/mail-transport';
import { formatInZone } from '../../src/modules/outbox/render';
import { disableEndpoint, FAILING_DAYS } from '../../src/modules/webhooks/webhook-delivery';
import { NO_QUEUE } from '../../src/jobs';
import { eventually, startSmtp, type Received } from '../support/smtp';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 24 §3: "410 disables the endpoint; an endpoint failing for 5 days is disabled and
 * `failure_email` is mailed through the outbox". A real receiver answers 410 or 500, a worker
 * delivers (changes → dispatch → delivery → disable), and the mail the disable owes goes through
 * the outbox to a real in-process SMTP server, read back with mailparser: to the endpoint's
 * failure email when set, else to its owner; once, however many runs see the endpoint fail.
 */

const ZONE = 'Europe/Berlin';
const MAIL_FROM = 'CRM Test <crm@mail.example.test>';

interface OutboxRow {
  id: number;
  recipient_id: number;
  recipient_address: string | null;
  kind: string;
  subject_type: string;
  subject_id: number;
  payload: Record<string, unknown>;
  status: string;
  last_error: string | null;
  created_at: string;
}

describe('a disabled webhook endpoint is mailed about through the outbox', () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let transport: MailTransport;
  let receiver: Server;
  let base: string;

  beforeAll(async () => {
    // `/gone…` answers 410, `/failing…` 500, anything else 200.
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusCode = req.url?.startsWith('/gone') ? 410 : req.url?.startsWith('/failing') ? 500 : 200;
        res.end('no');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    smtp = await startSmtp();
    transport = smtpMailTransport(`smtp://127.0.0.1:${smtp.port}`, MAIL_FROM);
    // A worker (dispatch, deliveries, mail), the receiver's loopback host allowed, a mail server.
    server = await startTestServer({
      RUN_WORKER: 'true',
      DOCUMENT_FETCH_ALLOWED_HOSTS: '127.0.0.1',
      JOB_POLL_INTERVAL_MS: '200',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM,
    });
  }, 60_000);
  afterAll(async () => {
    transport?.close();
    await server?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.server.close(() => resolve()) : resolve()));
    await new Promise((r) => receiver.close(r));
  });

  const createEndpoint = async (account: TestAccount, path: string, input: Record<string, unknown> = {}) => {
    const res = await server.graphql(
      account.admin.apiKey,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId name signingSecret } userErrors { field message } } }',
      { input: { url: `${base}${path}`, models: ['DEAL'], actions: ['CREATE'], ...input } },
    );
    expect(res.body.data.createWebhookEndpoint.userErrors).toEqual([]);
    return res.body.data.createWebhookEndpoint.webhookEndpoint as { databaseId: number; name: string; signingSecret: string };
  };
  const mailsOf = (endpointId: number) =>
    server.sql<OutboxRow>(
      `select id, recipient_id, recipient_address, kind, subject_type, subject_id, payload, status, last_error, created_at
         from outbox_messages where kind = 'webhook_disabled' and subject_id = ? order by id`,
      [endpointId],
    );
  const disabled = (endpointId: number) =>
    eventually(
      async () => {
        const [row] = await server.sql<{ enabled: boolean; disabled_reason: string | null }>(
          `select enabled, disabled_reason from webhook_endpoints where id = ?`,
          [endpointId],
        );
        return row && !row.enabled ? row : undefined;
      },
      20_000,
      `endpoint ${endpointId} disabled`,
    );
  const receivedBy = (address: string) => smtp.received.filter((r) => r.rcptTo.includes(address));
  const oneMailTo = async (address: string): Promise<Received> => {
    const [mail] = await eventually(() => (receivedBy(address).length > 0 ? receivedBy(address) : undefined), 20_000, `a mail to ${address}`);
    // Nothing more comes for it (a second disable, a second delivery).
    await new Promise((r) => setTimeout(r, 700));
    expect(receivedBy(address)).toHaveLength(1);
    return mail!;
  };
  /** Everything a reader of the mail sees: the raw message (headers, both bodies) and the parsed parts. */
  const shown = ({ raw, mail }: Received) => [raw, mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html : ''].join('\n');

  it('a 410 disables the endpoint and mails its failure email: the name, the URL without its query, no secret', async () => {
    const account = await server.createAccount({ timeZone: ZONE });
    const endpoint = await createEndpoint(account, '/gone/hooks?token=q-s3cr3t-t0ken#frag', { failureEmail: 'ops-gone@example.test' });
    await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Gone deal' } });
    expect(await disabled(endpoint.databaseId)).toEqual({ enabled: false, disabled_reason: 'the URL answered 410 Gone' });

    const got = await oneMailTo('ops-gone@example.test');
    const [row] = await mailsOf(endpoint.databaseId);
    expect(row).toMatchObject({
      recipient_id: account.admin.id,
      recipient_address: 'ops-gone@example.test',
      subject_type: 'WebhookEndpoint',
      payload: { reason: 'gone', failingSince: null, lastStatusCode: 410, lastError: 'the endpoint answered 410' },
    });
    expect(await eventually(async () => ((await mailsOf(endpoint.databaseId))[0]?.status === 'sent' ? true : undefined))).toBe(true);

    expect(got.rcptTo).toEqual(['ops-gone@example.test']);
    expect(got.mail.to).toMatchObject({ value: [{ address: 'ops-gone@example.test', name: '' }] });
    expect(got.mail.subject).toBe(`Webhook endpoint disabled: ${endpoint.name}`);
    const text = got.mail.text ?? '';
    expect(text).toContain('Hello there,');
    expect(text).toContain(
      `The webhook endpoint ${endpoint.name} (${base}/…, #${endpoint.databaseId}) was disabled on ${formatInZone(new Date(row!.created_at), ZONE)}.`,
    );
    expect(text).toContain('Its URL answered 410 Gone');
    expect(text).toContain(`updateWebhookEndpoint(id: ${endpoint.databaseId}, input: { enabled: true })`);
    expect(text).toContain(`PUT /api/v3/admin/webhooks/${endpoint.databaseId}.json`);
    expect(text).toContain('"is_activated": true');
    expect(text).toContain(`replayWebhookEndpoint(id: ${endpoint.databaseId}`);
    expect(text).toContain('the failure email of the webhook endpoint');
    expect(got.mail.html).toContain(`<strong>${endpoint.name}</strong>`);
    // Never the query, the fragment, the signing secret, an API key.
    const [secret] = await server.sql<{ secret: string }>(`select secret from webhook_endpoints where id = ?`, [endpoint.databaseId]);
    for (const hidden of ['q-s3cr3t-t0ken', 'token=', '#frag', 'whsec_', secret!.secret, endpoint.signingSecret, account.admin.apiKey])
      expect(shown(got)).not.toContain(hidden);

    // Administrators read it in the outbox, with where it goes and its preview.
    const listed = await server.graphql(
      account.admin.apiKey,
      `{ outboxMessages(kind: WEBHOOK_DISABLED) { nodes { databaseId kind toAddress recipientId subjectType subjectId subject { id } preview { subject } } } }`,
    );
    expect(listed.body.data.outboxMessages.nodes).toEqual([
      {
        databaseId: row!.id,
        kind: 'WEBHOOK_DISABLED',
        toAddress: 'ops-gone@example.test',
        recipientId: account.admin.id,
        subjectType: 'WebhookEndpoint',
        subjectId: endpoint.databaseId,
        subject: { id: expect.any(String) },
        preview: { subject: `Webhook endpoint disabled: ${endpoint.name}` },
      },
    ]);
  }, 60_000);

  it(`an endpoint failing for more than ${FAILING_DAYS} days is disabled at its next failed attempt, and mailed`, async () => {
    const account = await server.createAccount({ timeZone: ZONE });
    const endpoint = await createEndpoint(account, '/failing/hooks', { failureEmail: 'ops-failing@example.test' });
    // It has been failing for six days (its first failure keeps this date: coalesce).
    const [since] = await server.sql<{ failing_since: string }>(
      `update webhook_endpoints set failing_since = now() - interval '6 days' where id = ? returning failing_since`,
      [endpoint.databaseId],
    );
    await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Failing deal' } });
    expect(await disabled(endpoint.databaseId)).toEqual({ enabled: false, disabled_reason: `failing for ${FAILING_DAYS} days` });
    const attempts = await server.sql<{ status_code: number }>(
      `select a.status_code from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ?`,
      [endpoint.databaseId],
    );
    expect(attempts).toEqual([{ status_code: 500 }]);

    const got = await oneMailTo('ops-failing@example.test');
    const [row] = await mailsOf(endpoint.databaseId);
    expect(row).toMatchObject({
      recipient_id: account.admin.id,
      recipient_address: 'ops-failing@example.test',
      payload: { reason: 'failing', failingSince: new Date(since!.failing_since).toISOString(), lastStatusCode: 500, lastError: 'the endpoint answered 500' },
    });
    expect(got.mail.subject).toBe(`Webhook endpoint disabled: ${endpoint.name}`);
    expect(got.mail.text).toContain(
      `Its deliveries had been failing for more than ${FAILING_DAYS} days, since ${formatInZone(new Date(since!.failing_since), ZONE)}; the last attempt: the endpoint answered 500.`,
    );
    expect(got.mail.text).toContain(`(${base}/…, #${endpoint.databaseId})`);
    expect(got.mail.text).not.toContain('/failing/hooks');
  }, 60_000);

  it("without a failure email, the endpoint's owner is mailed at their own address", async () => {
    const account = await server.createAccount({ timeZone: ZONE });
    const [admin] = await server.sql<{ email: string; first_name: string; last_name: string }>(`select email, first_name, last_name from users where id = ?`, [
      account.admin.id,
    ]);
    const endpoint = await createEndpoint(account, '/gone/owner');
    await server.v3(account.admin.apiKey).post('/deals.json', { deal: { name: 'Owner deal' } });
    await disabled(endpoint.databaseId);
    const got = await oneMailTo(admin!.email);
    expect(await mailsOf(endpoint.databaseId)).toEqual([
      expect.objectContaining({ recipient_id: account.admin.id, recipient_address: null, payload: expect.objectContaining({ reason: 'gone' }) }),
    ]);
    expect(got.mail.to).toMatchObject({ value: [{ address: admin!.email, name: `${admin!.first_name} ${admin!.last_name}` }] });
    expect(got.mail.subject).toBe(`Webhook endpoint disabled: ${endpoint.name}`);
    expect(got.mail.text).toContain(`Hello ${admin!.first_name},`);
    expect(got.mail.text).toContain('because you own the webhook endpoint');
    const listed = await server.graphql(account.admin.apiKey, `{ outboxMessages(kind: WEBHOOK_DISABLED) { nodes { toAddress recipientId } } }`);
    expect(listed.body.data.outboxMessages.nodes).toEqual([{ toAddress: null, recipientId: account.admin.id }]);
  }, 60_000);

  it('two runs disabling at once disable it once and mail once; an endpoint without an owner is disabled without a mail', async () => {
    const account = await server.createAccount({ timeZone: ZONE });
    const endpoint = await createEndpoint(account, '/raced', { failureEmail: 'ops-race@example.test' });
    const deps = { orm: server.orm, queue: server.jobs.queue };
    const detail = { at: new Date(), lastStatusCode: 410, lastError: 'the endpoint answered 410' };
    const outcomes = await Promise.all([
      disableEndpoint(deps, endpoint.databaseId, 'gone', detail),
      disableEndpoint(deps, endpoint.databaseId, 'gone', detail),
      disableEndpoint(deps, endpoint.databaseId, 'failing', detail),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await disableEndpoint(deps, endpoint.databaseId, 'gone', detail)).toBe(false);
    expect(await mailsOf(endpoint.databaseId)).toHaveLength(1);
    await oneMailTo('ops-race@example.test');

    // The owner deleted (set null): no user to own the mail.
    const orphan = await createEndpoint(account, '/orphan', { failureEmail: 'ops-orphan@example.test' });
    await server.sql(`update webhook_endpoints set owner_id = null where id = ?`, [orphan.databaseId]);
    expect(await disableEndpoint(deps, orphan.databaseId, 'gone', detail)).toBe(true);
    expect(await server.sql(`select enabled from webhook_endpoints where id = ?`, [orphan.databaseId])).toEqual([{ enabled: false }]);
    expect(await mailsOf(orphan.databaseId)).toEqual([]);
  }, 60_000);

  it('is not sent once its endpoint is deleted, nor to an owner who may no longer see it', async () => {
    const account = await server.createAccount({ timeZone: ZONE });
    const detail = { at: new Date(), lastStatusCode: 410, lastError: 'the endpoint answered 410' };
    // No queue: the rows wait, delivered here by hand.
    const deps = { orm: server.orm, queue: NO_QUEUE };
    const deleted = await createEndpoint(account, '/deleted', { failureEmail: 'ops-deleted@example.test' });
    expect(await disableEndpoint(deps, deleted.databaseId, 'gone', detail)).toBe(true);
    const [deletedRow] = await mailsOf(deleted.databaseId);
    const gone = await server.graphql(account.admin.apiKey, `mutation { deleteWebhookEndpoint(id: ${deleted.databaseId}) { deletedDatabaseId } }`);
    expect(gone.body.data.deleteWebhookEndpoint.deletedDatabaseId).toBe(deleted.databaseId);
    await deliverOutboxMessage(server.orm.em.fork(), transport, deletedRow!.id);

    const owner = await account.addUser({ isAdmin: true });
    const ownerKey = owner.apiKey;
    const res = await server.graphql(
      ownerKey,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId } } }',
      { input: { url: `${base}/demoted`, models: ['DEAL'] } },
    );
    const demotedId = res.body.data.createWebhookEndpoint.webhookEndpoint.databaseId as number;
    expect(await disableEndpoint(deps, demotedId, 'gone', detail)).toBe(true);
    // No longer an administrator: webhook endpoints are theirs to see no more.
    await server.sql(`update users set is_admin = false where id = ?`, [owner.id]);
    const [demotedRow] = await mailsOf(demotedId);
    await deliverOutboxMessage(server.orm.em.fork(), transport, demotedRow!.id);

    const rows = await server.sql<{ id: number; status: string; last_error: string }>(
      `select id, status, last_error from outbox_messages where id in (?, ?) order by id`,
      [deletedRow!.id, demotedRow!.id],
    );
    expect(rows).toEqual([
      { id: deletedRow!.id, status: 'failed', last_error: 'not sent: the webhook endpoint it is about has been deleted' },
      { id: demotedRow!.id, status: 'failed', last_error: 'not sent: its recipient may no longer see the webhook endpoint it is about' },
    ]);
    expect(receivedBy('ops-deleted@example.test')).toEqual([]);
    // Its preview is null too (as for any mail that would not be sent).
    const listed = await server.graphql(account.admin.apiKey, `{ outboxMessages(kind: WEBHOOK_DISABLED) { nodes { databaseId status preview { subject } } } }`);
    expect(listed.body.data.outboxMessages.nodes).toEqual([
      { databaseId: demotedRow!.id, status: 'FAILED', preview: null },
      { databaseId: deletedRow!.id, status: 'FAILED', preview: null },
    ]);
  }, 60_000);
});
