import { Visibility } from '../../src/modules/users/user.entity';
import { fixtures } from '../support/fixtures';
import { v3KeysOf } from '../support/v3-keys';
import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** Every attribute of a v3 deal, in the serializer's order (v3 §2.5 and what responses also show). */
const DEAL_KEYS = [
  'id',
  'name',
  'summary',
  'user_id',
  'user',
  'status',
  'custom_fields',
  'created_at',
  'updated_at',
  'import_id',
  'expected_close_date_event_id',
  'expected_close_date',
  'closed_time',
  'is_archived',
  'value',
  'value_in_cents',
  'primary_contact_id',
  'primary_contact',
  'people',
  'person_ids',
  'collaborators',
  'shared_user_ids',
  'company',
  'company_id',
  'company_name',
  'currency',
  'probability',
  'deal_stage_id',
  'deal_stage',
  'deal_loss_reason_id',
  'deal_loss_reason',
  'deal_loss_reason_notes',
  'source_id',
  'source',
  'possible_notify_user_ids',
  'is_example',
  'currency_code',
  'account_id',
  'bonus',
  'commission',
  'commission_rate',
  'is_shared',
  'viewed_at',
  'last_modified_by_user_id',
];

const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;

/** Deals over v3 (§2.5, §3, §4.5), pinning DECISIONS: money, states, totals, conditions, nested routes. */
describe('deals: the v3 contract', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'Europe/Berlin', currency: 'EUR' });
    key = account.admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  const api = (k = key) => server.v3(k);
  const create = async (deal: Record<string, unknown>, k = key) => {
    const res = await api(k).post('/deals.json', { deal });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('create answers the whole deal: money as decimal strings with the currency places, v3 datetimes, convenience objects', async () => {
    const person = await fixtures.person(server, key, { firstName: 'Ada', lastName: 'Lovelace' });
    const colleague = await account.addUser({ firstName: 'Col', lastName: 'League' });
    const deal = await create({
      name: 'Engines',
      value: 5000,
      company_name: 'Analytical Ltd',
      person_ids: [person],
      primary_contact_id: person,
      shared_user_ids: [colleague.id],
      expected_close_date: '2027/03/31',
      commission_rate: '7.5',
    });
    expect(Object.keys(deal)).toEqual(v3KeysOf('deal', DEAL_KEYS));
    expect(deal).toMatchObject({
      name: 'Engines',
      value: '5000.00',
      value_in_cents: 500000,
      currency: { code: 'EUR', name: expect.any(String), symbol: '€' },
      currency_code: 'EUR',
      company: { id: expect.any(Number), name: 'Analytical Ltd' },
      company_name: 'Analytical Ltd',
      expected_close_date: '2027/03/31',
      expected_close_date_event_id: expect.any(Number), // its calendar task (close-date-task.contract.test.ts)
      people: [{ id: person, first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' }],
      person_ids: [person],
      primary_contact: { id: person, first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' },
      collaborators: [{ id: colleague.id, first_name: 'Col', last_name: 'League', full_name: 'Col League', api_key: null }],
      shared_user_ids: [colleague.id],
      is_shared: true,
      user_id: account.admin.id,
      user: expect.objectContaining({ id: account.admin.id }),
      last_modified_by_user_id: account.admin.id,
      account_id: account.accountId,
      commission_rate: '7.5',
      is_example: false,
      is_archived: false,
    });
    expect(deal.created_at).toMatch(V3_DATETIME);
    // Sent back whole, changed in one attribute: nothing else moves (DECISIONS: clients send back what they received).
    const back = await api().put(`/deals/${deal.id}.json`, { deal: { ...deal, value_in_cents: 500000, name: 'Engines II' } });
    expect(back.status).toBe(200);
    expect({ ...back.body, updated_at: null }).toEqual({ ...deal, name: 'Engines II', updated_at: null });
    const form = await api().post('/deals.json', formEncode({ deal: { name: 'Form deal', value: '12.345', person_ids: [String(person)] } }));
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({ name: 'Form deal', value: '12.35', person_ids: [person] });
  });

  it('validation errors are bare arrays naming the v3 field; a missing deal is 404 empty', async () => {
    const blank = await api().post('/deals.json', { deal: { value: 3 } });
    expect(blank).toMatchObject({ status: 422, body: [{ field: 'name', humanized_field: 'Name', msg: "can't be blank" }] });
    const bad = await api().post('/deals.json', { deal: { name: 'x', value: '1e5', probability: 140, deal_stage_id: 999999 } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual([expect.objectContaining({ field: 'value' })]);
    const core = await api().post('/deals.json', { deal: { name: 'x', probability: 140, deal_stage_id: 999999, status: 7 } });
    expect(core.status).toBe(422);
    expect(core.body.map((e: { field: string }) => e.field).sort()).toEqual(['deal_stage_id', 'probability', 'status']);
    expect(await server.sql(`select id from deals where name = 'x'`)).toEqual([]);
    const missing = await api().get('/deals/999999.json');
    expect({ status: missing.status, text: missing.text }).toEqual({ status: 404, text: '' });
    expect((await api().put('/deals/999999.json', { deal: { name: 'x' } })).status).toBe(404);
    expect((await api().del('/deals/999999.json')).status).toBe(404);
    const template = await api().post('/deals.json', { deal: { name: 'Templated' }, todo_template_id: 999999 });
    expect(template).toMatchObject({ status: 422, body: [expect.objectContaining({ field: 'todo_template_id' })] });
  });

  it('states: probability 100 closes with closed_time now, 50 reopens; a stage sets the probability', async () => {
    const deal = await create({ name: 'Closing', probability: 100 });
    expect(deal.closed_time).toMatch(V3_DATETIME);
    const reopened = await api().put(`/deals/${deal.id}.json`, { deal: { probability: 50 } });
    expect(reopened.body).toMatchObject({ probability: 50, closed_time: null });
    const stages = (await api().get('/admin/deal_stages.json')).body.entries as Array<{ id: number; percent: number }>;
    const lost = stages.find((s) => s.percent === 0)!;
    const staged = await api().put(`/deals/${deal.id}.json`, { deal: { deal_stage_id: lost.id } });
    expect(staged.body).toMatchObject({ deal_stage_id: lost.id, deal_stage: { id: lost.id, percent: 0 }, probability: 0 });
    expect(staged.body.closed_time).toMatch(V3_DATETIME);
  });

  it('list: default per_page 200, totals over every match in the envelope, conditions and sorts of §4.5', async () => {
    const owner = await account.addUser({ visibility: Visibility.OWN });
    const acme = await fixtures.company(server, key, { name: 'Totals Acme' });
    const person = await fixtures.person(server, key, { email: 'buyer@totals.example', workCity: 'Springfield' });
    await create({ name: 'T1 alpha', value: '10.10', bonus: '1', company_id: acme, person_ids: [person], user_id: owner.id });
    await create({ name: 'T2 beta', value: '20.20', commission: '2.5', company_id: acme });
    await create({ name: 'T3 gamma', value: '30.30', company_id: acme });
    const page = await api().get('/deals.json', { company_id: acme, totals: 'true', per_page: 2, sort: '-deals.name' });
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ page: 1, per_page: 2, total: 3, pages: 2, page_var: 'page' });
    expect(page.body.entries.map((d: { name: string }) => d.name)).toEqual(['T3 gamma', 'T2 beta']);
    expect(page.body.totals).toEqual({ value: '60.60', bonus: '1.00', commission: '2.50' });
    expect((await api().get('/deals.json')).body.pagination.per_page).toBe(200);
    expect(Object.keys((await api().get('/deals.json', { company_id: acme })).body)).toEqual(['entries', 'pagination']);
    const names = async (query: Record<string, string | number>) =>
      (await api().get('/deals.json', { company_id: acme, ...query })).body.entries.map((d: { name: string }) => d.name).sort();
    expect(await names({ 'conditions[deal_value][from]': 15, 'conditions[deal_value][to]': 25 })).toEqual(['T2 beta']);
    expect(await names({ 'conditions[deal_name]': 'ALPHA' })).toEqual(['T1 alpha']);
    expect(await names({ 'conditions[person_email]': '@totals.example' })).toEqual(['T1 alpha']);
    expect(await names({ 'conditions[person_city]': 'springf', 'conditions[person_email]': 'buyer' })).toEqual(['T1 alpha']);
    expect(await names({ 'conditions[deal_owner]': owner.id })).toEqual(['T1 alpha']);
    expect(await names({ 'conditions[deal_owner]': 'all' })).toEqual(['T1 alpha', 'T2 beta', 'T3 gamma']);
    expect(await names({ user_id: owner.id })).toEqual(['T1 alpha']);
    expect(await names({ person_id: person })).toEqual(['T1 alpha']);
    expect(await names({ 'conditions[person_id]': person })).toEqual(['T1 alpha']);
    const badSort = await api().get('/deals.json', { sort: 'deals.summary' });
    expect(badSort).toMatchObject({ status: 422, body: [expect.objectContaining({ field: 'sort' })] });
    for (const sort of [
      'deals.name',
      '-deals.owner_id',
      'deals.source_id',
      'deals.probability',
      '-deals.expected_close_date',
      'deals.created_at',
      'deals.updated_at',
      'deals.closed_time',
      'user_id',
    ]) {
      expect((await api().get('/deals.json', { sort })).status).toBe(200);
    }
  });

  it("nested routes: a company's and a person's deals, a deal's people; a hidden or missing parent is 404", async () => {
    const company = await fixtures.company(server, key, { name: 'Nested Co' });
    const person = await fixtures.person(server, key);
    const deal = await create({ name: 'Nested deal', company_id: company, person_ids: [person] });
    expect((await api().get(`/companies/${company}/deals.json`)).body.entries.map((d: { id: number }) => d.id)).toEqual([deal.id]);
    expect((await api().get(`/people/${person}/deals.json`)).body.entries.map((d: { id: number }) => d.id)).toEqual([deal.id]);
    const people = await api().get(`/deals/${deal.id}/people.json`);
    expect(people.body.entries.map((p: { id: number }) => p.id)).toEqual([person]);
    expect(people.body.entries[0].deal_ids).toEqual([deal.id]);
    const own = await account.addUser({ visibility: Visibility.OWN });
    for (const path of [`/companies/${company}/deals.json`, `/people/${person}/deals.json`, `/deals/${deal.id}/people.json`, '/deals/999999/people.json']) {
      expect((await api(own.apiKey).get(path)).status).toBe(404);
    }
  });

  it('people get real deal_ids: writing sets the association (unknown ids ignored), reading lists the visible deals', async () => {
    const d1 = await create({ name: 'DI 1' });
    const d2 = await create({ name: 'DI 2' });
    const made = await api().post('/people.json', { person: { last_name: 'Dealer', deal_ids: [d1.id, 999999] } });
    expect(made.body.deal_ids).toEqual([d1.id]);
    const changed = await api().put(`/people/${made.body.id}.json`, { person: { deal_ids: [d2.id] } });
    expect(changed.body.deal_ids).toEqual([d2.id]);
    expect((await api().get(`/deals/${d1.id}.json`)).body.person_ids).toEqual([]);
    expect((await api().get(`/deals/${d2.id}.json`)).body.person_ids).toEqual([made.body.id]);
  });

  it('an own user sees deals they own or that are shared with them, over every v3 path', async () => {
    const own = await account.addUser({ visibility: Visibility.OWN });
    const hidden = await create({ name: 'V hidden' });
    const shared = await create({ name: 'V shared', shared_user_ids: [own.id] });
    const mine = await create({ name: 'V mine' }, own.apiKey);
    const ids = (await api(own.apiKey).get('/deals.json')).body.entries.map((d: { id: number }) => d.id);
    expect(ids).toEqual(expect.arrayContaining([shared.id, mine.id]));
    expect(ids).not.toContain(hidden.id);
    expect((await api(own.apiKey).get(`/deals/${hidden.id}.json`)).status).toBe(404);
    expect((await api(own.apiKey).get(`/deals/${shared.id}.json`)).status).toBe(200);
    expect((await api(own.apiKey).put(`/deals/${hidden.id}.json`, { deal: { name: 'no' } })).status).toBe(404);
    expect((await api(own.apiKey).del(`/deals/${hidden.id}.json`)).status).toBe(404);
    const totals = await api(own.apiKey).get('/deals.json', { totals: 'true' });
    expect(totals.body.pagination.total).toBe(ids.length);
  });
});

describe('todo templates on deals and people (v3 §3, §4.4, §4.5)', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  it('a template of the right type is applied (recorded as applied); another type or an unknown id is a 422 and writes nothing', async () => {
    const template = (type: string) =>
      server.v3(key).post('/admin/todo_templates.json', { todo_template: { name: `T ${type} ${Math.random()}`, template_type: type } });
    const deals = (await template('deals')).body.id;
    const people = (await template('people')).body.id;
    const deal = await server.v3(key).post('/deals.json', { deal: { name: 'With tasks' }, todo_template_id: deals });
    expect(deal.status).toBe(200);
    expect(await server.sql('select record_type, record_id, status from todo_template_applications where template_id = ?', [deals])).toEqual([
      { record_type: 'Deal', record_id: deal.body.id, status: 'applied' },
    ]);
    const wrong = await server.v3(key).post('/deals.json', { deal: { name: 'Wrong type' }, todo_template_id: people });
    expect(wrong).toMatchObject({ status: 422, body: [expect.objectContaining({ field: 'todo_template_id' })] });
    expect(await server.sql(`select id from deals where name = 'Wrong type'`)).toEqual([]);
    const person = await server.v3(key).post('/people.json', { person: { last_name: 'Tasked' }, todo_template_id: people });
    expect(person.status).toBe(200);
    expect(await server.sql('select record_type, record_id from todo_template_applications where template_id = ?', [people])).toEqual([
      { record_type: 'Person', record_id: person.body.id },
    ]);
    const unknown = await server.v3(key).put(`/people/${person.body.id}.json`, { person: { last_name: 'x' }, todo_template_id: 999999 });
    expect(unknown).toMatchObject({ status: 422, body: [expect.objectContaining({ field: 'todo_template_id' })] });
  });
});
