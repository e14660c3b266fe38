import { seedCustomField } from '../support/custom-fields';
import { v3KeysOf } from '../support/v3-keys';
import { Visibility } from '../../src/modules/users/user.entity';
import { formEncode, startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * The v3 contract on the reference resource, companies (v3 §2.6, §4.6), pinning DECISIONS.md:
 * "Paths and requests", "Responses", "Paging", "Status codes and bodies". Cross-cutting HTTP
 * behaviour (auth, headers, limits) is in decisions.contract.test.ts.
 */

/** Every attribute of a v3 company, in the serializer's order (v3 §2.6). */
const COMPANY_KEYS = [
  'id',
  'name',
  'description',
  'email',
  'web',
  'fax',
  'address_1',
  'address_2',
  'city',
  'state',
  'postal_code',
  'country',
  'phone1',
  'phone2',
  'phone3',
  'phone4',
  'phone1_desc',
  'phone2_desc',
  'phone3_desc',
  'phone4_desc',
  'image_thumb_url',
  'image_mobile_url',
  'custom_fields',
  'owner_id',
  'owner',
  'possible_notify_user_ids',
  'import_id',
  'created_at',
  'updated_at',
];

const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;
const JSON_UTF8 = 'application/json; charset=utf-8';

describe('companies: the v3 contract (DECISIONS.md)', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  /** Custom field ids of `account`. */
  let cf: { text: number; number: number; date: number; dropdown: number; multi: number };
  /** Entry ids of the dropdown (Gold, Silver) and of the multi-select (EU, US, APAC). */
  let tier: number[];
  let regions: number[];

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York' });
    key = account.admin.apiKey;
    const dropdown = await seedCustomField(server, account.accountId, 'company', 'dropdown', 'Tier', ['Gold', 'Silver']);
    const multi = await seedCustomField(server, account.accountId, 'company', 'multi_select', 'Regions', ['EU', 'US', 'APAC']);
    tier = dropdown.entries;
    regions = multi.entries;
    cf = {
      text: (await seedCustomField(server, account.accountId, 'company', 'text', 'Nickname')).id,
      number: (await seedCustomField(server, account.accountId, 'company', 'numeric', 'Employees')).id,
      date: (await seedCustomField(server, account.accountId, 'company', 'date', 'Founded')).id,
      dropdown: dropdown.id,
      multi: multi.id,
    };
  }, 60_000);
  afterAll(() => server.close());

  const label = (id: number) => `custom_label_${id}`;

  const api = (key: string) => server.v3(key);

  async function create(apiKey: string, company: Record<string, unknown>): Promise<any> {
    const res = await api(apiKey).post('/companies.json', { company });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number) }) });
    return res.body;
  }

  /** The parts of a record that differ between two otherwise identical creates. */
  const stable = (c: Record<string, unknown>) => {
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = c;
    return rest;
  };

  function expectJson(res: TestResponse): void {
    expect(res.headers.get('content-type')).toBe(JSON_UTF8);
  }

  describe('status codes and bodies', () => {
    it('create answers 200 (not 201) with the bare, whole record', async () => {
      const res = await api(key).post('/companies.json', { company: { name: 'Acme Ltd', email: 'info@acme.test', city: 'Boston' } });
      expect(res.status).toBe(200);
      expectJson(res);
      expect(Object.keys(res.body)).toEqual(v3KeysOf('company', COMPANY_KEYS));
      expect(res.body).toEqual(
        expect.objectContaining({
          id: expect.any(Number),
          name: 'Acme Ltd',
          email: 'info@acme.test',
          city: 'Boston',
          description: null,
          owner_id: account.admin.id,
          owner: { id: account.admin.id, first_name: 'Ada', last_name: expect.any(String), full_name: expect.stringMatching(/^Ada /) },
          possible_notify_user_ids: expect.arrayContaining([account.admin.id]),
          import_id: null,
          created_at: expect.stringMatching(V3_DATETIME),
          updated_at: expect.stringMatching(V3_DATETIME),
          custom_fields: { [label(cf.text)]: null, [label(cf.number)]: null, [label(cf.date)]: null, [label(cf.dropdown)]: null, [label(cf.multi)]: [] },
        }),
      );
      expect(res.body.company).toBeUndefined();
    });

    it('show and update answer 200 with the bare, whole record', async () => {
      const created = await create(key, { name: ' Show Me ' });
      expect(created.name).toBe('Show Me'); // trimmed, on create and update alike
      const show = await api(key).get(`/companies/${created.id}.json`);
      expect(show.status).toBe(200);
      expectJson(show);
      expect(show.body).toEqual(created);
      const update = await api(key).put(`/companies/${created.id}.json`, { company: { city: 'Denver', name: '  Show Me  ' } });
      expect(update.status).toBe(200);
      expect(Object.keys(update.body)).toEqual(v3KeysOf('company', COMPANY_KEYS));
      expect(update.body).toEqual({ ...created, city: 'Denver', updated_at: expect.stringMatching(V3_DATETIME) });
    });

    it('delete answers 200 with an empty body; the record is then a 404 with an empty body', async () => {
      const created = await create(key, { name: 'Delete Me' });
      const del = await api(key).del(`/companies/${created.id}.json`);
      expect({ status: del.status, text: del.text }).toEqual({ status: 200, text: '' });
      expectJson(del);
      for (const res of [
        await api(key).get(`/companies/${created.id}.json`),
        await api(key).put(`/companies/${created.id}.json`, { company: { name: 'x' } }),
        await api(key).del(`/companies/${created.id}.json`),
      ]) {
        expect({ status: res.status, text: res.text }).toEqual({ status: 404, text: '' });
        expectJson(res);
      }
    });

    it('a missing or malformed id is a 404 with an empty body', async () => {
      for (const id of ['2147483000', '0', '-1', 'abc', '99999999999999', '1.5', '%E0%A4%A', '1%00']) {
        const res = await api(key).get(`/companies/${id}.json`);
        expect({ id, status: res.status, text: res.text }).toEqual({ id, status: 404, text: '' });
      }
    });

    it('a blank or missing name is a 422 bare array {field, humanized_field, msg} with "can\'t be blank"', async () => {
      const expected = [{ field: 'name', humanized_field: 'Name', msg: "can't be blank" }];
      for (const body of [{ company: { name: '' } }, { company: { name: '   ' } }, { company: { city: 'Nowhere' } }, { company: { name: null } }]) {
        const res = await api(key).post('/companies.json', body);
        expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: expected });
        expectJson(res);
      }
      const form = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: 'company[name]=' });
      expect({ status: form.status, body: form.body }).toEqual({ status: 422, body: expected });
      const created = await create(key, { name: 'Keeps Its Name' });
      const update = await api(key).put(`/companies/${created.id}.json`, { company: { name: '' } });
      expect({ status: update.status, body: update.body }).toEqual({ status: 422, body: expected });
      expect((await api(key).get(`/companies/${created.id}.json`)).body.name).toBe('Keeps Its Name');
    });

    it('a value too long is a 422 naming the v3 attribute', async () => {
      const res = await api(key).post('/companies.json', { company: { name: 'Long', city: 'x'.repeat(101) } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual([{ field: 'city', humanized_field: 'City', msg: expect.stringContaining('too long') }]);
    });

    it('check_for_duplicates rejects a same-named company: 422 [{field: base, humanized_field: Base, msg}]', async () => {
      const name = `Dupe ${Date.now()}`;
      await create(key, { name });
      const expected = [{ field: 'base', humanized_field: 'Base', msg: expect.stringContaining(name) }];
      // The flag in the query string, at the top level of a JSON body, and of a form body (DECISIONS: Paths and requests).
      const inQuery = await api(key).post('/companies.json', { company: { name } }, { check_for_duplicates: 'true' });
      expect({ status: inQuery.status, body: inQuery.body }).toEqual({ status: 422, body: expected });
      const inJson = await api(key).post('/companies.json', { company: { name: name.toUpperCase() }, check_for_duplicates: true });
      expect({ status: inJson.status, body: inJson.body }).toEqual({ status: 422, body: [{ ...expected[0], msg: expect.any(String) }] });
      const inForm = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: formEncode({ company: { name }, check_for_duplicates: 1 }) });
      expect({ status: inForm.status, body: inForm.body }).toEqual({ status: 422, body: expected });
      // Default false: the same name is accepted (v3 §4.6).
      const without = await api(key).post('/companies.json', { company: { name } });
      expect(without.status).toBe(200);
      const explicitlyOff = await api(key).post('/companies.json', { company: { name }, check_for_duplicates: '0' });
      expect(explicitlyOff.status).toBe(200);
      const list = await api(key).get('/companies.json', { 'conditions[company_name]': name, per_page: 100 });
      expect(list.body.entries.filter((c: any) => c.name === name)).toHaveLength(3);
    });
  });

  describe('bodies: form or JSON with the root key decode to the same input', () => {
    it('form body (`company[attr]=v`, arrays `[]`, nested custom fields) equals the JSON body', async () => {
      const company = {
        name: 'Same Input Inc',
        description: 'Line one\nLine two & more',
        address_1: '1 Main St',
        phone1: '+1 555 0100',
        phone1_desc: 'office',
        owner_id: account.admin.id,
        custom_fields: {
          [label(cf.text)]: 'Sammy',
          [label(cf.number)]: '42',
          [label(cf.date)]: '2001-02-03',
          [label(cf.dropdown)]: String(tier[1]),
          [label(cf.multi)]: [String(regions[0]), String(regions[2])],
        },
      };
      const viaForm = await server.request('POST', '/api/v3/companies.json', { apiKey: key, body: formEncode({ company }) });
      expect(viaForm.status).toBe(200);
      const viaJson = await api(key).post('/companies.json', { company });
      expect(viaJson.status).toBe(200);
      expect(stable(viaForm.body)).toEqual(stable(viaJson.body));
      expect(viaForm.body).toEqual(
        expect.objectContaining({
          name: 'Same Input Inc',
          description: 'Line one\nLine two & more',
          address_1: '1 Main St',
          phone1: '+1 555 0100',
          phone1_desc: 'office',
          // Numeric values are decimal strings in v3 (DECISIONS: Responses: custom_fields, issue 22).
          custom_fields: {
            [label(cf.text)]: 'Sammy',
            [label(cf.number)]: '42.0',
            [label(cf.date)]: '2001/02/03',
            [label(cf.dropdown)]: tier[1],
            [label(cf.multi)]: [regions[0], regions[2]],
          },
        }),
      );
      // JSON with native types decodes the same as the form's strings.
      const typed = await api(key).post('/companies.json', {
        company: {
          ...company,
          custom_fields: {
            [label(cf.text)]: 'Sammy',
            [label(cf.number)]: 42,
            [label(cf.date)]: '2001/02/03',
            [label(cf.dropdown)]: tier[1],
            [label(cf.multi)]: [regions[0], regions[2]],
          },
        },
      });
      expect(stable(typed.body)).toEqual(stable(viaJson.body));
    });

    it('a form update with `company[custom_fields][custom_label_N][]=` changes only what it names', async () => {
      const created = await create(key, { name: 'Form Update', city: 'Oslo', custom_fields: { [label(cf.multi)]: [regions[1]] } });
      const body = `company[custom_fields][${label(cf.multi)}][]=${regions[0]}&company[custom_fields][${label(cf.multi)}][]=${regions[1]}&company[state]=NY`;
      const res = await server.request('PUT', `/api/v3/companies/${created.id}.json`, { apiKey: key, body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        expect.objectContaining({ city: 'Oslo', state: 'NY', custom_fields: expect.objectContaining({ [label(cf.multi)]: [regions[0], regions[1]] }) }),
      );
    });

    it('unknown and read-only attributes are ignored, never written', async () => {
      const other = await account.addUser({ firstName: 'Otto', lastName: 'Other' });
      const res = await api(key).post('/companies.json', {
        company: {
          name: 'Whitelist Co',
          id: 1,
          import_id: 77,
          image_mobile_url: 'http://evil.test/x.png',
          possible_notify_user_ids: [999999],
          owner: { id: other.id, full_name: 'Otto Other' },
          account_id: 1,
          no_such_attribute: 'x',
          custom_fields: { custom_label_999999: 'ignored', not_a_label: 1 },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.id).not.toBe(1);
      expect(res.body).toEqual(
        expect.objectContaining({
          import_id: null,
          image_mobile_url: null,
          owner_id: account.admin.id,
          owner: expect.objectContaining({ id: account.admin.id }),
        }),
      );
      expect(res.body.possible_notify_user_ids).not.toContain(999999);
      expect(Object.keys(res.body.custom_fields).sort()).toEqual([cf.text, cf.number, cf.date, cf.dropdown, cf.multi].map(label).sort());
      expect(Object.keys(res.body)).toEqual(v3KeysOf('company', COMPANY_KEYS));
    });

    it('a record read from show, changed in one attribute and PUT whole, updates just that attribute', async () => {
      const other = await account.addUser({ firstName: 'Pia', lastName: 'Put' });
      const created = await create(key, {
        name: 'Round Trip',
        email: 'rt@example.test',
        owner_id: other.id,
        created_at: '2014-05-19 08:54:59',
        custom_fields: {
          [label(cf.text)]: 'rt',
          [label(cf.number)]: 3.5,
          [label(cf.date)]: '2010-10-10',
          [label(cf.dropdown)]: tier[0],
          [label(cf.multi)]: [],
        },
      });
      const shown = (await api(key).get(`/companies/${created.id}.json`)).body;
      expect(shown.web).toBeNull(); // nulls go back too
      // Another record's id in the body must not redirect the write.
      const decoy = await create(key, { name: 'Decoy' });
      const sent = { ...shown, id: decoy.id, name: 'Round Trip 2' };
      const res1 = await api(key).put(`/companies/${created.id}.json`, { company: sent });
      expect(res1.status).toBe(200);
      expect(res1.body).toEqual({ ...shown, name: 'Round Trip 2', updated_at: expect.stringMatching(V3_DATETIME) });
      expect((await api(key).get(`/companies/${decoy.id}.json`)).body.name).toBe('Decoy');
      // The list entry is PUT back the same way.
      const listed = (await api(key).get('/companies.json', { 'conditions[company_id]': created.id })).body.entries[0];
      const res = await api(key).put(`/companies/${created.id}.json`, { company: { ...listed, city: 'Lima' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...listed, city: 'Lima', updated_at: expect.stringMatching(V3_DATETIME) });
    });

    it('JSON null clears a writable field; an absent one is unchanged', async () => {
      const created = await create(key, {
        name: 'Nulls',
        email: 'n@example.test',
        city: 'Rome',
        custom_fields: { [label(cf.text)]: 'x', [label(cf.multi)]: [regions[0]] },
      });
      const res = await api(key).put(`/companies/${created.id}.json`, {
        company: { email: null, custom_fields: { [label(cf.text)]: null, [label(cf.multi)]: null } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        expect.objectContaining({ email: null, city: 'Rome', custom_fields: expect.objectContaining({ [label(cf.text)]: null, [label(cf.multi)]: [] }) }),
      );
      expect((await api(key).get(`/companies/${created.id}.json`)).body.email).toBeNull();
    });

    it('JSON attributes at the top level (no root key) are accepted too', async () => {
      const res = await api(key).post('/companies.json', { name: 'Rootless' });
      expect({ status: res.status, name: res.body?.name }).toEqual({ status: 200, name: 'Rootless' });
    });
  });

  describe('datetimes', () => {
    const forms: Array<[string, string]> = [
      ['2014-05-19', '2014/05/19 00:00:00 -0400'],
      ['2014-05-19 08:54', '2014/05/19 08:54:00 -0400'],
      ['2014-05-19 08:54:59', '2014/05/19 08:54:59 -0400'],
      ['2014/05/19', '2014/05/19 00:00:00 -0400'],
      ['2014/05/19 08:54', '2014/05/19 08:54:00 -0400'],
      ['2014/05/19 08:54:59', '2014/05/19 08:54:59 -0400'],
      ['2014/05/19 08:54:59 -0400', '2014/05/19 08:54:59 -0400'], // the service's own output
      ['2014/05/19 14:54:59 +0200', '2014/05/19 08:54:59 -0400'],
      ['2014-05-19T12:54:59Z', '2014/05/19 08:54:59 -0400'],
      ['2014-05-19T14:54:59+02:00', '2014/05/19 08:54:59 -0400'],
      ['2014-05-19T08:54:59.123-04:00', '2014/05/19 08:54:59 -0400'],
      ['2014-01-10 09:00', '2014/01/10 09:00:00 -0500'], // winter: the zone's offset at that instant
    ];

    it.each(forms)('input %s is read in the user zone when it has no offset → %s', async (input, output) => {
      const res = await api(key).post('/companies.json', { company: { name: `At ${input}`, created_at: input } });
      expect({ status: res.status, created_at: res.body?.created_at }).toEqual({ status: 200, created_at: output });
      const viaForm = await server.request('POST', '/api/v3/companies.json', {
        apiKey: key,
        body: formEncode({ company: { name: `Form ${input}`, created_at: input } }),
      });
      expect({ status: viaForm.status, created_at: viaForm.body?.created_at }).toEqual({ status: 200, created_at: output });
    });

    it('output is in the viewer’s zone: a user with a zone of their own reads and writes in it', async () => {
      const tokyo = await account.addUser({ timeZone: 'Asia/Tokyo' });
      const res = await api(tokyo.apiKey).post('/companies.json', { company: { name: 'Tokyo Time', created_at: '2014-05-19 08:54:59' } });
      expect(res.body.created_at).toBe('2014/05/19 08:54:59 +0900');
      const seenFromNewYork = await api(key).get(`/companies/${res.body.id}.json`);
      expect(seenFromNewYork.body.created_at).toBe('2014/05/18 19:54:59 -0400');
      const utcAccount = await server.createAccount();
      const utc = await api(utcAccount.admin.apiKey).post('/companies.json', { company: { name: 'UTC Time', created_at: '2014-05-19 08:54:59' } });
      expect(utc.body.created_at).toBe('2014/05/19 08:54:59 +0000');
    });

    it('an unparseable datetime is a 422 naming the field (never a 500)', async () => {
      // The last two are well-formed but outside what can be stored (year 10000 / year 0 in UTC).
      for (const bad of [
        'yesterday',
        '2014-13-45',
        '2014-02-30 10:00',
        '19/05/2014',
        '2014-05-19 25:00',
        '1400000000',
        '9999-12-31 23:59:59',
        '0001-01-01T00:00:00+14:00',
      ]) {
        const res = await api(key).post('/companies.json', { company: { name: 'Bad Date', created_at: bad } });
        expect({ bad, status: res.status, body: res.body }).toEqual({
          bad,
          status: 422,
          body: [{ field: 'created_at', humanized_field: 'Created at', msg: expect.any(String) }],
        });
      }
      const inCondition = await api(key).get('/companies.json', { 'conditions[company_created][from_date]': 'not a date' });
      expect(inCondition.status).toBe(422);
      expect(inCondition.body).toEqual([expect.objectContaining({ field: expect.stringContaining('company_created') })]);
    });
  });

  describe('lists', () => {
    let listAccount: TestAccount;
    let listKey: string;

    beforeAll(async () => {
      listAccount = await server.createAccount({ timeZone: 'America/New_York' });
      listKey = listAccount.admin.apiKey;
      // 101 companies in one statement (the clamp needs more than 100).
      await server.orm.em
        .fork()
        .getConnection()
        .execute(
          `insert into companies (account_id, owner_id, name, custom_fields, created_at, updated_at)
           select ?, ?, 'Co ' || lpad(g::text, 3, '0'), '{}', now(), now() from generate_series(1, 101) g`,
          [listAccount.accountId, listAccount.admin.id],
        );
    });

    it('the envelope is {entries, pagination {page, per_page, total, pages, page_var}}, pages an integer', async () => {
      const res = await api(listKey).get('/companies.json', { per_page: 7, page: 2 });
      expect(res.status).toBe(200);
      expectJson(res);
      expect(Object.keys(res.body)).toEqual(['entries', 'pagination']);
      expect(res.body.pagination).toStrictEqual({ page: 2, per_page: 7, total: 101, pages: 15, page_var: 'page' });
      expect(res.body.entries.map((c: any) => c.name)).toEqual(['Co 008', 'Co 009', 'Co 010', 'Co 011', 'Co 012', 'Co 013', 'Co 014']);
      expect(Object.keys(res.body.entries[0])).toEqual(v3KeysOf('company', COMPANY_KEYS));
      expect(res.body.entries[0].created_at).toMatch(/ -0[45]00$/);
    });

    it('pages is ceil(total / per_page): looping 1..pages visits every record exactly once', async () => {
      const first = await api(listKey).get('/companies.json', { per_page: 30 });
      expect(first.body.pagination).toEqual(expect.objectContaining({ total: 101, pages: 4 }));
      const seen: number[] = [];
      for (let page = 1; page <= first.body.pagination.pages; page++)
        seen.push(...(await api(listKey).get('/companies.json', { per_page: 30, page })).body.entries.map((c: any) => c.id));
      expect(seen).toHaveLength(101);
      expect(new Set(seen).size).toBe(101);
      const beyond = await api(listKey).get('/companies.json', { per_page: 30, page: 5 });
      expect(beyond.body).toEqual({ entries: [], pagination: { page: 5, per_page: 30, total: 101, pages: 4, page_var: 'page' } });
      const empty = await api((await server.createAccount()).admin.apiKey).get('/companies.json');
      expect(empty.body.pagination).toStrictEqual({ page: 1, per_page: 100, total: 0, pages: 1, page_var: 'page' });
    });

    it('per_page defaults to 100 and is clamped at 100, not rejected', async () => {
      const byDefault = await api(listKey).get('/companies.json');
      expect(byDefault.body.pagination).toEqual(expect.objectContaining({ page: 1, per_page: 100, pages: 2 }));
      expect(byDefault.body.entries).toHaveLength(100);
      for (const perPage of ['101', '500', '100000']) {
        const res = await api(listKey).get('/companies.json', { per_page: perPage });
        expect({ status: res.status, per_page: res.body.pagination.per_page, n: res.body.entries.length }).toEqual({ status: 200, per_page: 100, n: 100 });
      }
    });

    it('page < 1 or non-numeric is page 1; a bad per_page is the default', async () => {
      for (const page of ['0', '-3', 'abc', '', '1.5']) {
        const res = await api(listKey).get('/companies.json', { page, per_page: 10 });
        expect({ page, status: res.status, p: res.body.pagination.page, first: res.body.entries[0].name }).toEqual({
          page,
          status: 200,
          p: 1,
          first: 'Co 001',
        });
      }
      const res = await api(listKey).get('/companies.json', { per_page: 'lots' });
      expect(res.body.pagination.per_page).toBe(100);
    });

    it('attrs=a,b returns only those keys (nested objects whole); unknown names are ignored', async () => {
      const list = await api(listKey).get('/companies.json', { attrs: 'id,name,owner,no_such_attr', per_page: 2 });
      expect(list.status).toBe(200);
      expect(list.body.pagination).toEqual(expect.objectContaining({ per_page: 2, total: 101 }));
      for (const entry of list.body.entries) {
        expect(Object.keys(entry)).toEqual(['id', 'name', 'owner']);
        expect(Object.keys(entry.owner)).toEqual(['id', 'first_name', 'last_name', 'full_name']);
      }
      const id = list.body.entries[0].id;
      const show = await api(listKey).get(`/companies/${id}.json`, { attrs: 'id,custom_fields' });
      expect(show.body).toEqual({ id, custom_fields: {} });
      const update = await api(listKey).put(`/companies/${id}.json`, { company: { city: 'Attrs City' } }, { attrs: 'city' });
      expect(update.body).toEqual({ city: 'Attrs City' });
    });

    it('visibility: an own user lists only their records and gets the same 404 for the rest', async () => {
      const own = await listAccount.addUser({ visibility: Visibility.OWN });
      const mine = await create(own.apiKey, { name: 'Mine Only' });
      expect(mine.owner_id).toBe(own.id);
      const list = await api(own.apiKey).get('/companies.json', { per_page: 100 });
      expect(list.body.entries.map((c: any) => c.id)).toEqual([mine.id]);
      expect(list.body.pagination).toEqual(expect.objectContaining({ total: 1, pages: 1 }));
      const colleagues = (await api(listKey).get('/companies.json', { per_page: 1 })).body.entries[0];
      const missing = 2_147_483_000;
      for (const id of [colleagues.id, missing]) {
        const responses = [
          await api(own.apiKey).get(`/companies/${id}.json`),
          await api(own.apiKey).put(`/companies/${id}.json`, { company: { name: 'hijack' } }),
          await api(own.apiKey).del(`/companies/${id}.json`),
        ];
        for (const res of responses)
          expect({ status: res.status, text: res.text, type: res.headers.get('content-type') }).toEqual({ status: 404, text: '', type: JSON_UTF8 });
      }
      expect((await api(listKey).get(`/companies/${colleagues.id}.json`)).body.name).toBe(colleagues.name);
      // Another account's record is a 404 too, and absent from lists.
      const foreign = await create((await server.createAccount()).admin.apiKey, { name: 'Foreign' });
      expect((await api(listKey).get(`/companies/${foreign.id}.json`)).status).toBe(404);
      expect((await api(listKey).get('/companies.json', { 'conditions[company_id]': foreign.id })).body.entries).toEqual([]);
    });
  });
});
