import { seedCustomField } from '../support/custom-fields';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * The same shapes on admin lists, users, the account and custom-field filters: connections with
 * cursors, filters, nullable lookups and global ids across types.
 */
describe('GraphQL shapes beyond people and companies', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  const ok = async (query: string, variables?: Record<string, unknown>, apiKey = key) => {
    const res = await server.graphql(apiKey, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    key = account.admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  it('admin lists page by cursor both ways and order by name', async () => {
    for (let i = 0; i < 30; i++) {
      const made = await ok('mutation ($name: String!) { createListItem(kind: LEAD_SOURCE, input: { name: $name }) { userErrors { code } } }', {
        name: `Source ${String(i).padStart(2, '0')}`,
      });
      expect(made.createListItem.userErrors).toEqual([]);
    }
    const all = (await ok('{ leadSources(first: 200) { nodes { databaseId } totalCount } }')).leadSources;
    expect(all.totalCount).toBe(34); // 4 defaults + 30
    const PAGE =
      'query ($after: String, $before: String, $first: Int, $last: Int) { leadSources(first: $first, after: $after, last: $last, before: $before) { nodes { databaseId } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }';
    const forward: number[] = [];
    let after: string | null = null;
    for (;;) {
      const page: any = (await ok(PAGE, { first: 7, after })).leadSources;
      forward.push(...page.nodes.map((n: any) => n.databaseId));
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(forward).toEqual(all.nodes.map((n: any) => n.databaseId));
    const backward: number[] = [];
    let before: string | null = null;
    for (;;) {
      const page: any = (await ok(PAGE, { last: 7, before })).leadSources;
      backward.unshift(...page.nodes.map((n: any) => n.databaseId));
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor;
    }
    expect(backward).toEqual(forward);
    const byName = (await ok('{ leadSources(first: 3, orderBy: [{ field: NAME, direction: DESC }]) { nodes { name } } }')).leadSources.nodes.map(
      (n: any) => n.name,
    );
    expect(byName).toEqual(['Website', 'Trade show', 'Source 29']);
  });

  it('users: a connection with filters and order; no key or hash on any row', async () => {
    await account.addUser({ email: 'zed@users.test', firstName: 'Zed', isAdmin: false });
    await account.addUser({ email: 'amy@users.test', firstName: 'Amy', isAdmin: true });
    const admins = (await ok('{ users(filter: { isAdmin: { eq: true } }, orderBy: [{ field: EMAIL, direction: ASC }]) { nodes { email } totalCount } }')).users;
    expect(admins.nodes.map((u: any) => u.email)).toEqual(expect.arrayContaining(['amy@users.test']));
    expect(admins.nodes.map((u: any) => u.email)).not.toContain('zed@users.test');
    const byEmail = (await ok('{ users(filter: { email: { startsWith: "ZED@" } }) { nodes { firstName } } }')).users.nodes;
    expect(byEmail).toEqual([{ firstName: 'Zed' }]);
    const res = await server.graphql(key, '{ users { nodes { id databaseId email } } }');
    expect(res.text).not.toMatch(/hash|api_key|apiKey/i);
  });

  it("node resolves every record type; another account's ids and unknown types are null or refused", async () => {
    const person = (await ok('mutation { createPerson(input: { lastName: "Noded" }) { person { id } } }')).createPerson.person.id;
    const company = (await ok('mutation { createCompany(input: { name: "Noded Co" }) { company { id } } }')).createCompany.company.id;
    const ids = (await ok('{ viewer { id } account { id } leadStatuses(first: 1) { nodes { id } } }')) as any;
    const all = [person, company, ids.viewer.id, ids.account.id, ids.leadStatuses.nodes[0].id];
    const typed = await ok('query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: all });
    expect(typed.nodes.map((n: any) => n.__typename)).toEqual(['Person', 'Company', 'User', 'Account', 'ListItem']);
    expect(typed.nodes.map((n: any) => n.id)).toEqual(all);
    const other = await server.createAccount();
    expect((await ok('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: all }, other.admin.apiKey)).nodes).toEqual([null, null, null, null, null]);
    const forged = Buffer.from('Secret:1').toString('base64url');
    const refused = await server.graphql(key, `{ node(id: "${forged}") { id } }`);
    expect(refused.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'id' });
  });

  it('custom fields filter by label: text, number, date and choices', async () => {
    const fields = {
      text: await seedCustomField(server, account.accountId, 'person', 'text', 'Nickname'),
      number: await seedCustomField(server, account.accountId, 'person', 'numeric', 'Score'),
      date: await seedCustomField(server, account.accountId, 'person', 'date', 'Met'),
      pick: await seedCustomField(server, account.accountId, 'person', 'multi_select', 'Likes', ['Tea', 'Cake']),
    };
    const [tea, cake] = fields.pick.entries;
    const make = async (lastName: string, values: Record<string, unknown>) =>
      (
        await ok('mutation ($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } userErrors { message } } }', {
          input: { lastName, customFields: values },
        })
      ).createPerson.person.databaseId as number;
    const a = await make('Custom A', {
      [fields.text.label]: 'Bunny',
      [fields.number.label]: 7,
      [fields.date.label]: '2020-05-01',
      [fields.pick.label]: [tea, cake],
    });
    const b = await make('Custom B', { [fields.text.label]: 'Hopper', [fields.number.label]: 3, [fields.pick.label]: [cake] });
    const c = await make('Custom C', {});
    const ids = async (filter: unknown[]) =>
      (
        await ok('query ($f: PersonFilter) { people(filter: $f) { nodes { databaseId } } }', { f: { customFields: filter, databaseId: { in: [a, b, c] } } })
      ).people.nodes
        .map((n: any) => n.databaseId)
        .sort();
    expect(await ids([{ label: fields.text.label, text: { contains: 'bun' } }])).toEqual([a]);
    expect(await ids([{ label: fields.number.label, number: { gt: 5 } }])).toEqual([a]);
    expect(await ids([{ label: fields.number.label, number: { isNull: true } }])).toEqual([c]);
    expect(await ids([{ label: fields.date.label, date: { gte: '2020-01-01', lt: '2021-01-01' } }])).toEqual([a]);
    expect(await ids([{ label: fields.pick.label, choice: { eq: cake } }])).toEqual([a, b].sort());
    expect(
      await ids([
        { label: fields.pick.label, choice: { in: [tea] } },
        { label: fields.text.label, text: { isNull: false } },
      ]),
    ).toEqual([a]);
    // A text filter on a number field matches nothing rather than failing the statement.
    expect(await ids([{ label: fields.number.label, text: { eq: '7' } }])).toEqual([]);
    const bad = await server.graphql(key, 'query ($f: PersonFilter) { people(filter: $f) { nodes { id } } }', {
      f: { customFields: [{ label: 'nickname', text: { eq: 'x' } }] },
    });
    expect(bad.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'filter.customFields[0].label' });
  });
});
