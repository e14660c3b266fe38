import { CUSTOM_FIELD_ROUTES } from '../../rest-facade/routes/custom-fields.routes';
import { FIXTURES, routePath } from '../support/fixtures';
import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Custom field definitions as an admin surface (issue 11 §1; DECISIONS: Admin surface): the
 * per-resource label routes, the generic `/admin/custom_field_labels` (`conditions[type]`), groups
 * and dropdown entries (`conditions[custom_field_label_id]`), over v3 and GraphQL; admin-only
 * writes; deleting a label or an entry clears the values that used it; a label's kind changes only
 * while no record has a value for it.
 */

const LABEL_KEYS = [
  'id',
  'name',
  'field_type',
  'output_type',
  'is_required',
  'position',
  'type',
  'custom_field_group_id',
  'custom_field_label_dropdown_entries',
  'created_at',
  'updated_at',
];
const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;

let serial = 0;
const unique = (what: string) => `${what} ${process.pid}-${++serial}`;

describe('custom field labels, groups and entries (admin surface)', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let member: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'Europe/Paris' });
    admin = account.admin.apiKey;
    member = (await account.addUser({ isAdmin: false })).apiKey;
  }, 60_000);
  afterAll(() => server.close());

  const v3 = (key: string) => server.v3(key);

  async function createLabel(path: string, attrs: Record<string, unknown>, root = path.replace(/s$/, '')): Promise<any> {
    const res = await v3(admin).post(`/admin/${path}.json`, { [root]: attrs });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number) }) });
    return res.body;
  }

  async function createEntry(labelId: number, name: string): Promise<any> {
    const res = await v3(admin).post('/admin/custom_field_label_dropdown_entries.json', {
      custom_field_label_dropdown_entry: { name, custom_field_label_id: labelId },
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number), name }) });
    return res.body;
  }

  describe.each([
    ['deal_custom_field_labels', 'deal_custom_field_label', 'DealCustomFieldLabel'],
    ['person_custom_field_labels', 'person_custom_field_label', 'PersonCustomFieldLabel'],
    ['company_custom_field_labels', 'company_custom_field_label', 'CompanyCustomFieldLabel'],
  ])('/admin/%s', (path, root, type) => {
    it('creates, lists, shows, updates and deletes a label, in the shape DECISIONS records', async () => {
      const name = unique('Budget');
      const created = await createLabel(path, { name, field_type: 'numeric' }, root);
      expect(Object.keys(created)).toEqual(LABEL_KEYS);
      expect(created).toEqual({
        id: expect.any(Number),
        name,
        field_type: 'numeric',
        output_type: 'numeric',
        is_required: false,
        position: expect.any(Number),
        type,
        custom_field_group_id: null,
        custom_field_label_dropdown_entries: [],
        created_at: expect.stringMatching(V3_DATETIME),
        updated_at: expect.stringMatching(V3_DATETIME),
      });

      const list = await v3(member).get(`/admin/${path}.json`);
      expect(list.status).toBe(200);
      expect(list.body.pagination).toEqual(expect.objectContaining({ page: 1, per_page: 200, page_var: 'page' }));
      expect(list.body.entries).toContainEqual(created);
      expect(list.body.entries.every((e: { type: string }) => e.type === type)).toBe(true);
      expect((await v3(member).get(`/admin/${path}/${created.id}.json`)).body).toEqual(created);

      const updated = await v3(admin).put(`/admin/${path}/${created.id}.json`, {
        [root]: { name: `${name} 2`, is_required: true, position: 42, field_type: 'currency' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({
        ...created,
        name: `${name} 2`,
        is_required: true,
        position: 42,
        field_type: 'currency',
        output_type: 'currency',
        updated_at: expect.stringMatching(V3_DATETIME),
      });

      const deleted = await v3(admin).del(`/admin/${path}/${created.id}.json`);
      expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 200, text: '' });
      expect((await v3(admin).get(`/admin/${path}/${created.id}.json`)).status).toBe(404);
    });

    it('is writable by admins only: another user reads it and gets 403 {"error"} on writes, which change nothing', async () => {
      const created = await createLabel(path, { name: unique('Locked'), field_type: 'text' }, root);
      const attempts = [
        await v3(member).post(`/admin/${path}.json`, { [root]: { name: unique('Nope'), field_type: 'text' } }),
        await v3(member).put(`/admin/${path}/${created.id}.json`, { [root]: { name: 'Hijacked' } }),
        await v3(member).del(`/admin/${path}/${created.id}.json`),
      ];
      for (const res of attempts) expect({ status: res.status, error: typeof res.body?.error }).toEqual({ status: 403, error: 'string' });
      expect((await v3(member).get(`/admin/${path}/${created.id}.json`)).body).toEqual(created);
    });
  });

  it('every custom field route: readable by any user of the account, written by admins only (403 {"error"}, nothing changed)', async () => {
    expect(CUSTOM_FIELD_ROUTES.map((r) => `${r.method} ${r.path}`)).toHaveLength(30);
    for (const route of CUSTOM_FIELD_ROUTES) {
      const fixture = FIXTURES[route.resource.root];
      const id = await fixture.create(server, admin);
      const path = routePath(route, id);
      const body = route.kind === 'create' || route.kind === 'update' ? { [route.resource.root]: fixture.v3Attrs!() } : undefined;
      const show = CUSTOM_FIELD_ROUTES.find((r) => r.kind === 'show' && r.resource === route.resource)!;
      const before = (await server.request('GET', routePath(show, id), { apiKey: member })).body;
      const res = await server.request(route.method, path, { apiKey: member, body });
      const label = `${route.method} ${route.path}`;
      if (route.kind === 'list' || route.kind === 'show') {
        expect({ label, status: res.status }).toEqual({ label, status: 200 });
        if (route.kind === 'list') expect(res.body.entries.map((e: { id: number }) => e.id)).toContain(id);
        else expect(res.body).toEqual(before);
      } else {
        expect({ label, status: res.status, error: typeof res.body?.error }).toEqual({ label, status: 403, error: 'string' });
        expect((await server.request('GET', routePath(show, id), { apiKey: member })).body).toEqual(before);
      }
      // The admin's own write through the same route succeeds.
      const own = await server.request(route.method, path, { apiKey: admin, body: body && { [route.resource.root]: fixture.v3Attrs!() } });
      expect({ label, status: own.status }).toEqual({ label, status: 200 });
    }
  });

  it("a per-resource route fixes its resource: type in the body is ignored; another resource's label is answered 404", async () => {
    const label = await createLabel(
      'deal_custom_field_labels',
      { name: unique('Fixed'), field_type: 'text', type: 'PersonCustomFieldLabel' },
      'deal_custom_field_label',
    );
    expect(label.type).toBe('DealCustomFieldLabel');
    for (const other of ['person_custom_field_labels', 'company_custom_field_labels']) {
      expect((await v3(admin).get(`/admin/${other}/${label.id}.json`)).status).toBe(404);
      expect((await v3(admin).put(`/admin/${other}/${label.id}.json`, { [other.replace(/s$/, '')]: { name: 'Moved' } })).status).toBe(404);
      expect((await v3(admin).del(`/admin/${other}/${label.id}.json`)).status).toBe(404);
    }
    // Changing `type` on update is ignored: a label stays with its records.
    const put = await v3(admin).put(`/admin/custom_field_labels/${label.id}.json`, { custom_field_label: { type: 'CompanyCustomFieldLabel' } });
    expect(put.body.type).toBe('DealCustomFieldLabel');
  });

  it('the generic /admin/custom_field_labels lists every resource with its type; conditions[type] narrows it; create needs type', async () => {
    const deal = await createLabel(
      'custom_field_labels',
      { name: unique('Generic deal'), field_type: 'date', type: 'DealCustomFieldLabel' },
      'custom_field_label',
    );
    const person = await createLabel(
      'custom_field_labels',
      { name: unique('Generic person'), field_type: 'boolean', type: 'PersonCustomFieldLabel' },
      'custom_field_label',
    );
    const company = await createLabel(
      'custom_field_labels',
      { name: unique('Generic company'), field_type: 'multi_select', type: 'CompanyCustomFieldLabel' },
      'custom_field_label',
    );
    expect([deal.type, person.type, company.type]).toEqual(['DealCustomFieldLabel', 'PersonCustomFieldLabel', 'CompanyCustomFieldLabel']);
    expect((await v3(admin).get(`/admin/person_custom_field_labels/${person.id}.json`)).body).toEqual(person);

    const all = (await v3(member).get('/admin/custom_field_labels.json')).body.entries.map((e: { id: number }) => e.id);
    expect(all).toEqual(expect.arrayContaining([deal.id, person.id, company.id]));
    const narrowed = await v3(member).get('/admin/custom_field_labels.json', { 'conditions[type]': 'PersonCustomFieldLabel' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.entries.map((e: { id: number }) => e.id)).toContain(person.id);
    expect(narrowed.body.entries.every((e: { type: string }) => e.type === 'PersonCustomFieldLabel')).toBe(true);
    expect(narrowed.body.pagination.total).toBe(narrowed.body.entries.length);
    const bad = await v3(member).get('/admin/custom_field_labels.json', { 'conditions[type]': 'NoteCustomFieldLabel' });
    expect({ status: bad.status, field: bad.body[0]?.field }).toEqual({ status: 422, field: 'conditions[type]' });

    const noType = await v3(admin).post('/admin/custom_field_labels.json', { custom_field_label: { name: unique('Typeless'), field_type: 'text' } });
    expect({ status: noType.status, body: noType.body }).toEqual({ status: 422, body: [{ field: 'type', humanized_field: 'Type', msg: "can't be blank" }] });
  });

  it('refuses bad definitions with a 422 naming the v3 field, writing nothing', async () => {
    const count = async () => Number((await server.sql('select count(*) as n from custom_fields where account_id = ?', [account.accountId]))[0].n);
    const before = await count();
    const taken = await createLabel('deal_custom_field_labels', { name: unique('Taken'), field_type: 'text' }, 'deal_custom_field_label');
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: '   ', field_type: 'text' }, 'name', /^can't be blank$/],
      [{ name: 'x'.repeat(101), field_type: 'text' }, 'name', /too long \(maximum is 100 characters\)/],
      [{ name: taken.name.toUpperCase(), field_type: 'text' }, 'name', /already been taken/],
      [{ name: unique('No kind') }, 'field_type', /^can't be blank$/],
      [{ name: unique('Bad kind'), field_type: 'colour' }, 'field_type', /must be one of/],
      [{ name: unique('Bad position'), field_type: 'text', position: -1 }, 'position', /greater than or equal to 0/],
      [{ name: unique('Bad group'), field_type: 'text', custom_field_group_id: 2_000_000_000 }, 'custom_field_group_id', /does not exist/],
    ];
    for (const [attrs, field, msg] of cases) {
      const res = await v3(admin).post('/admin/deal_custom_field_labels.json', { deal_custom_field_label: attrs });
      expect({ attrs, status: res.status, field: res.body?.[0]?.field }).toEqual({ attrs, status: 422, field });
      expect(res.body[0].msg).toMatch(msg);
    }
    expect(await count()).toBe(before + 1);
  });

  it('takes form bodies like JSON', async () => {
    const name = unique('Form label');
    const res = await server.request('POST', '/api/v3/admin/company_custom_field_labels.json', {
      apiKey: admin,
      body: formEncode({ company_custom_field_label: { name, field_type: 'dropdown', is_required: '1', position: '3' } }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ name, field_type: 'dropdown', is_required: true, position: 3, type: 'CompanyCustomFieldLabel' }));
    // A required company field would refuse the other tests' companies.
    expect((await v3(admin).del(`/admin/company_custom_field_labels/${res.body.id}.json`)).status).toBe(200);
  });

  it('groups: created with a type, narrowed by conditions[type]; labels join groups of their own resource; deleting a group ungroups them', async () => {
    const groupRes = await v3(admin).post('/admin/custom_field_groups.json', { custom_field_group: { name: unique('Finance'), type: 'DealCustomFieldGroup' } });
    expect(groupRes.status).toBe(200);
    const group = groupRes.body;
    expect(group).toEqual({
      id: expect.any(Number),
      name: expect.stringMatching(/^Finance/),
      position: expect.any(Number),
      type: 'DealCustomFieldGroup',
      created_at: expect.stringMatching(V3_DATETIME),
      updated_at: expect.stringMatching(V3_DATETIME),
    });
    const personGroup = (
      await v3(admin).post('/admin/custom_field_groups.json', { custom_field_group: { name: unique('Personal'), type: 'PersonCustomFieldGroup' } })
    ).body;
    const noType = await v3(admin).post('/admin/custom_field_groups.json', { custom_field_group: { name: unique('Typeless') } });
    expect({ status: noType.status, field: noType.body[0].field }).toEqual({ status: 422, field: 'type' });
    expect(
      (await v3(member).post('/admin/custom_field_groups.json', { custom_field_group: { name: unique('Nope'), type: 'DealCustomFieldGroup' } })).status,
    ).toBe(403);

    const deals = await v3(member).get('/admin/custom_field_groups.json', { 'conditions[type]': 'DealCustomFieldGroup' });
    const ids = deals.body.entries.map((e: { id: number }) => e.id);
    expect(ids).toContain(group.id);
    expect(ids).not.toContain(personGroup.id);
    expect((await v3(member).get(`/admin/custom_field_groups/${group.id}.json`)).body).toEqual(group);
    const renamed = await v3(admin).put(`/admin/custom_field_groups/${group.id}.json`, { custom_field_group: { name: unique('Money'), position: 5 } });
    expect(renamed.body).toEqual(expect.objectContaining({ id: group.id, position: 5, type: 'DealCustomFieldGroup' }));

    const label = await createLabel(
      'deal_custom_field_labels',
      { name: unique('Grouped'), field_type: 'currency', custom_field_group_id: group.id },
      'deal_custom_field_label',
    );
    expect(label.custom_field_group_id).toBe(group.id);
    const wrong = await v3(admin).put(`/admin/deal_custom_field_labels/${label.id}.json`, {
      deal_custom_field_label: { custom_field_group_id: personGroup.id },
    });
    expect({ status: wrong.status, field: wrong.body[0].field, msg: wrong.body[0].msg }).toEqual({
      status: 422,
      field: 'custom_field_group_id',
      msg: expect.stringMatching(/group of person fields/),
    });

    expect((await v3(admin).del(`/admin/custom_field_groups/${group.id}.json`)).status).toBe(200);
    expect((await v3(admin).get(`/admin/deal_custom_field_labels/${label.id}.json`)).body.custom_field_group_id).toBeNull();
  });

  it('dropdown entries: created on dropdown and multi-select labels only, shown in their label, narrowed by conditions[custom_field_label_id]', async () => {
    const tier = await createLabel('deal_custom_field_labels', { name: unique('Tier'), field_type: 'dropdown' }, 'deal_custom_field_label');
    const other = await createLabel('deal_custom_field_labels', { name: unique('Region'), field_type: 'multi_select' }, 'deal_custom_field_label');
    const gold = await createEntry(tier.id, 'Gold');
    const silver = await createEntry(tier.id, 'Silver');
    const eu = await createEntry(other.id, 'EU');
    expect(gold).toEqual({
      id: expect.any(Number),
      name: 'Gold',
      position: 0,
      custom_field_label_id: tier.id,
      created_at: expect.stringMatching(V3_DATETIME),
      updated_at: expect.stringMatching(V3_DATETIME),
    });
    expect(silver.position).toBe(1);

    const shown = await v3(member).get(`/admin/deal_custom_field_labels/${tier.id}.json`);
    expect(shown.body.custom_field_label_dropdown_entries).toEqual([
      { id: gold.id, name: 'Gold', position: 0 },
      { id: silver.id, name: 'Silver', position: 1 },
    ]);

    const narrowed = await v3(member).get('/admin/custom_field_label_dropdown_entries.json', { 'conditions[custom_field_label_id]': tier.id });
    expect(narrowed.body.entries.map((e: { id: number }) => e.id)).toEqual([gold.id, silver.id]);
    expect(narrowed.body.pagination.total).toBe(2);
    const plain = await v3(member).get('/admin/custom_field_label_dropdown_entries.json', { custom_field_label_id: other.id });
    expect(plain.body.entries.map((e: { id: number }) => e.id)).toEqual([eu.id]);
    expect((await v3(member).get(`/admin/custom_field_label_dropdown_entries/${gold.id}.json`)).body).toEqual(gold);

    const renamed = await v3(admin).put(`/admin/custom_field_label_dropdown_entries/${gold.id}.json`, {
      custom_field_label_dropdown_entry: { ...gold, name: 'Golden', position: 4 },
    });
    expect(renamed.body).toEqual({ ...gold, name: 'Golden', position: 4, updated_at: expect.stringMatching(V3_DATETIME) });

    const text = await createLabel('deal_custom_field_labels', { name: unique('Plain'), field_type: 'text' }, 'deal_custom_field_label');
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: 'Nope', custom_field_label_id: text.id }, 'custom_field_label_id', /only dropdown and multi-select fields have entries/],
      [{ name: 'Nope' }, 'custom_field_label_id', /^can't be blank$/],
      [{ name: 'Nope', custom_field_label_id: 2_000_000_000 }, 'custom_field_label_id', /does not exist/],
      [{ name: 'silver', custom_field_label_id: tier.id }, 'name', /already been taken/],
      [{ name: '', custom_field_label_id: tier.id }, 'name', /^can't be blank$/],
    ];
    for (const [attrs, field, msg] of cases) {
      const res = await v3(admin).post('/admin/custom_field_label_dropdown_entries.json', { custom_field_label_dropdown_entry: attrs });
      expect({ attrs, status: res.status, field: res.body?.[0]?.field }).toEqual({ attrs, status: 422, field });
      expect(res.body[0].msg).toMatch(msg);
    }
    const move = await v3(admin).put(`/admin/custom_field_label_dropdown_entries/${silver.id}.json`, {
      custom_field_label_dropdown_entry: { custom_field_label_id: other.id },
    });
    expect({ status: move.status, field: move.body[0].field }).toEqual({ status: 422, field: 'custom_field_label_id' });
    for (const res of [
      await v3(member).post('/admin/custom_field_label_dropdown_entries.json', {
        custom_field_label_dropdown_entry: { name: 'Member', custom_field_label_id: tier.id },
      }),
      await v3(member).put(`/admin/custom_field_label_dropdown_entries/${silver.id}.json`, { custom_field_label_dropdown_entry: { name: 'Member' } }),
      await v3(member).del(`/admin/custom_field_label_dropdown_entries/${silver.id}.json`),
    ]) {
      expect({ status: res.status, error: typeof res.body?.error }).toEqual({ status: 403, error: 'string' });
    }
  });

  it('deleting an entry removes it from every record: a dropdown loses its value, a multi-select keeps the others', async () => {
    const tier = await createLabel('deal_custom_field_labels', { name: unique('Tier'), field_type: 'dropdown' }, 'deal_custom_field_label');
    const tags = await createLabel('deal_custom_field_labels', { name: unique('Tags'), field_type: 'multi_select' }, 'deal_custom_field_label');
    const [gold, silver] = [await createEntry(tier.id, 'Gold'), await createEntry(tier.id, 'Silver')];
    const [a, b, c] = [await createEntry(tags.id, 'A'), await createEntry(tags.id, 'B'), await createEntry(tags.id, 'C')];
    const keyT = `custom_label_${tier.id}`;
    const keyM = `custom_label_${tags.id}`;
    const one = (await v3(admin).post('/deals.json', { deal: { name: 'One', custom_fields: { [keyT]: silver.id, [keyM]: [c.id, b.id, a.id] } } })).body;
    const two = (await v3(admin).post('/deals.json', { deal: { name: 'Two', custom_fields: { [keyT]: gold.id, [keyM]: [b.id] } } })).body;
    expect(one.custom_fields).toEqual(expect.objectContaining({ [keyT]: silver.id, [keyM]: [c.id, b.id, a.id] }));

    expect((await v3(admin).del(`/admin/custom_field_label_dropdown_entries/${silver.id}.json`)).status).toBe(200);
    expect((await v3(admin).del(`/admin/custom_field_label_dropdown_entries/${b.id}.json`)).status).toBe(200);
    expect((await v3(admin).get(`/deals/${one.id}.json`)).body.custom_fields).toEqual(expect.objectContaining({ [keyT]: null, [keyM]: [c.id, a.id] }));
    expect((await v3(admin).get(`/deals/${two.id}.json`)).body.custom_fields).toEqual(expect.objectContaining({ [keyT]: gold.id, [keyM]: [] }));
    // Stored as no value, not as a dangling id.
    const [row] = await server.sql('select custom_fields from deals where id = ?', [one.id]);
    expect(row.custom_fields).toEqual({ [keyM]: [c.id, a.id] });
    expect((await v3(admin).get(`/admin/deal_custom_field_labels/${tier.id}.json`)).body.custom_field_label_dropdown_entries).toEqual([
      { id: gold.id, name: 'Gold', position: 0 },
    ]);
  });

  it('deleting a label removes its key from every record of its resource, in the same request', async () => {
    const doomed = await createLabel('person_custom_field_labels', { name: unique('Doomed'), field_type: 'text' }, 'person_custom_field_label');
    const kept = await createLabel('person_custom_field_labels', { name: unique('Kept'), field_type: 'text' }, 'person_custom_field_label');
    const dk = `custom_label_${doomed.id}`;
    const kk = `custom_label_${kept.id}`;
    const people = [];
    for (const last of ['Alpha', 'Beta'])
      people.push((await v3(admin).post('/people.json', { person: { last_name: last, custom_fields: { [dk]: `gone ${last}`, [kk]: `stays ${last}` } } })).body);
    expect(people[0].custom_fields).toEqual(expect.objectContaining({ [dk]: 'gone Alpha', [kk]: 'stays Alpha' }));
    expect((await v3(admin).del(`/admin/person_custom_field_labels/${doomed.id}.json`)).status).toBe(200);
    const rows = await server.sql('select custom_fields from people where id = any(?::int[]) order by id', [`{${people.map((p) => p.id).join(',')}}`]);
    expect(rows.map((r) => r.custom_fields)).toEqual([{ [kk]: 'stays Alpha' }, { [kk]: 'stays Beta' }]);
    const shown = (await v3(admin).get(`/people/${people[1].id}.json`)).body.custom_fields;
    expect(shown).not.toHaveProperty(dk);
    expect(shown[kk]).toBe('stays Beta');
    // Its entries went with it (a dropdown's).
    const drop = await createLabel('person_custom_field_labels', { name: unique('Drop'), field_type: 'dropdown' }, 'person_custom_field_label');
    const entry = await createEntry(drop.id, 'Only');
    await v3(admin).del(`/admin/person_custom_field_labels/${drop.id}.json`);
    expect((await v3(admin).get(`/admin/custom_field_label_dropdown_entries/${entry.id}.json`)).status).toBe(404);
  });

  it("refuses to change a label's kind while a record has a value for it, and says so; allows it once the values are gone", async () => {
    const label = await createLabel('company_custom_field_labels', { name: unique('Headcount'), field_type: 'text' }, 'company_custom_field_label');
    const key = `custom_label_${label.id}`;
    // Without values the kind may change (and back).
    expect(
      (await v3(admin).put(`/admin/company_custom_field_labels/${label.id}.json`, { company_custom_field_label: { field_type: 'numeric' } })).body.field_type,
    ).toBe('numeric');
    const created = await v3(admin).post('/companies.json', { company: { name: 'Valued', custom_fields: { [key]: 12 } } });
    expect(created.status).toBe(200);
    const company = created.body;
    const refused = await v3(admin).put(`/admin/company_custom_field_labels/${label.id}.json`, {
      company_custom_field_label: { field_type: 'text', name: unique('Renamed') },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual([
      {
        field: 'field_type',
        humanized_field: 'Field type',
        msg: expect.stringMatching(/can't be changed from numeric to text while records have a value for the field ".*Headcount.*": clear those values first/),
      },
    ]);
    expect((await v3(admin).get(`/admin/company_custom_field_labels/${label.id}.json`)).body).toEqual(
      expect.objectContaining({ field_type: 'numeric', name: label.name }),
    );
    // GraphQL says the same, as a user error on kind.
    const gql = await server.graphql(
      admin,
      'mutation($id: Int!) { updateCustomFieldLabel(id: $id, input: { kind: DATE }) { customFieldLabel { kind } userErrors { field code message } } }',
      { id: label.id },
    );
    expect(gql.body.data.updateCustomFieldLabel).toEqual({
      customFieldLabel: null,
      userErrors: [{ field: ['input', 'kind'], code: 'INVALID', message: expect.stringMatching(/while records have a value/) }],
    });
    // Sending the same kind back (a label PUT back whole) is no change.
    const same = await v3(admin).put(`/admin/company_custom_field_labels/${label.id}.json`, {
      company_custom_field_label: { ...refused.body, field_type: 'numeric', position: 8 },
    });
    expect(same.status).toBe(200);
    await v3(admin).put(`/companies/${company.id}.json`, { company: { custom_fields: { [key]: null } } });
    expect(
      (await v3(admin).put(`/admin/company_custom_field_labels/${label.id}.json`, { company_custom_field_label: { field_type: 'date' } })).body.field_type,
    ).toBe('date');
  });

  it('GraphQL: labels by resource and by id, groups, entries, and the same rules (FORBIDDEN for others, userErrors)', async () => {
    const create = await server.graphql(
      admin,
      `mutation($input: CustomFieldLabelCreateInput!) { createCustomFieldLabel(input: $input) {
         customFieldLabel { id databaseId resource kind name label isRequired position groupId group { id } entries { id } createdAt updatedAt }
         userErrors { field code message } } }`,
      { input: { resource: 'PERSON', kind: 'MULTI_SELECT', name: unique('Hobbies'), isRequired: true } },
    );
    expect(create.body.errors).toBeUndefined();
    const label = create.body.data.createCustomFieldLabel.customFieldLabel;
    expect(label).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        resource: 'PERSON',
        kind: 'MULTI_SELECT',
        isRequired: true,
        label: `custom_label_${label.databaseId}`,
        groupId: null,
        group: null,
        entries: [],
      }),
    );
    const entry = await server.graphql(
      admin,
      'mutation($input: CustomFieldEntryCreateInput!) { createCustomFieldEntry(input: $input) { customFieldEntry { databaseId name position customFieldLabelId } userErrors { field message } } }',
      {
        input: { customFieldLabelId: label.databaseId, name: 'Chess' },
      },
    );
    expect(entry.body.data.createCustomFieldEntry).toEqual({
      customFieldEntry: { databaseId: expect.any(Number), name: 'Chess', position: 0, customFieldLabelId: label.databaseId },
      userErrors: [],
    });

    const read = await server.graphql(
      member,
      `query($id: Int!) {
         people: customFieldLabels(resource: PERSON, first: 200) { nodes { databaseId } totalCount }
         deals: customFieldLabels(resource: DEAL, first: 200) { nodes { databaseId } }
         one: customFieldLabel(id: $id) { name entries { databaseId name } }
         wrongResource: customFieldLabel(id: $id, resource: COMPANY) { name }
         entries: customFieldEntries(filter: { customFieldLabelId: { eq: $id } }) { nodes { name } }
         node(id: "${label.id}") { ... on CustomFieldLabel { databaseId } }
       }`,
      { id: label.databaseId },
    );
    expect(read.body.errors).toBeUndefined();
    const data = read.body.data;
    expect(data.people.nodes.map((n: { databaseId: number }) => n.databaseId)).toContain(label.databaseId);
    expect(data.deals.nodes.map((n: { databaseId: number }) => n.databaseId)).not.toContain(label.databaseId);
    expect(data.one).toEqual({
      name: label.name,
      entries: [{ databaseId: entry.body.data.createCustomFieldEntry.customFieldEntry.databaseId, name: 'Chess' }],
    });
    expect(data.wrongResource).toBeNull();
    expect(data.entries.nodes).toEqual([{ name: 'Chess' }]);
    expect(data.node).toEqual({ databaseId: label.databaseId });

    const forbidden = await server.graphql(member, 'mutation { createCustomFieldGroup(input: { resource: DEAL, name: "Nope" }) { customFieldGroup { id } } }');
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const invalid = await server.graphql(
      admin,
      'mutation { createCustomFieldLabel(input: { resource: DEAL, kind: TEXT, name: "" }) { customFieldLabel { id } userErrors { field code } } }',
    );
    expect(invalid.body.data.createCustomFieldLabel).toEqual({ customFieldLabel: null, userErrors: [{ field: ['input', 'name'], code: 'BLANK' }] });
    const missing = await server.graphql(admin, 'mutation { deleteCustomFieldLabel(id: 2000000000) { deletedId userErrors { field code } } }');
    expect(missing.body.data.deleteCustomFieldLabel).toEqual({ deletedId: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] });
  });

  it("another account's labels, groups and entries are invisible and untouchable", async () => {
    const other = await server.createAccount();
    const theirs = (
      await server.v3(other.admin.apiKey).post('/admin/deal_custom_field_labels.json', { deal_custom_field_label: { name: 'Theirs', field_type: 'dropdown' } })
    ).body;
    const theirEntry = (
      await server
        .v3(other.admin.apiKey)
        .post('/admin/custom_field_label_dropdown_entries.json', { custom_field_label_dropdown_entry: { name: 'Secret', custom_field_label_id: theirs.id } })
    ).body;
    const theirGroup = (
      await server
        .v3(other.admin.apiKey)
        .post('/admin/custom_field_groups.json', { custom_field_group: { name: 'Secret group', type: 'DealCustomFieldGroup' } })
    ).body;

    const listed: Array<[string, number]> = [
      ['/admin/deal_custom_field_labels.json', theirs.id],
      ['/admin/custom_field_labels.json', theirs.id],
      ['/admin/custom_field_label_dropdown_entries.json', theirEntry.id],
      ['/admin/custom_field_groups.json', theirGroup.id],
    ];
    for (const [path, id] of listed) {
      const res = await v3(admin).get(path, { per_page: 200 });
      expect(res.status).toBe(200);
      expect(res.body.entries.map((e: { id: number }) => e.id)).not.toContain(id);
    }
    expect((await v3(admin).get('/admin/custom_field_label_dropdown_entries.json', { 'conditions[custom_field_label_id]': theirs.id })).body.entries).toEqual(
      [],
    );
    expect((await v3(admin).get(`/admin/deal_custom_field_labels/${theirs.id}.json`)).status).toBe(404);
    expect((await v3(admin).put(`/admin/custom_field_labels/${theirs.id}.json`, { custom_field_label: { name: 'Mine now' } })).status).toBe(404);
    expect((await v3(admin).del(`/admin/custom_field_label_dropdown_entries/${theirEntry.id}.json`)).status).toBe(404);
    // Their label cannot take my entries, nor my labels their group; their values key is unknown to my records.
    const entry = await v3(admin).post('/admin/custom_field_label_dropdown_entries.json', {
      custom_field_label_dropdown_entry: { name: 'Intruder', custom_field_label_id: theirs.id },
    });
    expect({ status: entry.status, field: entry.body[0].field }).toEqual({ status: 422, field: 'custom_field_label_id' });
    const grouped = await v3(admin).post('/admin/deal_custom_field_labels.json', {
      deal_custom_field_label: { name: unique('Intruder'), field_type: 'text', custom_field_group_id: theirGroup.id },
    });
    expect({ status: grouped.status, field: grouped.body[0].field }).toEqual({ status: 422, field: 'custom_field_group_id' });
    const deal = await v3(admin).post('/deals.json', { deal: { name: 'Mine', custom_fields: { [`custom_label_${theirs.id}`]: theirEntry.id } } });
    expect(deal.status).toBe(200);
    expect(deal.body.custom_fields).not.toHaveProperty(`custom_label_${theirs.id}`);
    const gql = await server.graphql(
      admin,
      `query { customFieldLabel(id: ${theirs.id}) { id } customFieldEntry(id: ${theirEntry.id}) { id } customFieldGroup(id: ${theirGroup.id}) { id } }`,
    );
    expect(gql.body.data).toEqual({ customFieldLabel: null, customFieldEntry: null, customFieldGroup: null });
  });
});
