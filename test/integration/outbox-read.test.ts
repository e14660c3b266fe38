import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createContext, type RequestContext } from '../../src/context/context';
import { mutation } from '../../src/context/transaction';
import type { JobName, JobPayloads } from '../../src/context/job-names';
import type { JobQueue } from '../../src/context/job-queue';
import { toGlobalId } from '../../src/graphql/node';
import type { PersonInput } from '../../src/modules/people/person.inputs';
import { PersonService } from '../../src/modules/people/person.service';
import { viewerForUser } from '../../src/modules/users/user.viewer';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 13 §2: "Without SMTP_URL the outbox stays readable (admins over GraphQL, and the CLI) and
 * nothing is sent." Rows written by real v3 changes, read back by an account's administrators over
 * GraphQL (never by other users, never across accounts) and by operators with the CLI; and every
 * row recorded enqueues its delivery once its change commits, never after a rollback.
 */

const root = join(__dirname, '..', '..');

/** Runs the CLI as docs/cli.md says, against the test database (as test/integration/cli.test.ts does). */
function crm(...args: string[]): { status: number | null; stdout: string; json: any } {
  const result = spawnSync('npm', ['run', '--silent', 'crm', '--', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL, LOG_LEVEL: 'error' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const lines = result.stdout.split('\n').filter((l) => l.trim() !== '');
  return { status: result.status, stdout: result.stdout, json: lines.length === 1 ? JSON.parse(lines[0]) : undefined };
}

const MESSAGE_FIELDS = `id databaseId kind status recipientId recipient { databaseId email } subjectType subjectId
  subject { __typename ... on Person { databaseId lastName } } attempts nextAttemptAt sentAt lastError createdAt preview { subject text }`;

const OUTBOX = `query Outbox($first: Int, $after: String, $status: OutboxStatus, $kind: OutboxMessageKind, $recipientId: Int) {
  outboxMessages(first: $first, after: $after, status: $status, kind: $kind, recipientId: $recipientId) {
    totalCount
    edges { cursor node { databaseId } }
    nodes { ${MESSAGE_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface Row {
  id: number;
  kind: string;
  recipient_id: number;
  status: string;
  created_at: string;
}

describe('reading the outbox: admins over GraphQL, operators with the CLI', () => {
  let server: TestServer;
  let account: TestAccount;
  let other: TestAccount;
  /** A non-admin of the account: owner of what the admin creates, so mail is owed to her. */
  let olga: { id: number; apiKey: string };
  const olgaEmail = `olga-${process.pid}-${Date.now()}@outbox.test`;
  let person: { id: number };
  let row: Row;

  const rowsOf = (accountId: number) =>
    server.sql<Row>('select id, kind, recipient_id, status, created_at from outbox_messages where account_id = ? order by id', [accountId]);
  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => (await server.graphql(key, query, variables)).body;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'Europe/Berlin' });
    other = await server.createAccount();
    olga = await account.addUser({ firstName: 'Olga', lastName: 'Owner', email: olgaEmail });
    // A person created by the admin for Olga: v3 deliver_assignment_email defaults to true.
    const created = await server.v3(account.admin.apiKey).post('/people.json', { person: { first_name: 'Pat', last_name: 'Outboxed', user_id: olga.id } });
    expect(created.status).toBe(200);
    person = created.body;
    const rows = await rowsOf(account.accountId);
    expect(rows).toHaveLength(1);
    row = rows[0]!;
    expect(row).toMatchObject({ kind: 'person_assignment', recipient_id: olga.id, status: 'pending' });
  }, 60_000);

  afterAll(() => server?.close());

  it('an admin sees the row: kind, status, recipient, subject record, delivery fields and a rendered preview', async () => {
    const body = await gql(account.admin.apiKey, OUTBOX, { first: 10 });
    expect(body.errors).toBeUndefined();
    const page = body.data.outboxMessages;
    expect(page.totalCount).toBe(1);
    expect(page.pageInfo.hasNextPage).toBe(false);
    expect(page.edges).toEqual([{ cursor: expect.any(String), node: { databaseId: row.id } }]);
    const [message] = page.nodes;
    expect(message).toEqual({
      id: toGlobalId('OutboxMessage', row.id),
      databaseId: row.id,
      kind: 'PERSON_ASSIGNMENT',
      status: 'PENDING',
      recipientId: olga.id,
      recipient: { databaseId: olga.id, email: olgaEmail },
      subjectType: 'Person',
      subjectId: person.id,
      subject: { __typename: 'Person', databaseId: person.id, lastName: 'Outboxed' },
      attempts: 0,
      nextAttemptAt: null,
      sentAt: null,
      lastError: null,
      createdAt: new Date(row.created_at).toISOString(),
      preview: { subject: expect.stringMatching(/^Ada Admin\w+ assigned Pat Outboxed to you$/), text: expect.stringContaining('Hello Olga,') },
    });
    // In the recipient's zone (the account's: Olga has none of her own).
    expect(message.preview.text).toContain('(Europe/Berlin)');

    // The same record through node(id:).
    const node = await gql(account.admin.apiKey, `query($id: ID!) { node(id: $id) { __typename ... on OutboxMessage { databaseId kind } } }`, {
      id: message.id,
    });
    expect(node).toMatchObject({ data: { node: { __typename: 'OutboxMessage', databaseId: row.id, kind: 'PERSON_ASSIGNMENT' } } });
    expect(node.errors).toBeUndefined();
  });

  it('filters by status, kind and recipient, newest first', async () => {
    // A second row, newer: the person handed back to the admin by Olga.
    const moved = await server.v3(olga.apiKey).put(`/people/${person.id}.json`, { person: { user_id: account.admin.id } });
    expect(moved.status).toBe(200);
    const rows = await rowsOf(account.accountId);
    expect(rows.map((r) => [r.kind, r.recipient_id])).toEqual([
      ['person_assignment', olga.id],
      ['person_reassignment', account.admin.id],
    ]);
    const ids = async (variables: Record<string, unknown>) => {
      const body = await gql(account.admin.apiKey, OUTBOX, variables);
      expect(body.errors).toBeUndefined();
      return body.data.outboxMessages.nodes.map((n: { databaseId: number }) => n.databaseId);
    };
    expect(await ids({})).toEqual([rows[1]!.id, rows[0]!.id]);
    expect(await ids({ status: 'PENDING' })).toEqual([rows[1]!.id, rows[0]!.id]);
    expect(await ids({ status: 'SENT' })).toEqual([]);
    expect(await ids({ kind: 'PERSON_REASSIGNMENT' })).toEqual([rows[1]!.id]);
    expect(await ids({ recipientId: olga.id })).toEqual([rows[0]!.id]);
    // Cursors page through the same order.
    const first = (await gql(account.admin.apiKey, OUTBOX, { first: 1 })).data.outboxMessages;
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(await ids({ first: 1, after: first.pageInfo.endCursor })).toEqual([rows[0]!.id]);
  });

  it('refuses a non-admin with the FORBIDDEN error of every admin-only thing; node(id:) answers null', async () => {
    const body = await gql(olga.apiKey, OUTBOX, {});
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([expect.objectContaining({ path: ['outboxMessages'], extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
    // Whatever the arguments: a bad cursor is not looked at before the refusal.
    const badCursor = await gql(olga.apiKey, OUTBOX, { after: 'nonsense' });
    expect(badCursor.errors[0].extensions.code).toBe('FORBIDDEN');
    // The same code an admin list write gives her.
    const write = await gql(olga.apiKey, `mutation { createListItem(kind: CONTACT_TAG, input: { name: "Nope" }) { listItem { databaseId } } }`);
    expect(write.errors[0].extensions.code).toBe('FORBIDDEN');
    const node = await gql(olga.apiKey, `query($id: ID!) { node(id: $id) { __typename } }`, { id: toGlobalId('OutboxMessage', row.id) });
    expect(node.data).toEqual({ node: null });
    expect(node.errors).toBeUndefined();
  });

  it("another account's admin sees nothing of it, by list, by filter or by id", async () => {
    const body = await gql(other.admin.apiKey, OUTBOX, {});
    expect(body.errors).toBeUndefined();
    expect(body.data.outboxMessages).toMatchObject({ totalCount: 0, nodes: [], edges: [] });
    const byRecipient = await gql(other.admin.apiKey, OUTBOX, { recipientId: olga.id });
    expect(byRecipient.data.outboxMessages.nodes).toEqual([]);
    const node = await gql(other.admin.apiKey, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }`, { ids: [toGlobalId('OutboxMessage', row.id)] });
    expect(node.data).toEqual({ nodes: [null] });
    expect(node.errors).toBeUndefined();
  });

  it("renders only within the row's account: a row naming another account's record previews it as deleted", async () => {
    // A hand-made row in this account about a person of the other account (no service writes one).
    const stranger = (await server.v3(other.admin.apiKey).post('/people.json', { person: { first_name: 'Secret', last_name: 'Stranger' } })).body as {
      id: number;
    };
    expect(stranger.id).toEqual(expect.any(Number));
    const [forged] = await server.sql<{ id: number }>(
      `insert into outbox_messages (account_id, recipient_id, kind, subject_type, subject_id, payload, status, created_at, attempts) values (?, ?, 'person_assignment', 'Person', ?, ?, 'pending', now(), 0) returning id`,
      [account.accountId, olga.id, stranger.id, JSON.stringify({ byUserId: other.admin.id })],
    );
    try {
      const body = await gql(
        account.admin.apiKey,
        `query($id: ID!) { node(id: $id) { ... on OutboxMessage { subject { __typename } preview { subject text } } } }`,
        {
          id: toGlobalId('OutboxMessage', forged!.id),
        },
      );
      expect(body.errors).toBeUndefined();
      const { subject, preview } = body.data.node;
      expect(subject).toBeNull();
      expect(preview.subject).toBe('A person assigned to you has been deleted');
      // Neither the other account's person nor its admin (the "by" user) shows.
      expect(JSON.stringify(preview)).not.toMatch(/Secret|Stranger|Ada/);
      expect(preview.text).toContain('A former user assigned a person to you');
    } finally {
      await server.sql('delete from outbox_messages where id = ?', [forged!.id]);
      await server.v3(other.admin.apiKey).del(`/people/${stranger.id}.json`);
    }
  });

  it('charges previews: each costs like 8 records read', async () => {
    const cost = async (query: string) => {
      const res = await server.graphql(account.admin.apiKey, query);
      expect(res.body.errors).toBeUndefined();
      return res.body.extensions.cost.requested;
    };
    expect(await cost('{ outboxMessages(first: 200) { nodes { databaseId subject { id } recipient { email } } } }')).toBe(1);
    expect(await cost('{ outboxMessages(first: 200) { nodes { preview { subject } } } }')).toBe(1 + 8);
    expect(await cost('{ outboxMessages(first: 25) { nodes { preview { subject } } } }')).toBe(1 + 1);
  });

  it('a mutation over /graphql records its mail as one over v3 does (the after-commit enqueue works on GraphQL contexts)', async () => {
    const before = await rowsOf(account.accountId);
    const body = await gql(
      account.admin.apiKey,
      `mutation { createPerson(input: { lastName: "ViaGraphql", ownerId: ${olga.id} }) { person { databaseId } userErrors { message } } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.createPerson.userErrors).toEqual([]);
    const after = await rowsOf(account.accountId);
    expect(after.slice(before.length).map((r) => [r.kind, r.recipient_id])).toEqual([['person_assignment', olga.id]]);
  });

  it('deliver_assignment_email=false records nothing', async () => {
    const before = await rowsOf(account.accountId);
    const quiet = await server
      .v3(account.admin.apiKey)
      .post('/people.json', { person: { last_name: 'Quiet', user_id: olga.id }, deliver_assignment_email: 'false' });
    expect(quiet.status).toBe(200);
    expect(quiet.body.user_id).toBe(olga.id);
    expect(await rowsOf(account.accountId)).toEqual(before);
    const body = await gql(account.admin.apiKey, OUTBOX, {});
    expect(body.data.outboxMessages.totalCount).toBe(before.length);
  });

  it('outbox:list (CLI) prints the rows as one JSON line, newest first, bounded', () => {
    const listed = crm('outbox:list', '--account', String(account.accountId), '--status', 'pending');
    expect(listed.status).toBe(0);
    const messages = listed.json.messages as Array<Record<string, unknown>>;
    expect(messages.map((m) => m.id)).toEqual([...messages.map((m) => m.id as number)].sort((a, b) => b - a));
    expect(messages.find((m) => m.id === row.id)).toEqual({
      id: row.id,
      kind: 'person_assignment',
      status: 'pending',
      recipient_email: olgaEmail,
      recipient_address: null,
      subject: expect.stringMatching(/^Ada Admin\w+ assigned Pat Outboxed to you$/),
      attempts: 0,
      last_error: null,
      created_at: new Date(row.created_at).toISOString(),
      sent_at: null,
    });

    expect(crm('outbox:list', '--account', String(account.accountId), '--limit', '1').json.messages).toHaveLength(1);
    expect(crm('outbox:list', '--account', String(account.accountId), '--status', 'sent').json).toEqual({ messages: [] });
    // Only that account's rows.
    expect(crm('outbox:list', '--account', String(other.accountId)).json).toEqual({ messages: [] });

    const tooMany = crm('outbox:list', '--account', String(account.accountId), '--limit', '501');
    expect(tooMany.status).toBe(2);
    expect(tooMany.json.error).toMatch(/--limit must be an integer from 1 to 500/);
    const badStatus = crm('outbox:list', '--account', String(account.accountId), '--status', 'constructor');
    expect(badStatus.status).toBe(2);
    expect(badStatus.json.error).toMatch(/--status must be pending, sent or failed/);
    const noAccount = crm('outbox:list', '--account', '2147483647');
    expect(noAccount.status).toBe(1);
    expect(noAccount.json.error).toMatch(/account does not exist/);
  }, 240_000);

  describe('recordMail enqueues delivery after the commit', () => {
    /** A queue that records what it is given, and whether the row was committed by then. */
    function recordingQueue(): JobQueue & { calls: Array<{ name: JobName; data: unknown; committed: boolean }> } {
      const calls: Array<{ name: JobName; data: unknown; committed: boolean }> = [];
      return {
        calls,
        async enqueue<N extends JobName>(name: N, data: JobPayloads[N]) {
          const id = (data as { outboxMessageId?: number }).outboxMessageId;
          // Another connection: it sees the row only once the mutation has committed.
          const committed = id !== undefined && (await server.sql('select id from outbox_messages where id = ?', [id])).length === 1;
          calls.push({ name, data, committed });
        },
      };
    }

    async function contextWith(jobs: JobQueue): Promise<RequestContext> {
      const viewer = await viewerForUser(server.orm.em.fork(), account.admin.id);
      return createContext(server.orm, viewer!, 'outbox-read-test', { jobs });
    }

    const input = (fields: Partial<PersonInput>) => fields as PersonInput;
    const outboxOf = (personId: number) =>
      server.sql<{ id: number }>(`select id from outbox_messages where subject_type = 'Person' and subject_id = ?`, [personId]);

    it("enqueues deliver-mail with the new row's id, once committed", async () => {
      const queue = recordingQueue();
      const ctx = await contextWith(queue);
      const created = await new PersonService(ctx).create(input({ lastName: 'Queued', ownerId: olga.id }));
      const rows = await outboxOf(created.id);
      expect(rows).toHaveLength(1);
      expect(queue.calls).toEqual([{ name: 'deliver-mail', data: { outboxMessageId: rows[0]!.id }, committed: true }]);

      // No mail owed (the viewer's own record): nothing enqueued.
      await new PersonService(ctx).create(input({ lastName: 'Own' }));
      expect(queue.calls).toHaveLength(1);
    });

    it('enqueues nothing when the mutation rolls back', async () => {
      const queue = recordingQueue();
      const ctx = await contextWith(queue);
      let personId = 0;
      const failed = mutation(ctx, async (em) => {
        const created = await new PersonService(ctx).create(input({ lastName: 'RolledBack', ownerId: olga.id }));
        personId = created.id;
        await em.flush();
        throw new Error('changed my mind');
      });
      await expect(failed).rejects.toThrow('changed my mind');
      expect(personId).toBeGreaterThan(0);
      expect(await outboxOf(personId)).toEqual([]);
      expect(queue.calls).toEqual([]);
    });
  });
});
