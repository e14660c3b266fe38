import { formEncode, openServerWithAccount, type TestServer } from '../support/test-server';

/**
 * A legacy client reads a record and PUTs it back whole as form params (DECISIONS: Paths and
 * requests); a form cannot send JSON null, so an empty value clears a text attribute.
 */

const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;

describe('v3 form bodies (DECISIONS: Paths and requests; a form cannot send JSON null)', () => {
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
