import { seedCustomField } from '../support/custom-fields';
import { Visibility } from '../../src/modules/users/user.entity';
import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Companies end to end (v3 §2.6, §4.6): list conditions and sort, associations, nested people,
 * owners and the reassignment email, custom field values. The contract-level rules shared by
 * every resource are pinned in test/contract/.
 */

type Query = Record<string, string | number | boolean>;

describe('companies (v3 §4.6)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.close());

  const sql = <T = any>(text: string, params: unknown[] = []) => server.sql<T>(text, params);

  const api = (key: string) => server.v3(key);

  async function create(key: string, company: Record<string, unknown>): Promise<any> {
    const res = await api(key).post('/companies.json', { company });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number) }) });
    return res.body;
  }

  const names = (res: { body: any }) => res.body.entries.map((c: any) => c.name);

  describe('list conditions', () => {
    let account: TestAccount;
    let key: string;
    const byName: Record<string, any> = {};

    beforeAll(async () => {
      account = await server.createAccount({ timeZone: 'America/New_York' });
      key = account.admin.apiKey;
      const rows: Array<Record<string, unknown>> = [
        {
          name: 'Acme Anvils',
          email: 'sales@acme.test',
          city: 'Phoenix',
          state: 'AZ',
          postal_code: '85001',
          country: 'USA',
          address_1: '1 Desert Rd',
          address_2: 'Suite 5',
          phone2: '+1 602 555 0100',
          fax: '+1 602 555 0199',
          description: 'Anvils and rockets',
          created_at: '2014-05-01 10:00',
        },
        {
          name: 'acme rockets',
          email: 'info@rockets.test',
          city: 'phoenix',
          state: 'AZ',
          country: 'usa',
          phone1: '602-555-0101',
          created_at: '2014-05-31 23:30',
        },
        { name: 'Bolt & Nut', email: 'bolt@nut.test', city: 'Portland', state: 'OR', postal_code: '97201', country: 'USA', created_at: '2014-06-01 00:30' },
        { name: '100% Pure', city: 'Lyon', country: 'France', created_at: '2013-01-01' },
        { name: '1000 Lakes', city: 'Helsinki', country: 'Finland', created_at: '2015-01-01' },
        { name: 'The Acme Group', city: 'London', country: 'UK', created_at: '2014-05-15' },
      ];
      for (const row of rows) byName[row.name as string] = await create(key, row);
    });

    const list = (query: Query) => api(key).get('/companies.json', { per_page: 100, ...query });

    it('text conditions match exactly or by case-insensitive prefix, never mid-string', async () => {
      expect(names(await list({ 'conditions[company_name]': 'acme' }))).toEqual(['Acme Anvils', 'acme rockets']);
      expect(names(await list({ 'conditions[company_name]': 'Acme Anvils' }))).toEqual(['Acme Anvils']);
      expect(names(await list({ 'conditions[company_name]': 'Group' }))).toEqual([]);
      expect(names(await list({ 'conditions[company_city]': 'PHOENIX' }))).toEqual(['Acme Anvils', 'acme rockets']);
      expect(names(await list({ 'conditions[company_email]': 'bolt@' }))).toEqual(['Bolt & Nut']);
      expect(names(await list({ 'conditions[company_state]': 'or' }))).toEqual(['Bolt & Nut']);
      expect(names(await list({ 'conditions[company_zip]': '850' }))).toEqual(['Acme Anvils']);
      expect(names(await list({ 'conditions[company_country]': 'us' }))).toEqual(['Acme Anvils', 'acme rockets', 'Bolt & Nut']);
      expect(names(await list({ 'conditions[company_address]': '1 desert' }))).toEqual(['Acme Anvils']);
      expect(names(await list({ 'conditions[company_address2]': 'suite' }))).toEqual(['Acme Anvils']);
      expect(names(await list({ 'conditions[company_description]': 'anvils' }))).toEqual(['Acme Anvils']);
      expect(names(await list({ 'conditions[company_fax]': '+1 602' }))).toEqual(['Acme Anvils']);
      // Any of phone1..phone4.
      expect(names(await list({ 'conditions[company_phone]': '602' }))).toEqual(['acme rockets']);
      expect(names(await list({ 'conditions[company_phone]': '+1 602' }))).toEqual(['Acme Anvils']);
      // Several conditions are ANDed.
      expect(names(await list({ 'conditions[company_city]': 'phoenix', 'conditions[company_email]': 'info' }))).toEqual(['acme rockets']);
      // Blank conditions are no conditions.
      expect(names(await list({ 'conditions[company_name]': '' }))).toHaveLength(6);
      // Unknown conditions are ignored.
      expect(names(await list({ 'conditions[company_colour]': 'red' }))).toHaveLength(6);
    });

    it('wildcards in a condition match literally', async () => {
      expect(names(await list({ 'conditions[company_name]': '100%' }))).toEqual(['100% Pure']);
      expect(names(await list({ 'conditions[company_name]': '_' }))).toEqual([]);
      expect(names(await list({ 'conditions[company_name]': 'Bolt &' }))).toEqual(['Bolt & Nut']);
    });

    it('company_id takes one id, a comma-separated list or an array; also as a plain query parameter', async () => {
      const a = byName['Acme Anvils'].id;
      const b = byName['Bolt & Nut'].id;
      expect(names(await list({ 'conditions[company_id]': a }))).toEqual(['Acme Anvils']);
      expect(names(await list({ 'conditions[company_id]': `${a},${b}` }))).toEqual(['Acme Anvils', 'Bolt & Nut']);
      const arrayForm = await server.request('GET', `/api/v3/companies.json?conditions[company_id][]=${a}&conditions[company_id][]=${b}`, { apiKey: key });
      expect(names(arrayForm)).toEqual(['Acme Anvils', 'Bolt & Nut']);
      expect(names(await list({ company_id: b }))).toEqual(['Bolt & Nut']);
      const bad = await list({ 'conditions[company_id]': 'abc' });
      expect({ status: bad.status, body: bad.body }).toEqual({
        status: 422,
        body: [{ field: 'conditions[company_id]', humanized_field: expect.any(String), msg: expect.any(String) }],
      });
    });

    it('company_created is a range in the user zone: from_date and/or to_date, a date-only to_date includes that day', async () => {
      const may = { 'conditions[company_created][from_date]': '2014-05-01', 'conditions[company_created][to_date]': '2014-05-31' };
      expect(names(await list(may))).toEqual(['Acme Anvils', 'acme rockets', 'The Acme Group']);
      expect(names(await list({ 'conditions[company_created][from_date]': '2014-06-01' }))).toEqual(['1000 Lakes', 'Bolt & Nut']);
      expect(names(await list({ 'conditions[company_created][to_date]': '2013-12-31' }))).toEqual(['100% Pure']);
      // v3 output form with offset as a bound: 2014/06/01 00:30 New York is 04:30 UTC.
      expect(
        names(
          await list({
            'conditions[company_created][from_date]': '2014/06/01 04:00:00 +0000',
            'conditions[company_created][to_date]': '2014/06/01 05:00:00 +0000',
          }),
        ),
      ).toEqual(['Bolt & Nut']);
      const modified = await list({ 'conditions[company_modified][from_date]': '2000-01-01' });
      expect(names(modified)).toHaveLength(6);
    });

    it('sorts by a whitelisted column, bare or table-qualified, `-` for descending; an unknown sort is a 422 naming sort', async () => {
      expect(names(await list({ sort: 'name' }))).toEqual(['100% Pure', '1000 Lakes', 'Acme Anvils', 'acme rockets', 'Bolt & Nut', 'The Acme Group']);
      expect(names(await list({ sort: '-companies.created_at' }))).toEqual([
        '1000 Lakes',
        'Bolt & Nut',
        'acme rockets',
        'The Acme Group',
        'Acme Anvils',
        '100% Pure',
      ]);
      expect(names(await list({ sort: 'created_at' }))[0]).toBe('100% Pure');
      // Finland/Helsinki and France/Lyon: by city the order is the reverse of the default (name).
      expect(names(await list({ 'conditions[company_country]': 'f' }))).toEqual(['100% Pure', '1000 Lakes']);
      expect(names(await list({ sort: 'city', 'conditions[company_country]': 'f' }))).toEqual(['1000 Lakes', '100% Pure']);
      expect(names(await list({ sort: '-name', 'conditions[company_country]': 'f' }))).toEqual(['1000 Lakes', '100% Pure']);
      for (const sort of ['password', 'people.last_name', 'name; drop table companies']) {
        const res = await list({ sort });
        expect({ sort, status: res.status, body: res.body }).toEqual({
          sort,
          status: 422,
          body: [{ field: 'sort', humanized_field: 'Sort', msg: expect.any(String) }],
        });
      }
      // Default order: name.
      expect(names(await list({}))[0]).toBe('100% Pure');
    });
  });

  describe('show', () => {
    it('associations=people includes the company’s people the viewer may see; unknown names are ignored', async () => {
      const account = await server.createAccount();
      const key = account.admin.apiKey;
      const own = await account.addUser({ visibility: Visibility.OWN });
      const company = await create(key, { name: 'With People', owner_id: own.id });
      const person = async (apiKey: string, lastName: string) => {
        const res = await server.graphql(apiKey, 'mutation ($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } } }', {
          input: { firstName: 'P', lastName, companyId: company.id },
        });
        expect(res.body.errors).toBeUndefined();
        return res.body.data.createPerson.person.databaseId as number;
      };
      const mine = await person(own.apiKey, 'Mine');
      const admins = await person(key, 'Admins');
      const plain = await api(key).get(`/companies/${company.id}.json`);
      expect(plain.body.people).toBeUndefined();
      const withPeople = await api(key).get(`/companies/${company.id}.json`, { associations: 'people,nonsense' });
      expect(withPeople.status).toBe(200);
      expect(withPeople.body.people).toEqual(
        expect.arrayContaining([
          { id: mine, first_name: 'P', last_name: 'Mine', full_name: 'P Mine' },
          { id: admins, first_name: 'P', last_name: 'Admins', full_name: 'P Admins' },
        ]),
      );
      const ownView = await api(own.apiKey).get(`/companies/${company.id}.json`, { associations: 'people' });
      expect(ownView.body.people.map((p: any) => p.id)).toEqual([mine]);
      const unknownOnly = await api(key).get(`/companies/${company.id}.json`, { associations: 'deals' });
      expect({ status: unknownOnly.status, people: unknownOnly.body.people }).toEqual({ status: 200, people: undefined });

      // GET /companies/:id/people.json: the same people in the list envelope; a company the viewer cannot see is a 404.
      const nested = await api(key).get(`/companies/${company.id}/people.json`);
      expect(nested.status).toBe(200);
      expect(nested.body.entries.map((p: any) => p.id).sort()).toEqual([mine, admins].sort());
      expect(nested.body.pagination).toEqual(expect.objectContaining({ total: 2, pages: 1, page_var: 'page' }));
      const other = await create(key, { name: 'Not Yours' });
      const hidden = await api(own.apiKey).get(`/companies/${other.id}/people.json`);
      expect({ status: hidden.status, text: hidden.text }).toEqual({ status: 404, text: '' });
    });
  });

  describe('owners', () => {
    it('owner_id defaults to the creator, may be another user, and null clears it', async () => {
      const account = await server.createAccount();
      const key = account.admin.apiKey;
      const other = await account.addUser({ firstName: 'Olga', lastName: 'Owner' });
      const mine = await create(key, { name: 'Default Owner' });
      expect(mine.owner_id).toBe(account.admin.id);
      const theirs = await create(key, { name: 'Their Company', owner_id: other.id });
      expect(theirs.owner).toEqual({ id: other.id, first_name: 'Olga', last_name: 'Owner', full_name: 'Olga Owner' });
      const cleared = await api(key).put(`/companies/${theirs.id}.json`, { company: { owner_id: null } });
      expect(cleared.body).toEqual(expect.objectContaining({ owner_id: null, owner: null }));
      const missing = await api(key).put(`/companies/${theirs.id}.json`, { company: { owner_id: 2_147_483_000 } });
      expect({ status: missing.status, body: missing.body }).toEqual({
        status: 422,
        body: [{ field: 'owner_id', humanized_field: 'Owner', msg: expect.any(String) }],
      });
    });

    it('a changed owner gets a reassignment email unless deliver_reassignment_email is false (v3 §4.6)', async () => {
      const account = await server.createAccount();
      const key = account.admin.apiKey;
      const olga = await account.addUser({ firstName: 'Olga' });
      const petra = await account.addUser({ firstName: 'Petra' });
      const company = await create(key, { name: 'Reassigned' });
      const mails = () =>
        sql<{ recipient_id: number; kind: string; subject_id: number }>(
          'select recipient_id, kind, subject_id from outbox_messages where account_id = ? order by id',
          [account.accountId],
        );

      expect((await api(key).put(`/companies/${company.id}.json`, { company: { owner_id: olga.id } })).status).toBe(200);
      expect(await mails()).toEqual([{ recipient_id: olga.id, kind: 'company_reassignment', subject_id: company.id }]);

      // Same owner again, or other attributes: no email.
      await api(key).put(`/companies/${company.id}.json`, { company: { owner_id: olga.id, city: 'Kyiv' } });
      expect(await mails()).toHaveLength(1);

      // The flag off, in the query string, the JSON body or a form body.
      await api(key).put(`/companies/${company.id}.json`, { company: { owner_id: petra.id } }, { deliver_reassignment_email: 'false' });
      await api(key).put(`/companies/${company.id}.json`, { company: { owner_id: olga.id }, deliver_reassignment_email: false });
      await server.request('PUT', `/api/v3/companies/${company.id}.json`, {
        apiKey: key,
        body: formEncode({ company: { owner_id: petra.id }, deliver_reassignment_email: 0 }),
      });
      expect(await mails()).toHaveLength(1);
      expect((await api(key).get(`/companies/${company.id}.json`)).body.owner_id).toBe(petra.id);

      // Taking a company yourself sends nothing to yourself.
      await api(key).put(`/companies/${company.id}.json`, { company: { owner_id: account.admin.id } });
      expect(await mails()).toHaveLength(1);
      // A failed update records no email.
      await api(key).put(`/companies/${company.id}.json`, { company: { owner_id: olga.id, name: '' } });
      expect(await mails()).toHaveLength(1);
    });
  });

  describe('custom fields', () => {
    let account: TestAccount;
    let key: string;
    let f: { text: number; number: number; date: number; dropdown: number; multi: number; other: number };
    let tier: number[];
    let regions: number[];

    beforeAll(async () => {
      account = await server.createAccount();
      key = account.admin.apiKey;
      const def = (kind: Parameters<typeof seedCustomField>[3], name: string, entries: string[] = [], resource: 'company' | 'person' = 'company') =>
        seedCustomField(server, account.accountId, resource, kind, name, entries);
      const defs = {
        text: await def('text', 'Motto'),
        number: await def('numeric', 'Headcount'),
        date: await def('date', 'Founded'),
        dropdown: await def('dropdown', 'Tier', ['Gold', 'Silver']),
        multi: await def('multi_select', 'Regions', ['EU', 'US']),
        other: await def('text', 'A person field', [], 'person'),
      };
      tier = defs.dropdown.entries;
      regions = defs.multi.entries;
      f = Object.fromEntries(Object.entries(defs).map(([k, d]) => [k, d.id])) as typeof f;
    });

    const l = (id: number) => `custom_label_${id}`;

    it('every company label is present (null or [] when unset); other resources’ labels are not', async () => {
      const company = await create(key, { name: 'Blank Fields' });
      expect(company.custom_fields).toStrictEqual({ [l(f.text)]: null, [l(f.number)]: null, [l(f.date)]: null, [l(f.dropdown)]: null, [l(f.multi)]: [] });
    });

    it('values come back typed: text string, numeric a decimal string, date YYYY/MM/DD, dropdown id, multi-select ids', async () => {
      const company = await create(key, {
        name: 'Typed Fields',
        custom_fields: {
          [l(f.text)]: 'Onward',
          [l(f.number)]: '12.5',
          [l(f.date)]: '2010/10/09',
          [l(f.dropdown)]: String(tier[0]),
          [l(f.multi)]: [String(regions[1]), String(regions[0]), String(regions[1])],
          [l(f.other)]: 'ignored',
        },
      });
      expect(company.custom_fields).toStrictEqual({
        [l(f.text)]: 'Onward',
        [l(f.number)]: '12.5',
        [l(f.date)]: '2010/10/09',
        [l(f.dropdown)]: tier[0],
        [l(f.multi)]: [regions[1], regions[0]],
      });
      // A partial update touches only the labels it names.
      const res = await api(key).put(`/companies/${company.id}.json`, { company: { custom_fields: { [l(f.number)]: 13 } } });
      expect(res.body.custom_fields).toStrictEqual({ ...company.custom_fields, [l(f.number)]: '13.0' });
    });

    it('a bad value is a 422 naming the custom label', async () => {
      const cases: Array<[number, unknown]> = [
        [f.dropdown, 2_000_000_000],
        [f.multi, [regions[0], 2_000_000_000]],
        [f.number, 'many'],
        [f.date, '2010-02-30'],
      ];
      for (const [id, value] of cases) {
        const res = await api(key).post('/companies.json', { company: { name: 'Bad Field', custom_fields: { [l(id)]: value } } });
        // The facade's coercion names `custom_fields[custom_label_N]`, the core's check `custom_label_N`.
        expect({ value, status: res.status, body: res.body }).toEqual({
          value,
          status: 422,
          body: [{ field: expect.stringContaining(l(id)), humanized_field: expect.any(String), msg: expect.any(String) }],
        });
      }
    });
  });

  describe('text', () => {
    it('keeps unicode, strips NUL and imports created_at/updated_at on create', async () => {
      const account = await server.createAccount({ timeZone: 'Europe/Berlin' });
      const key = account.admin.apiKey;
      const company = await create(key, {
        name: 'Zürich Straße 東京 🚀',
        description: 'a\u0000b',
        created_at: '2010-01-02 03:04:05',
        updated_at: '2011-02-03 04:05:06',
      });
      expect(company).toEqual(
        expect.objectContaining({
          name: 'Zürich Straße 東京 🚀',
          description: 'ab',
          created_at: '2010/01/02 03:04:05 +0100',
          updated_at: '2011/02/03 04:05:06 +0100',
        }),
      );
      // On update, updated_at is the time of the update, whatever is sent.
      const updated = await api(key).put(`/companies/${company.id}.json`, { company: { updated_at: '2000-01-01', city: 'Bern' } });
      expect(updated.body.updated_at).not.toBe('2000/01/01 00:00:00 +0100');
      expect(updated.body.updated_at.slice(0, 4)).not.toBe('2011');
    });

    it('a deleted company’s people stay, without the company', async () => {
      const account = await server.createAccount();
      const key = account.admin.apiKey;
      const company = await create(key, { name: 'Going Away' });
      const res = await server.graphql(key, 'mutation ($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } } }', {
        input: { lastName: 'Stays', companyId: company.id },
      });
      const personId = res.body.data.createPerson.person.databaseId;
      expect((await api(key).del(`/companies/${company.id}.json`)).status).toBe(200);
      const person = await api(key).get(`/people/${personId}.json`);
      expect(person.status).toBe(200);
      expect(person.body.company_id).toBeNull();
    });
  });
});
