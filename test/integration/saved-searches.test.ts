import { Visibility } from '../../src/modules/users/user.entity';
import { fixtures } from '../support/fixtures';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Saved searches (issue 11 §4; DECISIONS: Admin surface: saved searches): who sees which search
 * over v3 and GraphQL, `search_id` on the deals, people and companies lists (stored query and sort,
 * every other parameter but page and per_page ignored, 404 for a search of another list, another
 * user's private one or an unknown one), `deals(searchId:)` giving the same records, validation
 * when saved (nothing written), and changes by the owner only.
 */

const SEARCH = 'databaseId id userId name isShared isDefault searchType query columns order';
const CREATE = `mutation($input: SavedSearchCreateInput!) { createSearch(input: $input) { search { ${SEARCH} } userErrors { field code message } } }`;
const UPDATE = `mutation($id: Int!, $input: SavedSearchUpdateInput!) { updateSearch(id: $id, input: $input) { search { ${SEARCH} } userErrors { field code message } } }`;
const DELETE = 'mutation($id: Int!) { deleteSearch(id: $id) { deletedId deletedDatabaseId userErrors { field code message } } }';

describe('saved searches', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  /** A user who sees only their own records (and searches). */
  let own: { id: number; apiKey: string };
  /** A user who sees every record of the account (but only their own and shared searches). */
  let all: { id: number; apiKey: string };
  /** Another account's admin. */
  let foreign: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York' });
    admin = account.admin.apiKey;
    own = await account.addUser({ isAdmin: false, visibility: Visibility.OWN });
    all = await account.addUser({ isAdmin: false, visibility: Visibility.ALL });
    foreign = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.graphql(key, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  /** Saves a search as `key`'s user; it must be accepted. */
  const save = async (key: string, input: Record<string, unknown>): Promise<any> => {
    const { createSearch } = await gql(key, CREATE, { input: { name: 'A search', searchType: 'DEALS', ...input } });
    expect(createSearch.userErrors).toEqual([]);
    return createSearch.search;
  };
  const refusal = async (key: string, input: Record<string, unknown>) => {
    const { createSearch } = await gql(key, CREATE, { input: { name: 'Refused', searchType: 'DEALS', ...input } });
    expect(createSearch.search).toBeNull();
    return createSearch.userErrors;
  };
  const countSearches = async () => Number((await server.sql('select count(*)::int as n from saved_searches where account_id = ?', [account.accountId]))[0].n);
  const ids = (res: { body: any }) => res.body.entries.map((e: { id: number }) => e.id);
  const names = (res: { body: any }) => res.body.entries.map((e: { name: string }) => e.name);

  describe('who sees which search (v3 /searches.json, /searches/:id.json and GraphQL)', () => {
    let mine: any;
    let shared: any;
    let colleaguesPrivate: any;
    let foreignShared: any;

    beforeAll(async () => {
      mine = await save(own.apiKey, {
        name: 'Own private people',
        searchType: 'PEOPLE',
        query: { person_name: ['ann'] },
        columns: ['first_name', 'last_name'],
        order: '-people.last_name',
      });
      shared = await save(all.apiKey, { name: 'Shared big deals', isShared: true, query: { deal_value: [{ from: '1000' }] } });
      colleaguesPrivate = await save(all.apiKey, { name: 'Colleague private companies', searchType: 'COMPANIES', query: { company_name: ['Acme'] } });
      foreignShared = await save(foreign, { name: 'Foreign shared', isShared: true });
    });

    it('shows an entry in the DECISIONS shape: {id, user_id, name, is_shared, is_default, query, columns, sort, search_type}', async () => {
      const res = await server.v3(own.apiKey).get(`/searches/${mine.databaseId}.json`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: mine.databaseId,
        user_id: own.id,
        name: 'Own private people',
        is_shared: false,
        is_default: false,
        query: { person_name: ['ann'] },
        columns: ['first_name', 'last_name'],
        sort: '-people.last_name',
        search_type: 'people',
      });
    });

    it("a user sees their own searches and the shared ones of their account, never a colleague's private one (admins neither) nor another account's", async () => {
      const listed = async (key: string) => ids(await server.v3(key).get('/searches.json'));
      expect((await listed(own.apiKey)).sort()).toEqual([mine.databaseId, shared.databaseId].sort());
      expect((await listed(all.apiKey)).sort()).toEqual([shared.databaseId, colleaguesPrivate.databaseId].sort());
      expect(await listed(admin)).toEqual([shared.databaseId]);
      expect(await listed(foreign)).toEqual([foreignShared.databaseId]);

      const show = (key: string, id: number) => server.v3(key).get(`/searches/${id}.json`);
      expect((await show(own.apiKey, shared.databaseId)).body.id).toBe(shared.databaseId);
      for (const [key, id] of [
        [own.apiKey, colleaguesPrivate.databaseId],
        [admin, mine.databaseId],
        [admin, colleaguesPrivate.databaseId],
        [foreign, shared.databaseId],
        [admin, foreignShared.databaseId],
        [admin, 999999],
      ] as const) {
        const res = await show(key, id);
        expect({ id, status: res.status, text: res.text }).toEqual({ id, status: 404, text: '' });
      }
      expect((await server.v3(admin).get('/searches/abc.json')).status).toBe(404);
    });

    it('narrows by list with conditions[search_type] or search_type; an unknown list is a 422 naming it', async () => {
      const v3 = server.v3(all.apiKey);
      expect(ids(await v3.get('/searches.json', { 'conditions[search_type]': 'companies' }))).toEqual([colleaguesPrivate.databaseId]);
      expect(ids(await v3.get('/searches.json', { search_type: 'deals' }))).toEqual([shared.databaseId]);
      expect(ids(await v3.get('/searches.json', { search_type: 'notes' }))).toEqual([]);
      const bad = await v3.get('/searches.json', { 'conditions[search_type]': 'tasks' });
      expect(bad.status).toBe(422);
      expect(bad.body[0]).toMatchObject({ field: 'conditions[search_type]', msg: expect.stringContaining('calendar_entries') });
    });

    it('GraphQL: searches(type:), search(id:) and node(id:) follow the same rule', async () => {
      const data = await gql(all.apiKey, `{ searches { totalCount nodes { databaseId } } deals: searches(type: DEALS) { nodes { databaseId } } }`);
      expect(data.searches.totalCount).toBe(2);
      expect(data.deals.nodes).toEqual([{ databaseId: shared.databaseId }]);
      const one = await gql(
        own.apiKey,
        `query($a: Int!, $b: Int!, $n: ID!) { a: search(id: $a) { databaseId userId } b: search(id: $b) { databaseId } n: node(id: $n) { id } }`,
        {
          a: shared.databaseId,
          b: colleaguesPrivate.databaseId,
          n: colleaguesPrivate.id,
        },
      );
      expect(one).toEqual({ a: { databaseId: shared.databaseId, userId: all.id }, b: null, n: null });
      expect((await gql(all.apiKey, 'query($n: ID!) { node(id: $n) { ... on SavedSearch { name } } }', { n: colleaguesPrivate.id })).node).toEqual({
        name: 'Colleague private companies',
      });
    });
  });

  describe('search_id on the lists', () => {
    let deal: Record<string, number>;
    let person: Record<string, number>;
    let company: Record<string, number>;

    beforeAll(async () => {
      const v3 = server.v3(admin);
      company = {};
      for (const name of ['Acme Anvils', 'acme rockets', 'Bolt & Nut', 'The Acme Group'])
        company[name] = (await v3.post('/companies.json', { company: { name, city: name.startsWith('acme') ? 'Phoenix' : 'Lyon' } })).body.id;
      person = {};
      for (const [first, last, companyName] of [
        ['Ann', 'Zeta', 'Acme Anvils'],
        ['Bob', 'Annex', 'Acme Anvils'],
        ['Carl', 'Young', 'Bolt & Nut'],
        ['Hanna', 'Xu', null],
      ] as const) {
        const res = await v3.post('/people.json', {
          person: { first_name: first, last_name: last, ...(companyName ? { company_id: company[companyName] } : {}) },
        });
        expect(res.status).toBe(200);
        person[first] = res.body.id;
      }
      deal = {};
      for (const [name, value, companyName, people] of [
        ['Anvil order', 500, 'Acme Anvils', ['Ann']],
        ['Rocket order', 5000, 'acme rockets', []],
        ['Big bolts', 12000, 'Bolt & Nut', ['Carl', 'Ann']],
        ['Tiny nuts', 50, 'Bolt & Nut', []],
        ['Huge anvils', 30000, 'Acme Anvils', ['Bob']],
      ] as const) {
        const res = await v3.post('/deals.json', { deal: { name, value, company_id: company[companyName], person_ids: people.map((p) => person[p]) } });
        expect(res.status).toBe(200);
        deal[name] = res.body.id;
      }
    });

    it('deals: applies the stored query and sort, ignoring every other parameter but page and per_page', async () => {
      // Ascending value: not the default order (newest first).
      const search = await save(admin, {
        name: 'Deals over 400 with an e, by value',
        query: { deal_value: [{ from: '400' }], deal_name: ['e'] },
        order: 'deals.value',
      });
      const v3 = server.v3(admin);
      const expected = [deal['Anvil order'], deal['Rocket order'], deal['Huge anvils']];
      const res = await v3.get('/deals.json', {
        search_id: search.databaseId,
        'conditions[deal_name]': 'Tiny',
        'conditions[deal_value][to]': 10,
        deal_id: deal['Tiny nuts'],
        user_id: 424242,
        sort: 'deals.name',
        totals: 'true',
        attrs: 'id',
      });
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(expected);
      // No totals, no attrs: whole records.
      expect(Object.keys(res.body)).toEqual(['entries', 'pagination']);
      expect(res.body.entries[2]).toMatchObject({ name: 'Huge anvils', value: '30000.00' });
      expect(res.body.pagination).toMatchObject({ page: 1, per_page: 200, total: 3, pages: 1 });

      const page2 = await v3.get('/deals.json', { search_id: search.databaseId, page: 2, per_page: 2, sort: 'deals.name' });
      expect(ids(page2)).toEqual(expected.slice(2));
      expect(page2.body.pagination).toMatchObject({ page: 2, per_page: 2, total: 3, pages: 2 });

      // The same conditions sent by hand give the same page: one vocabulary.
      const byHand = await v3.get('/deals.json', { 'conditions[deal_value][from]': 400, 'conditions[deal_name]': 'e', sort: 'deals.value' });
      expect(ids(byHand)).toEqual(expected);

      // GraphQL: the same ids, with searchId alone, and its filter and-ed with another one.
      const data = await gql(
        admin,
        'query($s: Int) { deals(searchId: $s) { nodes { databaseId } totalCount } narrowed: deals(searchId: $s, filter: { name: { contains: "anvil" } }) { nodes { databaseId } } byName: deals(searchId: $s, orderBy: [{ field: NAME }]) { nodes { name } } }',
        { s: search.databaseId },
      );
      expect(data.deals.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(expected);
      expect(data.deals.totalCount).toBe(3);
      expect(data.narrowed.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([deal['Anvil order'], deal['Huge anvils']]);
      expect(data.byName.nodes.map((n: { name: string }) => n.name)).toEqual(['Anvil order', 'Huge anvils', 'Rocket order']);
    });

    it('deals nested under a company or a person: the parent still narrows the search', async () => {
      const search = await save(admin, { name: 'Deals with value over 100', query: { deal_value: [{ from: 100 }] }, order: 'deals.name' });
      const v3 = server.v3(admin);
      expect(ids(await v3.get(`/companies/${company['Bolt & Nut']}/deals.json`, { search_id: search.databaseId, 'conditions[deal_name]': 'Tiny' }))).toEqual([
        deal['Big bolts'],
      ]);
      expect(ids(await v3.get(`/people/${person.Ann}/deals.json`, { search_id: search.databaseId }))).toEqual([deal['Anvil order'], deal['Big bolts']]);
      expect((await v3.get(`/companies/999999/deals.json`, { search_id: search.databaseId })).status).toBe(404);
    });

    it("people: applies the stored query and sort; also on a company's people and a deal's people", async () => {
      const search = await save(admin, {
        name: 'Ann-ish',
        searchType: 'PEOPLE',
        query: { person_name: ['ann'], person_type: ['Contact'] },
        order: '-people.last_name',
      });
      const v3 = server.v3(admin);
      const res = await v3.get('/people.json', {
        search_id: search.databaseId,
        'conditions[person_name]': 'Carl',
        company_id: company['Bolt & Nut'],
        sort: 'people.last_name',
        per_page: 2,
      });
      expect(ids(res)).toEqual([person.Ann, person.Hanna]);
      expect(res.body.pagination).toMatchObject({ per_page: 2, total: 3, pages: 2 });
      expect(ids(await v3.get('/people.json', { search_id: search.databaseId, page: 2, per_page: 2 }))).toEqual([person.Bob]);
      expect(ids(await v3.get(`/companies/${company['Acme Anvils']}/people.json`, { search_id: search.databaseId }))).toEqual([person.Ann, person.Bob]);
      expect(ids(await v3.get(`/deals/${deal['Big bolts']}/people.json`, { search_id: search.databaseId }))).toEqual([person.Ann]);
      const data = await gql(admin, 'query($s: Int) { people(searchId: $s) { nodes { databaseId } } }', { s: search.databaseId });
      expect(data.people.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([person.Ann, person.Hanna, person.Bob]);
    });

    it('companies: applies the stored query (prefix matches) and sort', async () => {
      const search = await save(admin, { name: 'Acme', searchType: 'COMPANIES', query: { company_name: ['acme'] }, order: '-companies.name' });
      const res = await server.v3(admin).get('/companies.json', { search_id: search.databaseId, 'conditions[company_city]': 'Lyon', sort: 'name' });
      expect(names(res)).toEqual(['acme rockets', 'Acme Anvils']);
      const data = await gql(admin, 'query($s: Int) { companies(searchId: $s) { nodes { databaseId } } }', { s: search.databaseId });
      expect(data.companies.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(ids(res));
    });

    it('a stored datetime range is read in the zone of the user running it, as conditions[...] are', async () => {
      const search = await save(admin, { name: 'Created in the far future', query: { deal_created: [{ from_date: '2999-01-01' }] } });
      expect(ids(await server.v3(admin).get('/deals.json', { search_id: search.databaseId }))).toEqual([]);
      const recent = await save(admin, {
        name: 'Created since 2020',
        query: { deal_created: [{ from_date: '2020-01-01', to_date: '2999-12-31' }], deal_name: ['nuts'] },
      });
      expect(ids(await server.v3(admin).get('/deals.json', { search_id: recent.databaseId }))).toEqual([deal['Tiny nuts']]);
    });

    it("a search of another list, another user's private search, another account's or an unknown one is a 404; a malformed id a 422 naming search_id", async () => {
      const people = await save(admin, { name: 'People', searchType: 'PEOPLE', isShared: true });
      const notes = await save(admin, { name: 'Notes', searchType: 'NOTES', isShared: true, query: { deal_id: [deal['Big bolts']] } });
      const privateDeals = await save(all.apiKey, { name: 'Private deals' });
      const sharedDeals = await save(all.apiKey, { name: 'Shared deals', isShared: true, query: { deal_name: ['bolts'] } });
      const foreignDeals = await save(foreign, { name: 'Foreign deals', isShared: true });
      const v3 = server.v3(admin);
      const cases: Array<[string, number]> = [
        ['/deals.json', people.databaseId],
        ['/deals.json', notes.databaseId],
        ['/people.json', sharedDeals.databaseId],
        ['/companies.json', people.databaseId],
        ['/deals.json', privateDeals.databaseId],
        ['/deals.json', foreignDeals.databaseId],
        ['/deals.json', 999999],
        [`/companies/${company['Acme Anvils']}/people.json`, sharedDeals.databaseId],
      ];
      for (const [path, id] of cases) {
        const res = await v3.get(path, { search_id: id });
        expect({ path, id, status: res.status, text: res.text }).toEqual({ path, id, status: 404, text: '' });
      }
      // A colleague's shared search runs for the viewer, as the viewer (their visibility).
      expect(ids(await v3.get('/deals.json', { search_id: sharedDeals.databaseId }))).toEqual([deal['Big bolts']]);
      expect(ids(await server.v3(own.apiKey).get('/deals.json', { search_id: sharedDeals.databaseId }))).toEqual([]);

      const malformed = await v3.get('/deals.json', { search_id: 'abc' });
      expect(malformed.status).toBe(422);
      expect(malformed.body).toEqual([{ field: 'search_id', humanized_field: 'Search', msg: 'must be an integer' }]);
      // Blank: no search (the list as asked).
      expect(ids(await v3.get('/deals.json', { search_id: '', 'conditions[deal_name]': 'Tiny' }))).toEqual([deal['Tiny nuts']]);

      for (const [field, id] of [
        ['deals', people.databaseId],
        ['deals', privateDeals.databaseId],
        ['people', 999999],
      ] as const) {
        const res = await server.graphql(admin, `query($s: Int) { ${field}(searchId: $s) { nodes { databaseId } } }`, { s: id });
        expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'searchId', reason: 'NOT_FOUND' });
      }
    });
  });

  describe('validation when saved: nothing is written', () => {
    it('an unknown condition, a bad value, a second value where one is taken, a bad sort: each named', async () => {
      const before = await countSearches();
      expect(await refusal(admin, { query: { deal_name: ['x'], bogus: ['1'], person_name: ['ann'] } })).toEqual([
        { field: ['input', 'query', 'bogus'], code: 'INVALID', message: 'is not a condition of deals searches' },
        { field: ['input', 'query', 'person_name'], code: 'INVALID', message: 'is not a condition of deals searches' },
      ]);
      expect(await refusal(admin, { query: { deal_created: [{ from_date: 'yesterday' }], deal_id: ['x'], deal_value: [{ from: 'ten' }] } })).toEqual([
        { field: ['input', 'query', 'deal_created', 'from_date'], code: 'INVALID', message: 'is not a valid datetime' },
        { field: ['input', 'query', 'deal_id'], code: 'INVALID', message: 'must be an integer' },
        { field: ['input', 'query', 'deal_value', 'from'], code: 'INVALID', message: 'must be a number' },
      ]);
      expect(await refusal(admin, { query: { deal_name: ['a', 'b'] } })).toEqual([
        { field: ['input', 'query', 'deal_name'], code: 'INVALID', message: 'takes one value, not 2' },
      ]);
      expect(await refusal(admin, { query: { deal_name: ['x'.repeat(201)] } })).toEqual([
        { field: ['input', 'query', 'deal_name'], code: 'INVALID', message: 'is too long (maximum is 200 characters)' },
      ]);
      expect(await refusal(admin, { searchType: 'PEOPLE', query: { person_type: ['Robot'] } })).toEqual([
        { field: ['input', 'query', 'person_type'], code: 'INVALID', message: 'must be one of: Lead, Contact' },
      ]);
      expect(await refusal(admin, { searchType: 'CALENDAR_ENTRIES', query: { kind: ['meeting'] } })).toEqual([
        { field: ['input', 'query', 'kind'], code: 'INVALID', message: 'must be one of: task, event' },
      ]);
      expect(await refusal(admin, { query: { custom_label_x: ['1'] } })).toEqual([
        { field: ['input', 'query', 'custom_label_x'], code: 'INVALID', message: 'is not a custom field condition: name it custom_label_<id>' },
      ]);
      expect(await refusal(admin, { order: '-deals.nope' })).toEqual([
        { field: ['input', 'order'], code: 'INVALID', message: 'is not a sortable attribute: -deals.nope' },
      ]);
      expect(await refusal(admin, { order: 'people.last_name' })).toEqual([
        { field: ['input', 'order'], code: 'INVALID', message: 'is not a sortable attribute: people.last_name' },
      ]);
      expect(await refusal(admin, { searchType: 'NOTES', order: 'due_date' })).toEqual([
        { field: ['input', 'order'], code: 'INVALID', message: 'is not a sortable attribute: due_date' },
      ]);
      expect(await refusal(admin, { name: '  ', columns: ['ok', ' '] })).toEqual([
        { field: ['input', 'name'], code: 'BLANK', message: "can't be blank" },
        { field: ['input', 'columns', '1'], code: 'BLANK', message: "can't be blank" },
      ]);
      expect(await refusal(admin, { name: 'n'.repeat(101) })).toEqual([
        { field: ['input', 'name'], code: 'TOO_LONG', message: 'is too long (maximum is 100 characters)' },
      ]);
      expect(await countSearches()).toBe(before);
    });

    it("stores a query canonically: every condition's values as an array; ranges, lists and custom fields in the v3 forms", async () => {
      const search = await save(admin, {
        name: 'Canonical',
        query: { deal_name: 'acme', deal_stage: [1, '2,3'], deal_created: { from_date: '2014-01-01' }, deal_owner: ['all'] },
        columns: ['name', 'value'],
      });
      expect(search.query).toEqual({ deal_name: ['acme'], deal_stage: [1, '2,3'], deal_created: [{ from_date: '2014-01-01' }], deal_owner: ['all'] });
      const [row] = await server.sql('select query, columns, sort, search_type from saved_searches where id = ?', [search.databaseId]);
      expect(row).toEqual({ query: search.query, columns: ['name', 'value'], sort: null, search_type: 'deals' });
      const notes = await save(admin, {
        name: 'Notes of a deal',
        searchType: 'NOTES',
        query: { deal_id: ['1,2'], activity_modified: [{ from_date: '2014-01-01' }] },
        order: '-updated_at',
      });
      expect(notes).toMatchObject({ searchType: 'NOTES', order: '-updated_at' });
      const calendar = await save(admin, { name: 'Late tasks', searchType: 'CALENDAR_ENTRIES', query: { kind: ['task'], late: [true] }, order: 'due_date' });
      expect(calendar.query).toEqual({ kind: ['task'], late: [true] });
    });
  });

  describe('changes: the owner only', () => {
    it("the owner updates (checked again as a whole) and deletes; a colleague's shared search is FORBIDDEN, a private one NOT_FOUND, admins included", async () => {
      const mine = await save(own.apiKey, { name: 'Mine', isShared: true, query: { deal_name: ['a'] } });
      const hidden = await save(own.apiKey, { name: 'Mine, private' });

      const renamed = (await gql(own.apiKey, UPDATE, { id: mine.databaseId, input: { name: 'Renamed', order: 'deals.name' } })).updateSearch;
      expect(renamed).toMatchObject({ userErrors: [], search: { name: 'Renamed', order: 'deals.name', query: { deal_name: ['a'] }, isShared: true } });
      // Another list must take the query and sort kept from before.
      const retyped = (await gql(own.apiKey, UPDATE, { id: mine.databaseId, input: { searchType: 'PEOPLE' } })).updateSearch;
      expect(retyped.userErrors).toEqual([
        { field: ['input', 'query', 'deal_name'], code: 'INVALID', message: 'is not a condition of people searches' },
        { field: ['input', 'order'], code: 'INVALID', message: 'is not a sortable attribute: deals.name' },
      ]);
      const moved = (await gql(own.apiKey, UPDATE, { id: mine.databaseId, input: { searchType: 'PEOPLE', query: { person_name: ['a'] }, order: null } }))
        .updateSearch;
      expect(moved).toMatchObject({ userErrors: [], search: { searchType: 'PEOPLE', query: { person_name: ['a'] }, order: null } });

      for (const key of [admin, all.apiKey]) {
        const forbidden = await server.graphql(key, UPDATE, { id: mine.databaseId, input: { name: 'Hijacked' } });
        expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
        const notDeleted = await server.graphql(key, DELETE, { id: mine.databaseId });
        expect(notDeleted.body.errors[0].extensions.code).toBe('FORBIDDEN');
        expect((await gql(key, UPDATE, { id: hidden.databaseId, input: { name: 'Hijacked' } })).updateSearch.userErrors).toEqual([
          { field: ['id'], code: 'NOT_FOUND', message: expect.any(String) },
        ]);
        expect((await gql(key, DELETE, { id: hidden.databaseId })).deleteSearch).toMatchObject({
          deletedDatabaseId: null,
          userErrors: [{ field: ['id'], code: 'NOT_FOUND' }],
        });
      }
      expect((await gql(foreign, DELETE, { id: mine.databaseId })).deleteSearch.userErrors[0].code).toBe('NOT_FOUND');
      const rows = await server.sql('select name from saved_searches where id = any(?::int[]) order by id', [`{${mine.databaseId},${hidden.databaseId}}`]);
      expect(rows).toEqual([{ name: 'Renamed' }, { name: 'Mine, private' }]);

      const deleted = (await gql(own.apiKey, DELETE, { id: mine.databaseId })).deleteSearch;
      expect(deleted).toEqual({ deletedId: mine.id, deletedDatabaseId: mine.databaseId, userErrors: [] });
      expect((await server.v3(own.apiKey).get(`/searches/${mine.databaseId}.json`)).status).toBe(404);
    });

    it('one default search per owner and list', async () => {
      const first = await save(all.apiKey, { name: 'Default one', isDefault: true });
      const second = await save(all.apiKey, { name: 'Default two', isDefault: true });
      const otherList = await save(all.apiKey, { name: 'Default people', searchType: 'PEOPLE', isDefault: true });
      const colleagues = await save(own.apiKey, { name: 'Colleague default', isDefault: true });
      const rows = await server.sql('select id, is_default from saved_searches where id = any(?::int[]) order by id', [
        `{${first.databaseId},${second.databaseId},${otherList.databaseId},${colleagues.databaseId}}`,
      ]);
      expect(rows.map((r: { is_default: boolean }) => r.is_default)).toEqual([false, true, true, true]);
    });

    it('a search goes with its owner', async () => {
      const leaving = await account.addUser({ visibility: Visibility.ALL });
      const search = await save(leaving.apiKey, { name: 'Soon gone', isShared: true });
      await server.sql('delete from users where id = ?', [leaving.id]);
      expect((await server.v3(admin).get(`/searches/${search.databaseId}.json`)).status).toBe(404);
    });
  });

  it('a fixture search is listed for its account (the shared fixtures make shared searches)', async () => {
    const id = await fixtures.search(server, admin);
    expect(ids(await server.v3(own.apiKey).get('/searches.json', { per_page: 100 }))).toContain(id);
  });
});
