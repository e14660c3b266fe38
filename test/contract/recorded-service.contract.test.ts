import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { seedCustomField, type SeededField } from '../support/custom-fields';
import { fixtures, FIXTURES, parentRoute } from '../support/fixtures';
import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';
import { SERVED_ROUTES } from '../support/v3-routes';

/**
 * v3 as the real service answered (issue 22): what the official clients' recordings show, where
 * this service answered otherwise. Cassettes of github PipelineDeals/pipelinedeals_api (the older
 * gem) and PipelineDeals/pipeline_api (the newer one), spec/cassettes/*.yml.
 */

/** A query string exactly as the older gem builds it: `conditions%5Bdeal_stage%5D%5B0%5D=2&...`. */
const indexed = (name: string, values: readonly unknown[]) =>
  values.map((v, i) => `${encodeURIComponent(`${name}[${i}]`)}=${encodeURIComponent(String(v))}`).join('&');
const ids = (res: { body: any }) => (res.body.entries as Array<{ id: number }>).map((e) => e.id).sort((a, b) => a - b);
const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);

describe('v3 as the real service answered', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York', currency: 'USD' });
    key = account.admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  const api = (k = key) => server.v3(k);
  const get = (pathAndQuery: string, k = key) => server.request('GET', `/api/v3${pathAndQuery}`, { apiKey: k });

  describe('lists given with indexed keys are lists (DECISIONS: Responses)', () => {
    let stages: number[];
    let inStage: number[];
    let tier: SeededField;
    let colours: SeededField;
    let byTier: number[];
    let hot: number;
    let cold: number;
    let hotPeople: number[];

    beforeAll(async () => {
      stages = [];
      for (const name of ['Indexed stage A', 'Indexed stage B', 'Indexed stage C']) stages.push(await fixtures.dealStage(server, key, { name, percent: 20 }));
      inStage = [];
      for (const stage of stages) inStage.push(await fixtures.deal(server, key, { name: `Staged ${stage}`, dealStageId: stage }));
      tier = await seedCustomField(server, account.accountId, 'deal', 'dropdown', 'Tier', ['Gold', 'Silver', 'Bronze']);
      colours = await seedCustomField(server, account.accountId, 'deal', 'multi_select', 'Colours', ['Red', 'Green', 'Blue']);
      byTier = [];
      for (const entry of tier.entries) {
        const res = await api().post('/deals.json', { deal: { name: `Tier ${entry}`, custom_fields: { [tier.label]: entry } } });
        expect(res.status).toBe(200);
        byTier.push(res.body.id);
      }
      hot = await fixtures.leadStatus(server, key, { name: 'Hot' });
      cold = await fixtures.leadStatus(server, key, { name: 'Cold' });
      hotPeople = [await fixtures.person(server, key, { leadStatusId: hot }), await fixtures.person(server, key, { leadStatusId: hot })];
      await fixtures.person(server, key, { leadStatusId: cold });
    }, 60_000);

    it('conditions[deal_stage][0]=…&[1]=… (cassette deals_filtered_by_stage) answers the deals in either stage', async () => {
      const res = await get(`/deals.json?${indexed('conditions[deal_stage]', [stages[0], stages[1]])}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(sorted(inStage[0], inStage[1]));
      expect(res.body.pagination).toEqual({ page: 1, per_page: 200, total: 2, pages: 1, page_var: 'page' });
      // The same answer as the `[]` and comma forms; the indexes' order is the list's, not the query's.
      const brackets = await get(`/deals.json?conditions%5Bdeal_stage%5D%5B%5D=${stages[0]}&conditions%5Bdeal_stage%5D%5B%5D=${stages[1]}`);
      expect(brackets.body).toEqual(res.body);
      const reversed = await get(`/deals.json?conditions%5Bdeal_stage%5D%5B1%5D=${stages[1]}&conditions%5Bdeal_stage%5D%5B0%5D=${stages[0]}`);
      expect(reversed.body).toEqual(res.body);
    });

    it('conditions[person_status][0]=… (cassette people_filtered_by_status) answers the people of that status', async () => {
      const res = await get(`/people.json?${indexed('conditions[person_status]', [hot])}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(sorted(...hotPeople));
    });

    it('conditions[custom_label_N][0]=…&[1]=… (cassette deals_filtered_by_custom_field) answers the deals with any of the entries', async () => {
      const res = await get(`/deals.json?${indexed(`conditions[${tier.label}]`, [tier.entries[0], tier.entries[1]])}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(sorted(byTier[0], byTier[1]));
      // Ranges are still objects: [from]/[to] are not indexes.
      const seats = await seedCustomField(server, account.accountId, 'deal', 'numeric', 'Seats');
      const ranged = await get(
        `/deals.json?${encodeURIComponent(`conditions[${seats.label}][from]`)}=3&${encodeURIComponent(`conditions[${seats.label}][to]`)}=7`,
      );
      expect({ status: ranged.status, entries: ranged.body.entries }).toEqual({ status: 200, entries: [] });
    });

    it('keys that are not exactly 0..n-1 stay an object: the same 422 naming the parameter as before', async () => {
      for (const query of [
        `conditions%5Bdeal_stage%5D%5B0%5D=${stages[0]}&conditions%5Bdeal_stage%5D%5B2%5D=${stages[1]}`,
        `conditions%5Bdeal_stage%5D%5Ba%5D=${stages[0]}`,
        `conditions%5Bdeal_stage%5D%5B1%5D=${stages[0]}`,
        `conditions%5Bdeal_stage%5D%5B00%5D=${stages[0]}`,
      ]) {
        const res = await get(`/deals.json?${query}`);
        expect({ query, status: res.status, body: res.body }).toEqual({
          query,
          status: 422,
          body: [expect.objectContaining({ field: 'conditions[deal_stage]', msg: 'must be an id or a list of ids' })],
        });
      }
      const custom = await get(
        `/deals.json?${encodeURIComponent(`conditions[${tier.label}][0]`)}=${tier.entries[0]}&${encodeURIComponent(`conditions[${tier.label}][2]`)}=${tier.entries[1]}`,
      );
      expect({ status: custom.status, field: custom.body[0]?.field }).toEqual({ status: 422, field: `conditions[${tier.label}]` });
    });

    it('*_ids, tag ids and multi-select values in form and JSON bodies take indexed keys too', async () => {
      const people = [await fixtures.person(server, key), await fixtures.person(server, key)];
      const tags = [await fixtures.contactTag(server, key), await fixtures.contactTag(server, key)];
      const form = await api().post(
        '/deals.json',
        [
          `deal[name]=Indexed`,
          indexed('deal[person_ids]', people),
          indexed(`deal[custom_fields][${colours.label}]`, [colours.entries[2], colours.entries[0]]),
        ].join('&'),
      );
      expect(form.status).toBe(200);
      expect(form.body).toMatchObject({
        person_ids: people,
        custom_fields: expect.objectContaining({ [colours.label]: [colours.entries[2], colours.entries[0]] }),
      });
      const person = await api().post(
        '/people.json',
        `person[first_name]=Ida&person[last_name]=Indexed&${indexed('person[predefined_contacts_tag_ids]', tags)}`,
      );
      expect(person.status).toBe(200);
      expect(person.body.predefined_contacts_tag_ids.sort()).toEqual(sorted(...tags));
      // A JSON object keyed "0", "1" (what some encoders make of a list) is the same list.
      const json = await api().put(`/deals/${form.body.id}.json`, {
        deal: { person_ids: { 0: people[1] }, custom_fields: { [colours.label]: { 1: colours.entries[0], 0: colours.entries[1] } } },
      });
      expect(json.status).toBe(200);
      expect(json.body).toMatchObject({
        person_ids: [people[1]],
        custom_fields: expect.objectContaining({ [colours.label]: [colours.entries[1], colours.entries[0]] }),
      });
      const gap = await api().put(`/deals/${form.body.id}.json`, { deal: { person_ids: { 0: people[0], 2: people[1] } } });
      expect({ status: gap.status, body: gap.body }).toEqual({ status: 422, body: [expect.objectContaining({ field: 'person_ids' })] });
    });

    it('bounded like lists: the same answers past the same maxima', async () => {
      // Custom field conditions take at most 100 values (src/kit/v3/conditions.ts): indexed or [], the same 422.
      const many = Array.from({ length: 101 }, (_, i) => i + 1);
      const byIndex = await get(`/deals.json?${indexed(`conditions[${tier.label}]`, many)}`);
      const byBrackets = await get(`/deals.json?${many.map((v) => `${encodeURIComponent(`conditions[${tier.label}][]`)}=${v}`).join('&')}`);
      expect({ status: byIndex.status, body: byIndex.body }).toEqual({
        status: 422,
        body: [expect.objectContaining({ field: `conditions[${tier.label}]`, msg: 'has too many values (maximum is 100)' })],
      });
      expect(byIndex.body).toEqual(byBrackets.body);
      // A body list holds at most 1,000 elements (DECISIONS: bounded array length): 413 either way.
      const thousandAndOne = Array.from({ length: 1001 }, (_, i) => i + 1);
      const asObject = await api().post('/deals.json', {
        deal: { name: 'Too many', person_ids: Object.fromEntries(thousandAndOne.map((v, i) => [String(i), v])) },
      });
      const asArray = await api().post('/deals.json', { deal: { name: 'Too many', person_ids: thousandAndOne } });
      expect([asObject.status, asArray.status]).toEqual([413, 413]);
      expect(await server.sql(`select id from deals where account_id = ? and name = 'Too many'`, [account.accountId])).toEqual([]);
    });
  });

  describe('an empty list answers pages: 1 (DECISIONS: Responses; every empty list recorded, e.g. deal_loss_reasons_index.yml)', () => {
    it('a list nothing matches', async () => {
      const res = await api().get('/deals.json', { 'conditions[deal_name]': 'no deal is called this' });
      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual({ entries: [], pagination: { page: 1, per_page: 200, total: 0, pages: 1, page_var: 'page' } });
      // Past the end of a non-empty list `pages` stays the real count.
      const past = await api().get('/admin/deal_stages.json', { page: 99 });
      expect(past.body.pagination.pages).toBe(Math.ceil(past.body.pagination.total / 200));
    });

    it('a note without comments embeds an empty comments envelope with pages: 1 (cassette PipelineDeals_Deal_notes)', async () => {
      const note = await fixtures.note(server, key);
      const res = await api().get(`/notes/${note}.json`);
      expect(res.status).toBe(200);
      expect(res.body.comments.pagination).toEqual(expect.objectContaining({ total: 0, pages: 1 }));
    });

    it('every paged list route of the table, empty in a fresh account (or under a fresh parent)', async () => {
      const fresh = await server.createAccount();
      const freshKey = fresh.admin.apiKey;
      const paged = SERVED_ROUTES.filter((r) => r.kind === 'list' && r.produces === undefined && !r.entriesKey);
      const pathOf = async (route: RouteSpec): Promise<string> => {
        if (route.path.includes(':noteId')) {
          const note = await fixtures.note(server, freshKey);
          return route.path.replace(':associationId', String(note)).replace(':noteId', String(note));
        }
        const parent = parentRoute(route, SERVED_ROUTES);
        if (!parent) return route.path;
        return route.path.replace(':id', String(await FIXTURES[parent.resource.root].create(server, freshKey)));
      };
      const empty: string[] = [];
      for (const route of paged) {
        const res = await server.request('GET', `/api/v3${await pathOf(route)}.json`, { apiKey: freshKey });
        expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 200 });
        const { total, per_page: perPage, pages } = res.body.pagination;
        expect({ route: route.path, pages }).toEqual({ route: route.path, pages: Math.max(1, Math.ceil(total / perPage)) });
        if (total === 0) {
          expect({ route: route.path, body: res.body }).toStrictEqual({
            route: route.path,
            body: { entries: [], pagination: { page: 1, per_page: route.paging!.default, total: 0, pages: 1, page_var: 'page' } },
          });
          empty.push(route.path);
        }
      }
      // The record lists and every nested list start empty; admin lists seeded with defaults do not.
      expect(empty).toEqual(
        expect.arrayContaining([
          '/companies',
          '/people',
          '/deals',
          '/notes',
          '/documents',
          '/calendar_entries',
          '/searches',
          '/account_notifications',
          '/companies/:id/people',
          '/deals/:id/people',
          '/people/:id/deals',
          '/notes/:noteId/comments',
        ]),
      );
    });
  });

  describe('numeric custom field values are decimal strings (DECISIONS: Responses: custom_fields)', () => {
    let dealSeats: SeededField;
    let dealBudget: SeededField;
    let personScore: SeededField;
    let companySize: SeededField;

    beforeAll(async () => {
      dealSeats = await seedCustomField(server, account.accountId, 'deal', 'numeric', 'Headcount');
      dealBudget = await seedCustomField(server, account.accountId, 'deal', 'currency', 'Budget');
      personScore = await seedCustomField(server, account.accountId, 'person', 'numeric', 'numericfield');
      companySize = await seedCustomField(server, account.accountId, 'company', 'numeric', 'Employees');
    });

    it('an integer value shows as "23.0" (cassette people_index: "custom_label_6":"23.0"), others with their digits', async () => {
      const person = await api().post('/people.json', { person: { first_name: 'Num', last_name: 'Eric', custom_fields: { [personScore.label]: 23 } } });
      expect(person.status).toBe(200);
      expect(person.body.custom_fields[personScore.label]).toBe('23.0');
      const cases: Array<[unknown, string]> = [
        [12.5, '12.5'],
        ['-0.25', '-0.25'],
        [0, '0.0'],
        ['7', '7.0'],
        [1e21, '1000000000000000000000.0'],
        [0.0000001, '0.0000001'],
      ];
      for (const [sent, shown] of cases) {
        const res = await api().put(`/people/${person.body.id}.json`, { person: { custom_fields: { [personScore.label]: sent } } });
        expect({ sent, status: res.status, shown: res.body.custom_fields?.[personScore.label] }).toEqual({ sent, status: 200, shown });
      }
      // Unset is still null; a form body sends text and reads the same.
      const blank = await api().post('/people.json', { person: { first_name: 'No', last_name: 'Number' } });
      expect(blank.body.custom_fields[personScore.label]).toBeNull();
      const form = await api().post('/companies.json', formEncode({ company: { name: 'Numeric Co', custom_fields: { [companySize.label]: '250' } } }));
      expect(form.status).toBe(200);
      expect(form.body.custom_fields[companySize.label]).toBe('250.0');
      expect((await api().get(`/companies/${form.body.id}.json`)).body.custom_fields[companySize.label]).toBe('250.0');
    });

    it('lists, shows and nested lists alike; currency values stay money; the output is accepted back as input', async () => {
      const company = await fixtures.company(server, key);
      const created = await api().post('/deals.json', {
        deal: { name: 'Seated', company_id: company, custom_fields: { [dealSeats.label]: 30, [dealBudget.label]: 1250 } },
      });
      expect(created.status).toBe(200);
      expect(created.body.custom_fields).toMatchObject({ [dealSeats.label]: '30.0', [dealBudget.label]: '1250.00' });
      const shown = await api().get(`/deals/${created.body.id}.json`);
      const listed = (await api().get('/deals.json', { 'conditions[deal_name]': 'Seated' })).body.entries[0];
      const nested = (await api().get(`/companies/${company}/deals.json`)).body.entries[0];
      for (const record of [shown.body, listed, nested])
        expect(record.custom_fields).toMatchObject({ [dealSeats.label]: '30.0', [dealBudget.label]: '1250.00' });
      // Clients PUT back what they read (DECISIONS: Paths and requests): "30.0" is read as 30.
      const back = await api().put(`/deals/${created.body.id}.json`, { deal: { ...shown.body, name: 'Seated again' } });
      expect(back.status).toBe(200);
      expect(back.body.custom_fields).toEqual(shown.body.custom_fields);
      const [row] = await server.sql<{ v: unknown }>(`select custom_fields->'${dealSeats.label}' as v from deals where id = ?`, [created.body.id]);
      expect(row.v).toBe(30);
    });

    it('GraphQL keeps typed numbers', async () => {
      const res = await api().post('/deals.json', { deal: { name: 'Typed', custom_fields: { [dealSeats.label]: 23 } } });
      const gql = await server.graphql(key, 'query($id: Int!) { deal(id: $id) { customFields { label value numberValue } } }', { id: res.body.id });
      const value = gql.body.data.deal.customFields.find((v: { label: string }) => v.label === dealSeats.label);
      expect(value).toEqual({ label: dealSeats.label, value: 23, numberValue: 23 });
    });

    it('totals=true shows a numeric total like its values ("30.0", "0.0"), a currency total as money', async () => {
      await api().post('/deals.json', { deal: { name: 'Totalled one', custom_fields: { [dealSeats.label]: 10, [dealBudget.label]: '0.5' } } });
      await api().post('/deals.json', { deal: { name: 'Totalled two', custom_fields: { [dealSeats.label]: 20 } } });
      const res = await api().get('/deals.json', { totals: 'true', 'conditions[deal_name]': 'Totalled' });
      expect(res.status).toBe(200);
      expect(res.body.totals).toMatchObject({ [dealSeats.label]: '30.0', [dealBudget.label]: '0.50' });
      const none = await api().get('/deals.json', { totals: 'true', 'conditions[deal_name]': 'nothing at all' });
      expect(none.body.totals).toMatchObject({ [dealSeats.label]: '0.0', [dealBudget.label]: '0.00' });
      // GraphQL's total stays as SQL sums it.
      const gql = await server.graphql(key, '{ deals(filter: { name: { contains: "Totalled" } }) { totals { customFields { label value } } } }');
      expect(gql.body.data.deals.totals.customFields).toEqual(expect.arrayContaining([{ label: dealSeats.label, value: '30' }]));
    });

    it('in an account whose currency has no decimals, currency totals stay whole and numeric ones still show ".0"', async () => {
      const yen = await server.createAccount({ currency: 'JPY' });
      const seats = await seedCustomField(server, yen.accountId, 'deal', 'numeric', 'Seats');
      const budget = await seedCustomField(server, yen.accountId, 'deal', 'currency', 'Budget');
      const created = await api(yen.admin.apiKey).post('/deals.json', { deal: { name: 'Yen', custom_fields: { [seats.label]: 4, [budget.label]: 1250 } } });
      expect(created.body.custom_fields).toMatchObject({ [seats.label]: '4.0', [budget.label]: '1250' });
      const res = await api(yen.admin.apiKey).get('/deals.json', { totals: 'true' });
      expect(res.body.totals).toMatchObject({ value: '0', [seats.label]: '4.0', [budget.label]: '1250' });
    });
  });
});
