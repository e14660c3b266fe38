import { Client } from 'pg';
import { pruneChanges } from '../../src/modules/changes';
import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Every change recorded once, in the writing transaction, and read back as a feed (issue 24 §1,
 * §2): creates, updates with their fields before and after, deletes as tombstones (cascades
 * included), who and whence, nothing for a refused write; the feed in order, paged by cursor, with
 * no change lost to a transaction committing late; what each viewer may see; GONE past retention.
 */

const FEED = `query($after: String, $first: Int, $models: [ChangeModel!], $actions: [ChangeAction!], $recordIds: [Int!]) {
  changes(after: $after, first: $first, models: $models, actions: $actions, recordIds: $recordIds) {
    nodes { sequence model action recordId recordDatabaseId occurredAt origin actor { kind userDatabaseId appDatabaseId } changedFields { field previous value } tombstone }
    endCursor hasNextPage
  }
}`;

interface Change {
  sequence: string;
  model: string;
  action: string;
  recordDatabaseId: number;
  origin: string;
  actor: { kind: string; userDatabaseId: number | null };
  changedFields: Array<{ field: string; previous: unknown; value: unknown }>;
  tombstone: Record<string, unknown> | null;
}

describe('the change records and the change feed', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: { id: number; apiKey: string };
  let own: { id: number; apiKey: string };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    admin = account.admin;
    own = await account.addUser({ isAdmin: false, visibility: Visibility.OWN });
  }, 60_000);
  afterAll(() => server.close());

  const feed = async (key: string, variables: Record<string, unknown> = {}) => {
    const res = await server.graphql(key, FEED, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.changes as { nodes: Change[]; endCursor: string; hasNextPage: boolean };
  };
  /** Everything after `cursor`, page by page. */
  const drain = async (key: string, cursor: string | null, first = 100, variables: Record<string, unknown> = {}) => {
    const all: Change[] = [];
    let after = cursor;
    for (let i = 0; i < 50; i++) {
      const page = await feed(key, { ...variables, after, first });
      all.push(...page.nodes);
      after = page.endCursor;
      if (!page.hasNextPage) break;
    }
    return { changes: all, cursor: after! };
  };
  const rows = (recordId: number, model: string) =>
    server.sql('select action, origin, actor_kind, actor_user_id, changes, record from record_changes where record_id = ? and model = ? order by id', [
      recordId,
      model,
    ]);
  const tip = async (key: string) => (await drain(key, null, 200)).cursor;

  it('a v3 create, update and delete of a deal: one row each, with the fields an update changed, who and whence', async () => {
    const v3 = server.v3(admin.apiKey);
    const created = await v3.post('/deals.json', { deal: { name: 'Alpha', value: 10, summary: 'first' } });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    // An update of nothing but the timestamps records nothing.
    await v3.put(`/deals/${id}.json`, { deal: { name: 'Alpha' } });
    await v3.put(`/deals/${id}.json`, { deal: { name: 'Beta', value: 12 } });
    await v3.del(`/deals/${id}.json`);
    const recorded = await rows(id, 'deal');
    expect(recorded.map((r) => [r.action, r.origin, r.actor_kind, r.actor_user_id])).toEqual([
      ['create', 'v3', 'user', admin.id],
      ['update', 'v3', 'user', admin.id],
      ['destroy', 'v3', 'user', admin.id],
    ]);
    expect(recorded[1].changes).toEqual({ name: ['Alpha', 'Beta'], value: [10, 12] });
    expect(recorded[2].record).toMatchObject({ name: 'Beta', owner_id: admin.id });
    expect(recorded[2].record).not.toHaveProperty('updated_at');
  });

  it('a refused write records nothing', async () => {
    const before = await server.sql('select count(*)::int as n from record_changes');
    const refused = await server.v3(admin.apiKey).post('/deals.json', { deal: { name: '' } });
    expect(refused.status).toBe(422);
    expect(await server.sql('select count(*)::int as n from record_changes')).toEqual(before);
  });

  it('GraphQL writes say graphql; custom fields change per key; a deal delete records its notes gone with it', async () => {
    const created = await server.graphql(admin.apiKey, 'mutation { createDeal(input: { name: "Gamma" }) { deal { databaseId } } }');
    const dealId = created.body.data.createDeal.deal.databaseId as number;
    const note = await server.v3(admin.apiKey).post('/notes.json', { note: { content: 'about gamma', deal_id: dealId } });
    const noteId = note.body.id as number;
    await server.graphql(admin.apiKey, `mutation { deleteDeal(id: ${dealId}) { deletedDatabaseId } }`);
    expect((await rows(dealId, 'deal')).map((r) => [r.action, r.origin])).toEqual([
      ['create', 'graphql'],
      ['destroy', 'graphql'],
    ]);
    expect((await rows(noteId, 'note')).map((r) => [r.action, r.origin])).toEqual([
      ['create', 'v3'],
      ['destroy', 'graphql'],
    ]);
  });

  it('an UPDATE of many rows (an import batch) records what one-row updates record, and compares a column added since', async () => {
    // Two groups of 40 people alike; the same changes made to one by a single statement (the bulk
    // path of record_change, 32 rows or more) and to the other a row at a time (the per-row path).
    const N = 40;
    const make = async () =>
      (
        await server.sql<{ id: number }>(
          `insert into people (account_id, owner_id, first_name, last_name, position, summary, custom_fields, tag_ids, created_at, updated_at)
           select ?, ?, 'F' || i, 'L' || i, case when i % 3 = 0 then null else 'Pos' end, 'short', jsonb_build_object('custom_label_1', 'a' || i, 'custom_label_2', i),
                  '[1,2]'::jsonb, now(), now()
             from generate_series(1, ?) i returning id`,
          [account.accountId, admin.id, N],
        )
      )
        .map((r) => r.id)
        .sort((a, b) => a - b);
    const bulk = await make();
    const single = await make();
    // Row i: i % 5 = 0 changes only what the records leave out (viewed_at); the others change fields, text past 1,000 characters, custom fields added, changed, removed.
    const change = `first_name = case when r.i % 5 = 0 then p.first_name else p.first_name || '!' end,
      position = case when r.i % 5 in (1, 2) then 'New ' || r.i when r.i % 5 = 3 then null else p.position end,
      summary = case when r.i % 5 = 4 then repeat('x', 1200) else p.summary end,
      custom_fields = case when r.i % 5 = 0 then p.custom_fields when r.i % 2 = 0 then (p.custom_fields - 'custom_label_1') || '{"custom_label_3": "new"}' else p.custom_fields || '{"custom_label_2": 99}' end,
      tag_ids = case when r.i % 5 = 2 then '[2]'::jsonb else p.tag_ids end,
      viewed_at = now(), updated_at = now()`;
    // Each person's number in its group (r.i), from the group's ids.
    const numbered = `(select id, row_number() over (order by id) as i from people where id = any(?::int[]))`;
    await server.sql(`update people p set ${change} from ${numbered} r where r.id = p.id`, [`{${bulk.join(',')}}`]);
    for (const id of single) await server.sql(`update people p set ${change} from ${numbered} r where r.id = p.id and p.id = ?`, [`{${single.join(',')}}`, id]);
    const recorded = async (ids: number[]) =>
      (
        await server.sql<{ record_id: number; changes: unknown; lock_version: number }>(
          `select p.id as record_id, c.changes, p.lock_version from people p
             left join record_changes c on c.model = 'person' and c.record_id = p.id and c.action = 'update'
            where p.id = any(?::int[]) order by p.id`,
          [`{${ids.join(',')}}`],
        )
      ).map(({ changes, lock_version }) => ({ changes, lock_version }));
    const fromBulk = await recorded(bulk);
    expect(fromBulk).toEqual(await recorded(single));
    expect(fromBulk[0]).toEqual({
      changes: { first_name: ['F1', 'F1!'], position: ['Pos', 'New 1'], 'custom_fields.custom_label_2': [1, 99] },
      lock_version: 2,
    });
    expect(fromBulk[4]).toEqual({ changes: null, lock_version: 1 }); // only viewed_at
    expect((fromBulk[3].changes as Record<string, [string, string]>).summary[1]).toBe(`${'x'.repeat(1000)}…[cut]`);

    // Columns added after the migrations are compared by the bulk path with no migration of their
    // own, one of a type with no equality (point) as jsonb.
    await server.sql(`alter table people add column bulk_test_note text, add column bulk_test_spot point`);
    try {
      await server.sql(`update people set bulk_test_note = 'noted', bulk_test_spot = point(1, 2) where id = any(?::int[])`, [`{${bulk.join(',')}}`]);
      const noted = await server.sql<{ n: number }>(
        `select count(*)::int as n from record_changes where model = 'person' and record_id = any(?::int[])
            and changes -> 'bulk_test_note' = '[null, "noted"]' and changes -> 'bulk_test_spot' = '[null, "(1,2)"]'`,
        [`{${bulk.join(',')}}`],
      );
      expect(noted[0].n).toBe(N);
    } finally {
      await server.sql(`alter table people drop column bulk_test_note, drop column bulk_test_spot`);
    }
  });

  it('a note written as a conversation is a conversation change', async () => {
    const deal = await server.v3(admin.apiKey).post('/deals.json', { deal: { name: 'Talk' } });
    const conversation = await server.v3(admin.apiKey).post('/conversations.json', { conversation: { deal_id: deal.body.id, sentence: 'Hello there' } });
    expect(conversation.status).toBe(200);
    expect((await rows(conversation.body.id, 'conversation')).map((r) => r.action)).toEqual(['create']);
    expect(await rows(conversation.body.id, 'note')).toEqual([]);
  });

  it('the feed: oldest first, paged by cursor, each change once, and polling from the last cursor finds only what came after', async () => {
    const start = await tip(admin.apiKey);
    const v3 = server.v3(admin.apiKey);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await v3.post('/companies.json', { company: { name: `Feed ${i}` } })).body.id);
    await v3.put(`/companies/${ids[0]}.json`, { company: { name: 'Feed 0 renamed' } });
    const { changes, cursor } = await drain(admin.apiKey, start, 3);
    expect(changes.map((c) => [c.model, c.action, c.recordDatabaseId])).toEqual([...ids.map((id) => ['COMPANY', 'CREATE', id]), ['COMPANY', 'UPDATE', ids[0]]]);
    expect(changes[7].changedFields).toEqual([{ field: 'name', previous: 'Feed 0', value: 'Feed 0 renamed' }]);
    expect(new Set(changes.map((c) => c.sequence)).size).toBe(8);
    // An edge's cursor reads on from just after its change.
    const edges = (
      await server.graphql(admin.apiKey, `query($after: String) { changes(after: $after, first: 4) { edges { cursor node { recordDatabaseId } } } }`, {
        after: start,
      })
    ).body.data.changes.edges as Array<{ cursor: string; node: { recordDatabaseId: number } }>;
    expect(edges.map((e) => e.node.recordDatabaseId)).toEqual(ids.slice(0, 4));
    expect((await drain(admin.apiKey, edges[1].cursor, 2)).changes.map((c) => c.recordDatabaseId)).toEqual([...ids.slice(2), ids[0]]);
    // Nothing new: an empty page, and the same place to poll from.
    const idle = await feed(admin.apiKey, { after: cursor });
    expect(idle.nodes).toEqual([]);
    expect(idle.hasNextPage).toBe(false);
    await v3.del(`/companies/${ids[1]}.json`);
    const next = await feed(admin.apiKey, { after: idle.endCursor });
    expect(next.nodes.map((c) => [c.action, c.recordDatabaseId])).toEqual([['DESTROY', ids[1]]]);
    expect(next.nodes[0].tombstone).toMatchObject({ name: 'Feed 1' });
  });

  it('a transaction that wrote first and commits last is not skipped', async () => {
    const start = await tip(admin.apiKey);
    const company = (await server.v3(admin.apiKey).post('/companies.json', { company: { name: 'Slow' } })).body.id as number;
    const after = await tip(admin.apiKey);
    // A write whose change takes its id now but commits after a later write was read.
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`update companies set name = 'Slow, renamed' where id = $1`, [company]);
      // A later write, committed at once.
      const quick = (await server.v3(admin.apiKey).post('/companies.json', { company: { name: 'Quick' } })).body.id as number;
      const seen = await drain(admin.apiKey, after);
      expect(seen.changes.map((c) => [c.action, c.recordDatabaseId])).toEqual([['CREATE', quick]]);
      await client.query('commit');
      const late = await drain(admin.apiKey, seen.cursor);
      expect(late.changes.map((c) => [c.action, c.recordDatabaseId, c.origin, c.actor.kind])).toEqual([['UPDATE', company, 'SYSTEM', 'SYSTEM']]);
    } finally {
      await client.end();
    }
    expect((await drain(admin.apiKey, start)).changes.map((c) => c.recordDatabaseId)).toContain(company);
  });

  it("a user who sees only their own records sees only those records' changes, and the tombstones of what they could see", async () => {
    const start = await tip(own.apiKey);
    const theirs = (await server.v3(own.apiKey).post('/people.json', { person: { first_name: 'Mine', last_name: 'Own' } })).body.id as number;
    const hidden = (await server.v3(admin.apiKey).post('/people.json', { person: { first_name: 'Not', last_name: 'Yours' } })).body.id as number;
    await server.v3(admin.apiKey).put(`/people/${hidden}.json`, { person: { last_name: 'Still not yours' } });
    await server.v3(admin.apiKey).del(`/people/${hidden}.json`);
    await server.v3(own.apiKey).del(`/people/${theirs}.json`);
    const { changes } = await drain(own.apiKey, start);
    // Their person, created and deleted: its tombstone (they owned it) shows both.
    expect(changes.map((c) => [c.action, c.recordDatabaseId])).toEqual([
      ['CREATE', theirs],
      ['DESTROY', theirs],
    ]);
    expect(JSON.stringify(changes)).not.toContain('Still not yours');
    // The admin sees all of them.
    const all = await drain(admin.apiKey, start);
    expect(all.changes.filter((c) => c.model === 'PERSON').map((c) => [c.action, c.recordDatabaseId])).toEqual([
      ['CREATE', theirs],
      ['CREATE', hidden],
      ['UPDATE', hidden],
      ['DESTROY', hidden],
      ['DESTROY', theirs],
    ]);
  });

  it('another account sees none of it', async () => {
    const other = await server.createAccount();
    const start = await tip(other.admin.apiKey);
    await server.v3(admin.apiKey).post('/companies.json', { company: { name: 'Elsewhere' } });
    expect((await drain(other.admin.apiKey, start)).changes).toEqual([]);
  });

  it('filters by model, action and record', async () => {
    const start = await tip(admin.apiKey);
    const company = (await server.v3(admin.apiKey).post('/companies.json', { company: { name: 'Filtered' } })).body.id as number;
    await server.v3(admin.apiKey).post('/people.json', { person: { first_name: 'F', last_name: 'P' } });
    await server.v3(admin.apiKey).put(`/companies/${company}.json`, { company: { name: 'Filtered 2' } });
    const updates = await drain(admin.apiKey, start, 100, { models: ['COMPANY'], actions: ['UPDATE'] });
    expect(updates.changes.map((c) => [c.model, c.action, c.recordDatabaseId])).toEqual([['COMPANY', 'UPDATE', company]]);
    const one = await drain(admin.apiKey, start, 100, { recordIds: [company], models: ['COMPANY'] });
    expect(one.changes.map((c) => c.action)).toEqual(['CREATE', 'UPDATE']);
  });

  it('v3 GET /changes.json: the envelope with next_cursor, since, per_page, and 422 naming a bad since', async () => {
    const v3 = server.v3(admin.apiKey);
    const first = await v3.get('/changes.json', { per_page: 2 });
    expect(first.status).toBe(200);
    expect(first.body.entries).toHaveLength(2);
    expect(first.body.pagination).toEqual({ per_page: 2, next_cursor: expect.any(String), has_more: true });
    expect(Object.keys(first.body.entries[0])).toEqual(['id', 'model', 'action', 'record_id', 'occurred_at', 'actor', 'origin', 'changes', 'record']);
    expect(first.body.entries[0].occurred_at).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
    const second = await v3.get('/changes.json', { per_page: 2, since: first.body.pagination.next_cursor });
    expect(second.body.entries[0].id).toBeGreaterThan(first.body.entries[1].id);
    const bad = await v3.get('/changes.json', { since: 'not a cursor!' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('since');
    const forged = await v3.get('/changes.json', { since: Buffer.from(JSON.stringify(['chg', '1:2:x', null, null])).toString('base64url') });
    expect(forged.status).toBe(422);
  });

  it('a cursor from before what the retention pruned answers 410 (GraphQL: GONE), telling to read the lists again', async () => {
    const old = (await feed(admin.apiKey, { first: 1 })).endCursor;
    await server.sql(`update record_changes set occurred_at = now() - interval '40 days' where account_id = ?`, [account.accountId]);
    expect(await pruneChanges(server.orm.em.fork(), 30, 5000)).toBeGreaterThan(0);
    const gone = await server.v3(admin.apiKey).get('/changes.json', { since: old });
    expect(gone.status).toBe(410);
    expect(gone.body.error).toMatch(/read the lists again/);
    const res = await server.graphql(admin.apiKey, FEED, { after: old });
    expect(res.body.errors[0].extensions.code).toBe('GONE');
    // From the start, the feed still reads.
    expect((await feed(admin.apiKey)).nodes).toEqual([]);
  });
});
