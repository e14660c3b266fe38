import { Visibility } from '../../src/modules/users/user.entity';
import { fixtures } from '../support/fixtures';
import { countStatements } from '../support/sql-counter';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Timelines (issue 12 §6): `Deal.timeline`, `Person.timeline`, `Company.timeline`, one connection of
 * `TimelineEvent`s (notes about the record, comments on those notes), newest first, keyset-paged on
 * (occurredAt, kind, id) over a UNION ALL, batched across a page of parents. Notes and comments are
 * seeded in SQL with chosen instants (the notes API is another module's).
 */

const EVENT = '__typename id databaseId occurredAt userId ... on Note { content dealId personId } ... on Comment { comment noteId }';
const PAGE = `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { ${EVENT} } }`;
const DEAL_TIMELINE = `query($id: Int!, $first: Int, $after: String, $last: Int, $before: String) { deal(id: $id) { timeline(first: $first, after: $after, last: $last, before: $before) { ${PAGE} } } }`;

const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00Z`;

describe('timelines', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let own: { id: number; apiKey: string };
  let deal: number;
  let otherDeal: number;
  let person: number;
  let company: number;
  const ids: Record<string, number> = {};

  const note = async (name: string, minute: number, links: { dealId?: number; personId?: number; companyId?: number }, userId = account.admin.id) => {
    const [row] = await server.sql(
      'insert into notes (account_id, user_id, deal_id, person_id, company_id, content, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?) returning id',
      [account.accountId, userId, links.dealId ?? null, links.personId ?? null, links.companyId ?? null, name, at(minute), at(minute)],
    );
    ids[name] = Number(row.id);
  };
  const comment = async (name: string, minute: number, noteName: string) => {
    const [row] = await server.sql(
      'insert into comments (account_id, note_id, user_id, comment, created_at, updated_at) values (?, ?, ?, ?, ?, ?) returning id',
      [account.accountId, ids[noteName], account.admin.id, name, at(minute), at(minute)],
    );
    ids[name] = Number(row.id);
  };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    admin = account.admin.apiKey;
    own = await account.addUser({ isAdmin: false, visibility: Visibility.OWN });
    company = await fixtures.company(server, admin);
    deal = await fixtures.deal(server, admin, { companyId: company });
    otherDeal = await fixtures.deal(server, admin);
    person = await fixtures.person(server, own.apiKey);
    await note('n1', 1, { dealId: deal });
    await note('n2', 3, { dealId: deal, personId: person });
    await note('n3', 2, { personId: person }, own.id);
    await note('n4', 5, { dealId: deal });
    await note('elsewhere', 6, { dealId: otherDeal });
    await note('onCompany', 7, { companyId: company });
    await comment('c1', 4, 'n1');
    // The same instant as n4: notes come before comments at one instant (kind descending).
    await comment('c2', 5, 'n2');
    await comment('cElsewhere', 8, 'elsewhere');
  }, 60_000);
  afterAll(() => server.close());

  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.graphql(key, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const names = (page: any) => page.edges.map((e: any) => e.node.content ?? e.node.comment);
  const dealPage = async (variables: Record<string, unknown>) => (await gql(admin, DEAL_TIMELINE, { id: deal, ...variables })).deal.timeline;

  it("lists a deal's notes and the comments on them, newest first, as Note and Comment events", async () => {
    const page = await dealPage({});
    expect(names(page)).toEqual(['n4', 'c2', 'c1', 'n2', 'n1']);
    expect(page.totalCount).toBe(5);
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    const [n4, c2] = page.edges.map((e: any) => e.node);
    expect(n4).toEqual({
      __typename: 'Note',
      id: expect.any(String),
      databaseId: ids.n4,
      occurredAt: '2026-03-01T10:05:00.000Z',
      userId: account.admin.id,
      content: 'n4',
      dealId: deal,
      personId: null,
    });
    expect(c2).toEqual({
      __typename: 'Comment',
      id: expect.any(String),
      databaseId: ids.c2,
      occurredAt: '2026-03-01T10:05:00.000Z',
      userId: account.admin.id,
      comment: 'c2',
      noteId: ids.n2,
    });
    // The global ids are the records' own: node(id:) would find them as Note and Comment.
    expect(n4.id).toBe(Buffer.from(`Note:${ids.n4}`).toString('base64url'));
    expect(c2.id).toBe(Buffer.from(`Comment:${ids.c2}`).toString('base64url'));
  });

  it('pages forward and backward with cursors, with pageInfo on both sides', async () => {
    const first = await dealPage({ first: 2 });
    expect(names(first)).toEqual(['n4', 'c2']);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: first.edges[0].cursor, endCursor: first.edges[1].cursor });
    const second = await dealPage({ first: 2, after: first.pageInfo.endCursor });
    expect(names(second)).toEqual(['c1', 'n2']);
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const third = await dealPage({ first: 2, after: second.pageInfo.endCursor });
    expect(names(third)).toEqual(['n1']);
    expect(third.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    // Every edge's cursor continues right after it.
    expect(names(await dealPage({ first: 1, after: first.edges[0].cursor }))).toEqual(['c2']);

    const last = await dealPage({ last: 2 });
    expect(names(last)).toEqual(['n2', 'n1']);
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await dealPage({ last: 2, before: last.pageInfo.startCursor });
    expect(names(before)).toEqual(['c2', 'c1']);
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it('an event added meanwhile does not shift the next page', async () => {
    const first = await dealPage({ first: 2 });
    await note('late', 9, { dealId: deal });
    try {
      expect(names(await dealPage({ first: 2, after: first.pageInfo.endCursor }))).toEqual(['c1', 'n2']);
      expect(names(await dealPage({ first: 1 }))).toEqual(['late']);
    } finally {
      await server.sql('delete from notes where id = ?', [ids.late]);
    }
  });

  it('offset paging works too, and a page size of 0 answers only pageInfo and totalCount', async () => {
    const res = await gql(admin, `query($id: Int!) { deal(id: $id) { timeline(page: 2, perPage: 2) { ${PAGE} } } }`, { id: deal });
    expect(names(res.deal.timeline)).toEqual(['c1', 'n2']);
    expect(res.deal.timeline.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const empty = await dealPage({ first: 0 });
    expect(empty).toMatchObject({ edges: [], totalCount: 5, pageInfo: { hasNextPage: true, hasPreviousPage: false } });
  });

  it('a malformed or foreign cursor, or a page size out of range, is a BAD_USER_INPUT error naming the argument; nothing else runs', async () => {
    for (const [variables, argument] of [
      [{ after: 'garbage!' }, 'after'],
      [{ after: Buffer.from(JSON.stringify(['xxxxxxxx', '2026-03-01 10:00:00+00', 'note', 1])).toString('base64url') }, 'after'],
      [{ first: 201 }, 'first'],
      [{ first: 2, last: 2 }, 'last'],
    ] as const) {
      const res = await server.graphql(admin, DEAL_TIMELINE, { id: deal, ...variables });
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument });
    }
    // A cursor of the people list is refused too (another order).
    const people = await gql(admin, '{ people(first: 1) { pageInfo { endCursor } } }');
    const res = await server.graphql(admin, DEAL_TIMELINE, { id: deal, after: people.people.pageInfo.endCursor });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'after' });
  });

  it('Person.timeline and Company.timeline list the notes about them (a note about several records is on each)', async () => {
    const res = await gql(admin, `query($p: Int!, $c: Int!) { person(id: $p) { timeline { ${PAGE} } } company(id: $c) { timeline { ${PAGE} } } }`, {
      p: person,
      c: company,
    });
    expect(names(res.person.timeline)).toEqual(['c2', 'n2', 'n3']);
    // The company's own notes only (not its deals' notes).
    expect(names(res.company.timeline)).toEqual(['onCompany']);
  });

  it('visibility: a timeline is read on a record the viewer sees; a note on it shows even when its other record is hidden', async () => {
    // The own user cannot see the admin's deal: no deal, so no timeline.
    expect((await gql(own.apiKey, DEAL_TIMELINE, { id: deal })).deal).toBeNull();
    // They see their person, and n2 is about that person (and the hidden deal): it is visible.
    const res = await gql(own.apiKey, `query($p: Int!) { person(id: $p) { timeline { ${PAGE} } } }`, { p: person });
    expect(names(res.person.timeline)).toEqual(['c2', 'n2', 'n3']);
    // Another account sees nothing of it.
    const foreign = (await server.createAccount()).admin.apiKey;
    expect((await gql(foreign, DEAL_TIMELINE, { id: deal })).deal).toBeNull();
  });

  it('a page of deals with their timelines reads the timelines in one statement, each with its own events', async () => {
    const query = `query($ids: [Int!]) { deals(filter: { databaseId: { in: $ids } }, orderBy: [{ field: ID, direction: ASC }]) { nodes { databaseId timeline(first: 2) { totalCount edges { node { ${EVENT} } } } } } }`;
    const { result, statements } = await countStatements(() => server.graphql(admin, query, { ids: [deal, otherDeal] }));
    expect(result.body.errors).toBeUndefined();
    const byDeal = Object.fromEntries(result.body.data.deals.nodes.map((d: any) => [d.databaseId, names(d.timeline)]));
    expect(byDeal).toEqual({ [deal]: ['n4', 'c2'], [otherDeal]: ['cElsewhere', 'elsewhere'] });
    expect(result.body.data.deals.nodes.map((d: any) => d.timeline.totalCount)).toEqual([5, 2]);
    const timelineStatements = statements.filter((s) => /union all/i.test(s));
    // One for the pages of both deals, one for both totals.
    expect(timelineStatements).toHaveLength(2);
  });

  it('costs as a connection: each timeline page under a list is charged by its size', async () => {
    const res = await server.graphql(admin, '{ deals(first: 10) { nodes { timeline(first: 100) { nodes { occurredAt } } } } }');
    expect(res.body.errors).toBeUndefined();
    // 1 for the root field, ceil(10 × 100 / 200) = 5 for the timelines.
    expect(res.body.extensions.cost).toMatchObject({ requested: 6 });
    // Without a size, a timeline page counts as the default (100).
    const byDefault = await server.graphql(admin, '{ deals(first: 10) { nodes { timeline { nodes { occurredAt } } } } }');
    expect(byDefault.body.extensions.cost).toMatchObject({ requested: 6 });
  });
});
