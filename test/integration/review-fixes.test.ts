import { formEncode, openServerWithAccount, type TestServer } from '../support/test-server';

/**
 * Fixes from the v3 review, each pinned as a legacy client or a contract suite would meet it:
 * form round trips, full_name and company_name sent with the parts they name, and odd GraphQL
 * input that reached PostgreSQL as a 500.
 */

const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;

describe('review fixes', () => {
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

  describe('form bodies (DECISIONS: Paths and requests; a form cannot send JSON null)', () => {
    it('a person read from show and PUT back whole as form params changes only the edited attribute', async () => {
      const tags = (await api(key).get('/admin/predefined_contacts_tags.json')).body.entries;
      const company = await create('/companies.json', 'company', { name: 'Form Trip Co' });
      const p = await create('/people.json', 'person', {
        first_name: 'Fern',
        last_name: 'Form',
        company_id: company.id,
        predefined_contacts_tag_ids: [tags[0].id],
        last_emailed_at: '2014-05-19 08:54',
      });
      const shown = (await api(key).get(`/people/${p.id}.json`)).body;
      expect(shown.website).toBeNull();
      const res = await api(key).put(`/people/${p.id}.json`, formEncode({ person: { ...shown, position: 'Buyer' } }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...shown, position: 'Buyer', updated_at: expect.stringMatching(V3_DATETIME) });
      expect((await api(key).get(`/people/${p.id}.json`)).body).toEqual(res.body);
    });

    it('a company read from a list and PUT back whole as form params changes only the edited attribute', async () => {
      const c = await create('/companies.json', 'company', { name: 'Form Listed', city: 'Lima' });
      const listed = (await api(key).get('/companies.json', { 'conditions[company_id]': c.id })).body.entries[0];
      expect(listed.fax).toBeNull();
      const res = await api(key).put(`/companies/${c.id}.json`, formEncode({ company: { ...listed, web: 'listed.test' } }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...listed, web: 'listed.test', updated_at: expect.stringMatching(V3_DATETIME) });
    });

    it('an empty value clears a text attribute to null, as JSON null does', async () => {
      const p = await create('/people.json', 'person', { last_name: 'Clear', website: 'clear.test', work_city: 'Oslo' });
      const viaForm = await api(key).put(`/people/${p.id}.json`, 'person[website]=&person[work_city]=');
      expect(viaForm.body).toMatchObject({ website: null, work_city: null, last_name: 'Clear' });
      const c = await create('/companies.json', 'company', { name: 'Clear Co', email: 'c@clear.test' });
      const viaJson = await api(key).put(`/companies/${c.id}.json`, { company: { email: '' } });
      expect(viaJson.body).toMatchObject({ email: null, name: 'Clear Co' });
      // The required ones stay required.
      const blank = await api(key).put(`/people/${p.id}.json`, 'person[last_name]=');
      expect({ status: blank.status, body: blank.body }).toEqual({
        status: 422,
        body: [{ field: 'last_name', humanized_field: 'Last name', msg: "can't be blank" }],
      });
    });
  });

  it('company created_at null or blank leaves it unchanged (it cannot be cleared), never a 500', async () => {
    const c = await create('/companies.json', 'company', { name: 'Null Created', created_at: '2014-05-19 08:54:59' });
    for (const body of [{ company: { created_at: null } }, 'company[created_at]=']) {
      const res = await api(key).put(`/companies/${c.id}.json`, body);
      expect({ status: res.status, created_at: res.body?.created_at }).toEqual({ status: 200, created_at: '2014/05/19 08:54:59 -0400' });
    }
    const made = await api(key).post('/companies.json', { company: { name: 'Null On Create', created_at: null } });
    expect({ status: made.status, created_at: made.body?.created_at }).toEqual({ status: 200, created_at: expect.stringMatching(V3_DATETIME) });
  });

  describe('person names and company sent with what they name (v3 §2.4)', () => {
    it('a create copying a record keeps first and last names that contain spaces', async () => {
      const p = await create('/people.json', 'person', { first_name: 'Mary Ann', last_name: 'Smith', full_name: 'Mary Ann Smith' });
      expect(p).toMatchObject({ first_name: 'Mary Ann', last_name: 'Smith', full_name: 'Mary Ann Smith' });
      // full_name alone still splits on the first space; a different full_name still wins.
      expect(await create('/people.json', 'person', { full_name: 'Mary Ann Smith' })).toMatchObject({ first_name: 'Mary', last_name: 'Ann Smith' });
      expect(await create('/people.json', 'person', { first_name: 'A', last_name: 'B', full_name: 'Carl Dean' })).toMatchObject({
        first_name: 'Carl',
        last_name: 'Dean',
      });
    });

    it('company_name equal to the name of the company_id sent uses that company, not a namesake', async () => {
      const first = await create('/companies.json', 'company', { name: 'Twin Name' });
      const second = await create('/companies.json', 'company', { name: 'Twin Name' });
      const copied = await create('/people.json', 'person', { last_name: 'Copy', company_id: second.id, company_name: 'Twin Name' });
      expect(copied).toMatchObject({ company_id: second.id, company: { id: second.id, name: 'Twin Name' } });
      // An update changing both to the other twin lands on the id sent.
      const moved = await api(key).put(`/people/${copied.id}.json`, { person: { ...copied, company_id: first.id, company_name: 'twin name' } });
      expect(moved.body.company_id).toBe(first.id);
      // A name of no company sent still finds or creates by name.
      const renamed = await api(key).put(`/people/${copied.id}.json`, { person: { ...moved.body, company_name: 'Third Co' } });
      expect(renamed.body.company).toEqual({ id: expect.any(Number), name: 'Third Co' });
      expect([first.id, second.id]).not.toContain(renamed.body.company_id);
    });
  });

  describe('GraphQL input that reached PostgreSQL (never a 500)', () => {
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
});
