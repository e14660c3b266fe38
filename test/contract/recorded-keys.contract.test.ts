import { Visibility } from '../../src/modules/users/user.entity';
import { countStatements } from '../support/sql-counter';
import { openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 22: keys the official clients' recordings show and the clients read, pinned over v3.
 * People (pipelinedeals_api get_a_person.yml, person_with_deals.yml; pipeline_api people_index.yml):
 * `deals` [{id, name}], `shared_user_ids`, `created_by_user_id`, `total_pipeline` (open deals'
 * value), `won_deals_total`. Calendar entries (PipelineDeals_Deal_calendar_entries.yml,
 * PipelineDeals_Person_calendar_entries.yml): `association` and `associated_company`. Only what the
 * viewer may see is named or summed.
 */
describe('recorded keys: people and calendar entries (v3)', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let own: { id: number; apiKey: string };

  beforeAll(async () => {
    ({ server, account, key } = await openServerWithAccount({ currency: 'EUR' }));
    own = await account.addUser({ visibility: Visibility.OWN, firstName: 'Olga', lastName: 'Own' });
  }, 60_000);
  afterAll(() => server.close());

  const api = (k = key) => server.v3(k);
  const post = async (path: string, body: Record<string, unknown>, k = key) => {
    const res = await api(k).post(path, body);
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('people', () => {
    let person: any;
    const deals: Record<string, any> = {};

    beforeAll(async () => {
      // Made by the own user, who owns the person and some of the deals; the admin owns the others.
      person = await post('/people.json', { person: { first_name: 'Leonard', last_name: 'Jakubowski' } }, own.apiKey);
      const deal = async (label: string, attrs: Record<string, unknown>, k = key) =>
        (deals[label] = await post('/deals.json', { deal: { name: label, person_ids: [person.id], ...attrs } }, k));
      await deal('open mine', { value: '1000.50', probability: 50 }, own.apiKey);
      await deal('no probability', { value: 20 }, own.apiKey);
      await deal('won mine', { value: 300, probability: 100 }, own.apiKey);
      await deal('lost mine', { value: 50, probability: 0 }, own.apiKey);
      await deal('open hidden', { value: 999, probability: 25 });
      await deal('won hidden', { value: 7777, probability: 100 });
      await deal('open shared', { value: '5.25', probability: 10, shared_user_ids: [own.id] });
    });

    const ids = (...labels: string[]) => labels.map((l) => deals[l].id).sort((a, b) => a - b);
    const named = (...labels: string[]) => labels.map((l) => ({ id: deals[l].id, name: l })).sort((a, b) => a.id - b.id);

    it('show: `deals` names the deals of `deal_ids`; the totals sum open and won deals as decimal strings', async () => {
      const all = ['open mine', 'no probability', 'won mine', 'lost mine', 'open hidden', 'won hidden', 'open shared'];
      const res = await api().get(`/people/${person.id}.json`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        deal_ids: ids(...all),
        deals: named(...all),
        shared_user_ids: [],
        created_by_user_id: own.id,
        // Open: probability neither 0 nor 100 (none counts as open); won: 100; lost deals in neither.
        total_pipeline: '2024.75',
        won_deals_total: '8077.00',
      });
      expect(Object.keys(res.body).slice(-5)).toEqual(['deals', 'shared_user_ids', 'created_by_user_id', 'total_pipeline', 'won_deals_total']);
    });

    it('a deal hidden from the viewer is neither named nor summed (own user: their deals and those shared with them)', async () => {
      const visible = ['open mine', 'no probability', 'won mine', 'lost mine', 'open shared'];
      const shown = await api(own.apiKey).get(`/people/${person.id}.json`);
      expect(shown.body).toMatchObject({ deal_ids: ids(...visible), deals: named(...visible), total_pipeline: '1025.75', won_deals_total: '300.00' });
      const listed = await api(own.apiKey).get('/people.json', { 'conditions[person_id]': person.id });
      expect(listed.body.entries).toEqual([shown.body]);
      const text = JSON.stringify(shown.body);
      for (const hidden of ['open hidden', 'won hidden', '999', '7777']) expect(text).not.toContain(hidden);
    });

    it('a person without deals: empty lists and "0.00"; created_by_user_id is who created them, not the owner', async () => {
      const other = await post('/people.json', { person: { last_name: 'Alone', user_id: own.id } });
      expect(other).toMatchObject({
        deal_ids: [],
        deals: [],
        shared_user_ids: [],
        user_id: own.id,
        created_by_user_id: account.admin.id,
        total_pipeline: '0.00',
        won_deals_total: '0.00',
      });
      // Read-only keys sent back whole are ignored (DECISIONS: clients send back what they received).
      const back = await api().put(`/people/${other.id}.json`, {
        person: { ...other, deals: [{ id: deals['open mine'].id, name: 'x' }], created_by_user_id: own.id, total_pipeline: '5', shared_user_ids: [own.id] },
      });
      expect(back.status).toBe(200);
      expect({ ...back.body, updated_at: null }).toEqual({ ...other, updated_at: null });
    });

    it("GraphQL: Person.dealNames, totalPipeline, wonDealsTotal and createdByUserId, in the viewer's visibility", async () => {
      const query = 'query($id: Int!) { person(id: $id) { dealIds dealNames { databaseId name } totalPipeline wonDealsTotal createdByUserId } }';
      const res = await server.graphql(own.apiKey, query, { id: person.id });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.person).toEqual({
        dealIds: ids('open mine', 'no probability', 'won mine', 'lost mine', 'open shared'),
        dealNames: named('open mine', 'no probability', 'won mine', 'lost mine', 'open shared').map((d) => ({ databaseId: d.id, name: d.name })),
        totalPipeline: '1025.75',
        wonDealsTotal: '300.00',
        createdByUserId: own.id,
      });
    });

    it('a page of people reads deal_ids, deals and both totals in one statement', async () => {
      const { result, statements } = await countStatements(() => api().get('/people.json', { per_page: 100 }));
      expect(result.status).toBe(200);
      expect(result.body.entries.find((p: { id: number }) => p.id === person.id)).toMatchObject({ total_pipeline: '2024.75', won_deals_total: '8077.00' });
      expect(statements.filter((s) => /"deal_people"/.test(s))).toHaveLength(1);
    });
  });

  describe('calendar entries', () => {
    it("association is the record the entry is about: {id, name} for a deal or company, a person's names and numbers; associated_company the company it is tied to", async () => {
      const company = await post('/companies.json', { company: { name: 'Roob Group' } });
      const person = await post('/people.json', {
        person: { first_name: 'Leonard', last_name: 'Jakubowski', email: 'leo@example.test', phone: '555-0100', mobile: '555-0199', company_id: company.id },
      });
      const deal = await post('/deals.json', { deal: { name: 'reinvent rich infrastructures' } });
      const entry = (attrs: Record<string, unknown>) =>
        post('/calendar_entries.json', { calendar_entry: { type: 'CalendarTask', name: 'Do something', ...attrs } });

      const aboutPerson = await entry({ association_type: 'Person', association_id: person.id, company_id: company.id });
      expect(aboutPerson.association).toEqual({
        id: person.id,
        first_name: 'Leonard',
        last_name: 'Jakubowski',
        phone: '555-0100',
        mobile: '555-0199',
        email: 'leo@example.test',
      });
      expect(aboutPerson.associated_company).toEqual({ id: company.id, name: 'Roob Group' });
      const aboutDeal = await entry({ association_type: 'Deal', association_id: deal.id });
      expect(aboutDeal).toMatchObject({ association: { id: deal.id, name: 'reinvent rich infrastructures' }, associated_company: null });
      const aboutCompany = await entry({ association_type: 'Company', association_id: company.id });
      expect(aboutCompany).toMatchObject({ association: { id: company.id, name: 'Roob Group' }, associated_company: { id: company.id, name: 'Roob Group' } });
      const aboutNothing = await entry({});
      expect(aboutNothing).toMatchObject({ association: null, associated_company: null });

      // Lists answer the same, with the keys after the spec's.
      const listed = await api().get(`/people/${person.id}/calendar_entries.json`);
      expect(listed.body.entries).toEqual([aboutPerson]);
      expect(Object.keys(aboutPerson).slice(-2)).toEqual(['association', 'associated_company']);
    });

    it('null when the viewer may not see the record (its id still names it)', async () => {
      const company = await post('/companies.json', { company: { name: 'Hidden Co' } });
      const person = await post('/people.json', { person: { last_name: 'Hidden', email: 'hidden@example.test', company_id: company.id } });
      const deal = await post('/deals.json', { deal: { name: 'Hidden deal' } });
      // The own user's own entries about records only the admin may see (v3 owner_id is read-only: made over GraphQL).
      const gql = async (input: Record<string, unknown>) => {
        const res = await server.graphql(
          key,
          'mutation($input: CalendarEntryCreateInput!) { createCalendarEntry(input: $input) { calendarEntry { databaseId } userErrors { message } } }',
          {
            input: { kind: 'TASK', name: 'Mine', ownerId: own.id, ...input },
          },
        );
        expect(res.body.data.createCalendarEntry.userErrors).toEqual([]);
        return res.body.data.createCalendarEntry.calendarEntry.databaseId as number;
      };
      const aboutPerson = await gql({ associationType: 'PERSON', associationId: person.id, companyId: company.id });
      const aboutDeal = await gql({ associationType: 'DEAL', associationId: deal.id });
      for (const [id, type, associationId] of [
        [aboutPerson, 'Person', person.id],
        [aboutDeal, 'Deal', deal.id],
      ] as const) {
        const seen = await api(own.apiKey).get(`/calendar_entries/${id}.json`);
        expect(seen.status).toBe(200);
        expect(seen.body).toMatchObject({ association_type: type, association_id: associationId, association: null, associated_company: null });
        expect(JSON.stringify(seen.body)).not.toMatch(/Hidden|hidden@/);
        // The admin sees them whole.
        expect((await api().get(`/calendar_entries/${id}.json`)).body.association).toEqual(expect.objectContaining({ id: associationId }));
      }
    });
  });
});
