import { Client } from 'pg';
import { Visibility } from '../../src/modules/users/user.entity';
import { fixtures } from '../support/fixtures';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

const DEAL = `databaseId name value valueInCents bonus commission commissionRate probability closedTime status isArchived expectedCloseDate
  ownerId owner { databaseId } companyId companyName company { databaseId name } primaryContactId primaryContact { databaseId }
  dealStageId dealStage { databaseId name percent } personIds sharedUserIds isShared collaborators { databaseId }
  currency { code symbol } currencyCode lastModifiedByUserId accountId possibleNotifyUserIds`;

/** Deals over GraphQL: money, states, relations, sharing, filters on related records, totals. */
describe('deals', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    admin = account.admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.graphql(key, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const create = async (key: string, input: Record<string, unknown>) =>
    (await gql(key, `mutation($i: DealCreateInput!) { createDeal(input: $i) { deal { ${DEAL} } userErrors { field code message } } }`, { i: input }))
      .createDeal;
  const update = async (key: string, id: number, input: Record<string, unknown>) =>
    (
      await gql(key, `mutation($id: Int!, $i: DealUpdateInput!) { updateDeal(id: $id, input: $i) { deal { ${DEAL} } userErrors { field code message } } }`, {
        id,
        i: input,
      })
    ).updateDeal;
  const stages = async () =>
    (await gql(admin, '{ dealStages { nodes { databaseId name percent } } }')).dealStages.nodes as Array<{ databaseId: number; name: string; percent: number }>;

  it('stores money exactly with the currency places; value_in_cents follows both ways', async () => {
    const made = await create(admin, { name: 'Big one', value: '123456789012345.675', bonus: 10.5, commission: '0.1', commissionRate: '12.5' });
    expect(made.userErrors).toEqual([]);
    expect(made.deal).toMatchObject({
      name: 'Big one',
      value: '123456789012345.68',
      bonus: '10.50',
      commission: '0.10',
      commissionRate: '12.5',
      currencyCode: 'USD',
    });
    expect(made.deal.valueInCents).toBe(12345678901234568);
    const [{ value }] = await server.sql('select value::text from deals where id = ?', [made.deal.databaseId]);
    expect(value).toBe('123456789012345.6800');
    const cents = await update(admin, made.deal.databaseId, { valueInCents: 500_050 });
    expect(cents.deal).toMatchObject({ value: '5000.50', valueInCents: 500050 });
    // A record sent back whole with only value changed: value wins over the stale cents.
    const back = await update(admin, made.deal.databaseId, { value: '7000', valueInCents: 500_050 });
    expect(back.deal).toMatchObject({ value: '7000.00', valueInCents: 700000 });
    const bad = await update(admin, made.deal.databaseId, { value: 'ten dollars' });
    expect(bad.userErrors).toEqual([{ field: ['input', 'value'], code: 'INVALID', message: expect.stringMatching(/decimal/) }]);
    expect((await update(admin, made.deal.databaseId, { value: '1e400' })).userErrors[0].field).toEqual(['input', 'value']);
  });

  it('valueInCents is deprecated on the create and update inputs too (issue 25 §5), and still writes', async () => {
    for (const input of ['DealCreateInput', 'DealUpdateInput']) {
      const { __type: type } = await gql(
        admin,
        `query($t: String!) { __type(name: $t) { shown: inputFields { name } all: inputFields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`,
        { t: input },
      );
      expect(type.all).toContainEqual({ name: 'valueInCents', isDeprecated: true, deprecationReason: 'Use value.' });
      expect(type.all.filter((f: { isDeprecated: boolean }) => f.isDeprecated).map((f: { name: string }) => f.name)).toEqual(['valueInCents']);
      expect(type.shown.map((f: { name: string }) => f.name)).not.toContain('valueInCents');
    }
    const made = await create(admin, { name: 'In cents', valueInCents: 1234 });
    expect(made).toMatchObject({ deal: { value: '12.34', valueInCents: 1234 }, userErrors: [] });
  });

  it('probability 0 or 100 closes a deal, 1 to 99 reopens it; a stage change sets the probability', async () => {
    const all = await stages();
    const won = all.find((s) => s.percent === 100)!;
    const open = all.find((s) => s.percent > 0 && s.percent < 100)!;
    const deal = (await create(admin, { name: 'Stateful', probability: 40 })).deal;
    expect(deal.closedTime).toBeNull();
    const closed = (await update(admin, deal.databaseId, { probability: 100 })).deal;
    expect(closed.closedTime).not.toBeNull();
    const given = (await update(admin, deal.databaseId, { probability: 0, closedTime: '2020-01-02T03:04:05Z' })).deal;
    expect(given.closedTime).toBe('2020-01-02T03:04:05.000Z');
    const reopened = (await update(admin, deal.databaseId, { probability: 55 })).deal;
    expect(reopened).toMatchObject({ probability: 55, closedTime: null });
    const staged = (await update(admin, deal.databaseId, { dealStageId: won.databaseId, probability: 55 })).deal;
    expect(staged).toMatchObject({ dealStageId: won.databaseId, probability: 100, dealStage: { percent: 100 } });
    expect(staged.closedTime).not.toBeNull();
    const back = (await update(admin, deal.databaseId, { dealStageId: open.databaseId })).deal;
    expect(back).toMatchObject({ probability: open.percent, closedTime: null });
    expect((await update(admin, deal.databaseId, { probability: 101 })).userErrors[0]).toMatchObject({ field: ['input', 'probability'], code: 'OUT_OF_RANGE' });
    expect((await update(admin, deal.databaseId, { status: 4 })).userErrors[0]).toMatchObject({ field: ['input', 'status'] });
    expect((await update(admin, deal.databaseId, { name: '  ' })).userErrors[0]).toMatchObject({ field: ['input', 'name'], code: 'BLANK' });
  });

  it('relations: company by id or name, primary contact, people (unknown ids ignored), collaborators of the account only', async () => {
    const companyId = await fixtures.company(server, admin, { name: 'Initech' });
    const p1 = await fixtures.person(server, admin);
    const p2 = await fixtures.person(server, admin);
    const colleague = await account.addUser();
    const deal = await create(admin, { name: 'Linked', companyId, primaryContactId: p1, personIds: [p1, p2, 999999], sharedUserIds: [colleague.id, 999999] });
    expect(deal.userErrors).toEqual([]);
    expect(deal.deal).toMatchObject({
      companyId,
      companyName: 'Initech',
      company: { name: 'Initech' },
      primaryContactId: p1,
      personIds: [p1, p2].sort((a, b) => a - b),
      sharedUserIds: [colleague.id],
      isShared: true,
    });
    expect(deal.deal.lastModifiedByUserId).toBe(account.admin.id);
    const renamed = await update(admin, deal.deal.databaseId, { companyName: 'Brand New Co', personIds: [p2] });
    expect(renamed.deal.companyName).toBe('Brand New Co');
    expect(renamed.deal.companyId).not.toBe(companyId);
    expect(renamed.deal.personIds).toEqual([p2]);
    const person = await gql(admin, `query($id: Int!) { person(id: $id) { dealIds deals { totalCount nodes { databaseId } } } }`, { id: p2 });
    expect(person.person.dealIds).toContain(deal.deal.databaseId);
    const missing = await create(admin, { name: 'Bad links', companyId: 999999, dealStageId: 999999, ownerId: 999999 });
    expect(missing.userErrors.map((e: { field: string[] }) => e.field[1]).sort()).toEqual(['companyId', 'dealStageId', 'ownerId']);
  });

  it('a write PostgreSQL gives up in a deadlock is run again: the client gets its answer, not an internal error', async () => {
    const person = await fixtures.person(server, admin);
    const deal = (await create(admin, { name: 'Contended' })).deal.databaseId;
    // Another writer holds the person and will want the deal; the update takes the deal and wants
    // the person (its join row's key): a cycle. The update waited first, so PostgreSQL's detector
    // (deadlock_timeout, 1 s) finds the cycle in its process and aborts it; it must run again.
    const other = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select id from people where id = $1 for update', [person]);
      const answer = server.graphql(
        admin,
        `mutation($id: Int!, $i: DealUpdateInput!) { updateDeal(id: $id, input: $i) { deal { name personIds } userErrors { code } } }`,
        { id: deal, i: { name: 'Renamed by the update', personIds: [person] } },
      );
      for (let i = 0; i < 100; i++) {
        const { rows } = await other.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await other.query(`update deals set summary = 'written by the other' where id = $1`, [deal]);
      await other.query('commit');
      const res = await answer;
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.updateDeal).toEqual({ deal: { name: 'Renamed by the update', personIds: [person] }, userErrors: [] });
    } finally {
      await other.end();
    }
    // Both writes stand: the other's (first) and the update's second run, made after it.
    const [row] = await server.sql('select name, summary from deals where id = ?', [deal]);
    expect(row).toEqual({ name: 'Renamed by the update', summary: 'written by the other' });
  });

  it('an own user sees the deals they own or that are shared with them, on every path', async () => {
    const own = await account.addUser({ visibility: Visibility.OWN });
    const theirs = (await create(own.apiKey, { name: 'Mine' })).deal.databaseId;
    const hidden = (await create(admin, { name: 'Hidden from own' })).deal.databaseId;
    const shared = (await create(admin, { name: 'Shared with own', sharedUserIds: [own.id] })).deal.databaseId;
    const list = await gql(own.apiKey, '{ deals(first: 200) { totalCount nodes { databaseId } totals { count } } }');
    const ids = list.deals.nodes.map((d: { databaseId: number }) => d.databaseId);
    expect(ids).toEqual(expect.arrayContaining([theirs, shared]));
    expect(ids).not.toContain(hidden);
    expect(list.deals.totalCount).toBe(ids.length);
    expect(list.deals.totals.count).toBe(ids.length);
    expect((await gql(own.apiKey, 'query($id: Int!) { deal(id: $id) { databaseId } }', { id: hidden })).deal).toBeNull();
    expect(
      (await gql(own.apiKey, 'query($id: Int!) { deal(id: $id) { databaseId possibleNotifyUserIds } }', { id: shared })).deal.possibleNotifyUserIds,
    ).toContain(own.id);
    const globalId = Buffer.from(`Deal:${hidden}`).toString('base64url');
    expect((await gql(own.apiKey, 'query($id: ID!) { node(id: $id) { id } }', { id: globalId })).node).toBeNull();
    expect((await update(own.apiKey, hidden, { name: 'x' })).userErrors[0].code).toBe('NOT_FOUND');
    expect((await update(own.apiKey, shared, { name: 'Shared, renamed' })).deal.name).toBe('Shared, renamed');
    const del = await gql(own.apiKey, 'mutation($id: Int!) { deleteDeal(id: $id) { userErrors { code } } }', { id: hidden });
    expect(del.deleteDeal.userErrors[0].code).toBe('NOT_FOUND');
    expect(await server.sql('select id from deals where id = ?', [hidden])).toHaveLength(1);
  });

  it('filters on related records: the company and the people of a deal; totals over every match, in SQL', async () => {
    const acme = await fixtures.company(server, admin, { name: 'Acme Rockets' });
    const person = await fixtures.person(server, admin, { email: 'wile@coyote.example' });
    await create(admin, { name: 'Rocket skates', companyId: acme, value: '100.10', personIds: [person] });
    await create(admin, { name: 'Anvil', companyId: acme, value: '200.20', bonus: '5' });
    const byCompany = await gql(admin, '{ deals(filter: { company: { name: { contains: "rockets" } } }) { totalCount totals { value bonus count } } }');
    expect(byCompany.deals).toMatchObject({ totalCount: 2, totals: { value: '300.30', bonus: '5.00', count: 2 } });
    const byPeople = await gql(admin, '{ deals(filter: { people: { some: { anyEmail: { contains: "@coyote" } } } }) { nodes { name } } }');
    expect(byPeople.deals.nodes).toEqual([{ name: 'Rocket skates' }]);
    const none = await gql(
      admin,
      '{ deals(filter: { company: { name: { eq: "Acme Rockets" } }, people: { none: { anyEmail: { contains: "@coyote" } } } }) { nodes { name } } }',
    );
    expect(none.deals.nodes).toEqual([{ name: 'Anvil' }]);
    const company = await gql(admin, 'query($id: Int!) { company(id: $id) { deals(orderBy: [{ field: NAME }]) { nodes { name } totals { value } } } }', {
      id: acme,
    });
    expect(company.company.deals).toEqual({ nodes: [{ name: 'Anvil' }, { name: 'Rocket skates' }], totals: { value: '300.30' } });
  });

  it('sorts by value and expected close date with cursors', async () => {
    const co = await fixtures.company(server, admin, { name: 'Sorted Co' });
    for (const [v, d] of [
      ['3', '2027-03-01'],
      ['1', '2027-01-01'],
      ['2', null],
    ])
      await create(admin, { name: `S${v}`, value: v, expectedCloseDate: d, companyId: co });
    const page = await gql(
      admin,
      'query($co: Int!) { deals(first: 2, filter: { companyId: { eq: $co } }, orderBy: [{ field: EXPECTED_CLOSE_DATE }]) { nodes { name } pageInfo { endCursor } } }',
      { co },
    );
    expect(page.deals.nodes.map((d: { name: string }) => d.name)).toEqual(['S1', 'S3']);
    const next = await gql(
      admin,
      'query($co: Int!, $after: String) { deals(first: 2, after: $after, filter: { companyId: { eq: $co } }, orderBy: [{ field: EXPECTED_CLOSE_DATE }]) { nodes { name } } }',
      { co, after: page.deals.pageInfo.endCursor },
    );
    expect(next.deals.nodes).toEqual([{ name: 'S2' }]);
    const byValue = await gql(
      admin,
      'query($co: Int!) { deals(filter: { companyId: { eq: $co }, value: { gte: 2 } }, orderBy: [{ field: VALUE, direction: DESC }]) { nodes { name } } }',
      { co },
    );
    expect(byValue.deals.nodes).toEqual([{ name: 'S3' }, { name: 'S2' }]);
  });
});
