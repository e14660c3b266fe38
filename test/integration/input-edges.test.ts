import { seedCustomField } from '../support/custom-fields';
import { openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;

describe('input edges', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  beforeAll(async () => ({ server, account, key } = await openServerWithAccount({ timeZone: 'America/New_York' })), 60_000);
  afterAll(() => server.close());

  const api = (key: string) => server.v3(key);

  async function create(path: string, root: string, attributes: Record<string, unknown>): Promise<any> {
    const res = await api(key).post(path, { [root]: attributes });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number) }) });
    return res.body;
  }

  it('finds a record by its own printed created_at as both range bounds (stored times keep milliseconds)', async () => {
    const created = await server.request('POST', '/api/v3/people.json', { apiKey: key, body: { person: { last_name: 'Exactly' } } });
    const at = created.body.created_at as string;
    const list = await server.request('GET', '/api/v3/people.json', {
      apiKey: key,
      query: { 'conditions[person_created][from_date]': at, 'conditions[person_created][to_date]': at },
    });
    expect(list.body.entries.map((p: { id: number }) => p.id)).toEqual([created.body.id]);
  });

  it('measures lengths in characters as PostgreSQL does (an emoji is one)', async () => {
    const name = '😀'.repeat(100);
    const ok = await server.request('POST', '/api/v3/people.json', { apiKey: key, body: { person: { last_name: name } } });
    expect(ok.status).toBe(200);
    expect(ok.body.last_name).toBe(name);
    const tooLong = await server.request('POST', '/api/v3/people.json', { apiKey: key, body: { person: { last_name: '😀'.repeat(101) } } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toEqual([{ field: 'last_name', humanized_field: 'Last name', msg: 'is too long (maximum is 100 characters)' }]);
  });

  it('keeps a company created_at on update (honoured on create only, like people)', async () => {
    const created = await server.request('POST', '/api/v3/companies.json', {
      apiKey: key,
      body: { company: { name: 'Dated', created_at: '2010-01-02 03:04:05' } },
    });
    expect(created.body.created_at).toBe('2010/01/02 03:04:05 -0500');
    const updated = await server.request('PUT', `/api/v3/companies/${created.body.id}.json`, {
      apiKey: key,
      body: { company: { ...created.body, name: 'Dated too', created_at: '2020-01-01 00:00:00' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Dated too', created_at: '2010/01/02 03:04:05 -0500' });
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

  it('a record sent back whole after one of its entries was deleted keeps its other values; strips NUL from text values', async () => {
    const dropdown = await seedCustomField(server, account.accountId, 'person', 'dropdown', 'Tier', ['Gold', 'Silver']);
    const text = await seedCustomField(server, account.accountId, 'person', 'text', 'Note');
    const [, silver] = dropdown.entries;
    const gql = await server.graphql(
      key,
      `mutation($cf: JSONObject) { createPerson(input: { lastName: "Custom", customFields: $cf }) { person { databaseId customFields { label value } } } }`,
      {
        cf: { [dropdown.label]: silver, [text.label]: 'a\u0000b' },
      },
    );
    expect(gql.body.errors).toBeUndefined();
    const id = gql.body.data.createPerson.person.databaseId;
    expect(gql.body.data.createPerson.person.customFields).toEqual([
      { label: dropdown.label, value: silver },
      { label: text.label, value: 'ab' },
    ]);

    // Deleting the entry clears it from the person; the record read afterwards goes back whole.
    expect((await server.request('DELETE', `/api/v3/admin/custom_field_label_dropdown_entries/${silver}.json`, { apiKey: key })).status).toBe(200);
    const shown = await server.request('GET', `/api/v3/people/${id}.json`, { apiKey: key });
    expect(shown.body.custom_fields).toEqual({ [dropdown.label]: null, [text.label]: 'ab' });
    const back = await server.request('PUT', `/api/v3/people/${id}.json`, { apiKey: key, body: { person: { ...shown.body, first_name: 'Still' } } });
    expect(back.status).toBe(200);
    expect(back.body.custom_fields).toEqual({ [dropdown.label]: null, [text.label]: 'ab' });
    const changed = await server.request('PUT', `/api/v3/people/${id}.json`, {
      apiKey: key,
      body: { person: { custom_fields: { [dropdown.label]: silver } } },
    });
    expect(changed.status).toBe(422);
    expect(changed.body[0]).toMatchObject({ field: dropdown.label, msg: 'must be one of the field\'s entries (custom field "Tier")' });
  });

  it('reads multipart/form-data bodies like urlencoded forms', async () => {
    const form = new FormData();
    form.append('person[first_name]', 'Multi');
    form.append('person[last_name]', 'Part');
    form.append('check_for_duplicates', 'true');
    const res = await fetch(new URL(`/api/v3/people.json?api_key=${key}`, server.url), { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ first_name: 'Multi', last_name: 'Part' });

    const broken = await fetch(new URL(`/api/v3/people.json?api_key=${key}`, server.url), {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: expect.stringContaining('multipart/form-data') });
  });
});
