import { openServerWithAccount, type TestServer } from '../support/test-server';

/**
 * GraphQL input PostgreSQL cannot store is cleaned or refused before it reaches the database, never
 * a 500: NUL in text filters and names is dropped, datetimes outside the storable years are
 * refused naming the argument or the field, an admin list's last position does not overflow.
 */

describe('GraphQL input PostgreSQL cannot store: NUL and out-of-range values (never a 500)', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => ({ server, key } = await openServerWithAccount({ timeZone: 'America/New_York' })), 60_000);
  afterAll(() => server.close());

  const api = (key: string) => server.v3(key);

  async function create(path: string, root: string, attributes: Record<string, unknown>): Promise<any> {
    const res = await api(key).post(path, { [root]: attributes });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number) }) });
    return res.body;
  }

  const gql = async (query: string, variables?: Record<string, unknown>) => (await server.graphql(key, query, variables)).body;
  const codes = (body: any) => (body.errors ?? []).map((e: any) => e.extensions?.code);
  /** A payload's user errors as `path: code`. */
  const userErrors = (payload: any) => (payload?.userErrors ?? []).map((e: any) => `${(e.field ?? ['base']).join('.')}: ${e.code}`);

  it('NUL in text filters is dropped, not sent to PostgreSQL', async () => {
    const c = await create('/companies.json', 'company', { name: 'Nul Filter Co' });
    const p = await create('/people.json', 'person', { first_name: 'Nul', last_name: 'Filter', company_id: c.id });
    const people = await gql('query ($f: PersonFilter) { people(filter: $f) { nodes { databaseId } } }', {
      f: {
        name: { contains: 'Nul\u0000 Fil' },
        anyEmail: { isNull: true },
        companyName: { startsWith: 'Nul\u0000' },
        search: 'Filt\u0000er',
        lastName: { in: ['Fil\u0000ter'] },
      },
    });
    expect({ errors: people.errors, ids: people.data?.people.nodes.map((e: any) => e.databaseId) }).toEqual({ errors: undefined, ids: [p.id] });
    const companies = await gql('query ($f: CompanyFilter) { companies(filter: $f) { nodes { databaseId } } }', {
      f: { name: { startsWith: 'nul\u0000 filter' }, anyPhone: { isNull: true } },
    });
    expect({ errors: companies.errors, ids: companies.data?.companies.nodes.map((e: any) => e.databaseId) }).toEqual({ errors: undefined, ids: [c.id] });
  });

  it('a range bound outside the storable years is a BAD_USER_INPUT error naming it', async () => {
    const people = await gql('query ($f: PersonFilter) { people(filter: $f) { nodes { id } } }', { f: { createdAt: { gte: '9999-12-31T23:59:59-05:00' } } });
    expect(people.errors?.map((e: any) => e.extensions)).toEqual([{ code: 'BAD_USER_INPUT', argument: 'filter.createdAt.gte' }]);
    const companies = await gql('query ($f: CompanyFilter) { companies(filter: $f) { nodes { id } } }', {
      f: { updatedAt: { lte: '0000-06-01T00:00:00Z' } },
    });
    expect(companies.errors?.map((e: any) => e.extensions)).toEqual([{ code: 'BAD_USER_INPUT', argument: 'filter.updatedAt.lte' }]);
  });

  it('person datetimes outside the storable years are OUT_OF_RANGE user errors', async () => {
    const created = await gql('mutation ($i: PersonCreateInput!) { createPerson(input: $i) { person { id } userErrors { field code } } }', {
      i: { lastName: 'Far', createdAt: '9999-12-31T23:59:59-05:00', lastEmailedAt: '9999-12-31T23:00:00-05:00' },
    });
    expect(userErrors(created.data.createPerson)).toEqual(['input.createdAt: OUT_OF_RANGE', 'input.lastEmailedAt: OUT_OF_RANGE']);
    const p = await create('/people.json', 'person', { last_name: 'Near' });
    const updated = await gql('mutation ($i: PersonUpdateInput!) { updatePerson(id: ' + p.id + ', input: $i) { person { id } userErrors { field code } } }', {
      i: { lastEmailedAt: '9999-12-31T23:00:00-05:00' },
    });
    expect(userErrors(updated.data.updatePerson)).toEqual(['input.lastEmailedAt: OUT_OF_RANGE']);
  });

  it('names made only of NUL are blank, and NUL in companyName is dropped', async () => {
    const person = await gql('mutation { createPerson(input: { lastName: "\\u0000" }) { person { id } userErrors { field code } } }');
    expect(userErrors(person.data.createPerson)).toEqual(['input.lastName: BLANK']);
    const viaFullName = await gql('mutation { createPerson(input: { lastName: "", fullName: "\\u0000 " }) { person { id } userErrors { field code } } }');
    expect(userErrors(viaFullName.data.createPerson)).toEqual(['input.lastName: BLANK']);
    const company = await gql('mutation { createCompany(input: { name: "\\u0000" }) { company { id } userErrors { field code } } }');
    expect(userErrors(company.data.createCompany)).toEqual(['input.name: BLANK']);
    const c = await create('/companies.json', 'company', { name: 'Kept Name' });
    const renamed = await gql(`mutation { updateCompany(id: ${c.id}, input: { name: "\\u0000" }) { company { id } userErrors { field code } } }`);
    expect(userErrors(renamed.data.updateCompany)).toEqual(['input.name: BLANK']);
    const withCompany = await gql('mutation { createPerson(input: { lastName: "Worker", companyName: "Nul\\u0000 Works" }) { person { companyName } } }');
    expect({ errors: withCompany.errors, data: withCompany.data }).toEqual({
      errors: undefined,
      data: { createPerson: { person: { companyName: 'Nul Works' } } },
    });
  });

  it('admin list items: NUL in a name is dropped (alone it is blank), and the last position cannot overflow', async () => {
    const create = async (input: Record<string, unknown>) =>
      (
        await gql(
          'mutation ($i: ListItemCreateInput!) { createListItem(kind: NOTE_CATEGORY, input: $i) { listItem { name position } userErrors { field code } } }',
          { i: input },
        )
      ).data.createListItem;
    expect(await create({ name: 'Nul\u0000 Note' })).toEqual({ listItem: { name: 'Nul Note', position: expect.any(Number) }, userErrors: [] });
    expect(userErrors(await create({ name: '\u0000' }))).toEqual(['input.name: BLANK']);
    expect(await create({ name: 'Last', position: 2_147_483_647 })).toEqual({ listItem: { name: 'Last', position: 2_147_483_647 }, userErrors: [] });
    expect(await create({ name: 'After Last' })).toEqual({ listItem: { name: 'After Last', position: 2_147_483_647 }, userErrors: [] });
    const names = (await api(key).get('/admin/note_categories.json')).body.entries.map((e: any) => e.name);
    expect(names.slice(-2)).toEqual(['Last', 'After Last']);
    expect(codes({})).toEqual([]);
  });
});
