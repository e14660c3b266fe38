import { fixtures } from '../support/fixtures';
import { openServerWithAccount, type TestServer } from '../support/test-server';

/**
 * Boundaries a small slip in the core would move without any other test noticing: like-matches
 * that take `\`, `%` and `_` literally, inclusive range bounds (and the facade widening an upper
 * bound to the unit it names), and duplicate checks confined to the viewer's account.
 */
describe('boundaries', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    ({ server, key } = await openServerWithAccount());
  }, 60_000);
  afterAll(() => server.close());

  const v3Ids = async (path: string, query: Record<string, string | number>) => {
    const res = await server.v3(key).get(path, { per_page: 100, ...query });
    expect(res.status).toBe(200);
    return (res.body.entries as Array<{ id: number }>).map((e) => e.id).sort((a, b) => a - b);
  };
  const gqlIds = async (field: 'people' | 'companies', filter: Record<string, unknown>) => {
    const res = await server.graphql(
      key,
      `query($filter: ${field === 'people' ? 'PersonFilter' : 'CompanyFilter'}) { ${field}(filter: $filter, first: 100) { nodes { databaseId } } }`,
      { filter },
    );
    expect(res.body.errors).toBeUndefined();
    return (res.body.data[field].nodes as Array<{ databaseId: number }>).map((e) => e.databaseId).sort((a, b) => a - b);
  };

  describe('like-matches take \\, % and _ literally', () => {
    // Each case: a name holding the special character, a name the unescaped pattern would also match, the search.
    const CASES = [
      { special: 'Back\\slash', decoy: 'Backslash', search: 'k\\s', prefix: 'back\\s' },
      { special: 'Fifty% Off', decoy: 'Fifty Off', search: 'y% O', prefix: 'fifty%' },
      { special: 'Under_Score', decoy: 'UnderXScore', search: 'r_S', prefix: 'under_' },
    ];

    it.each(CASES)('people: conditions[person_name]=$search finds $special only (v3 and GraphQL)', async ({ special, decoy, search }) => {
      const tag = `L${Math.random().toString(36).slice(2, 8)}`;
      const hit = await fixtures.person(server, key, { firstName: tag, lastName: special });
      await fixtures.person(server, key, { firstName: tag, lastName: decoy });
      expect(await v3Ids('/people.json', { 'conditions[person_name]': search, 'conditions[person_full_name]': tag })).toEqual([hit]);
      expect(await gqlIds('people', { name: { contains: search }, and: [{ name: { contains: tag } }] })).toEqual([hit]);
    });

    it.each(CASES)('companies: conditions[company_name]=$prefix (a prefix) finds $special only (v3 and GraphQL)', async ({ special, decoy, prefix }) => {
      const other = await server.createAccount();
      const own = other.admin.apiKey;
      const hit = await fixtures.company(server, own, { name: `${special} Co` });
      await fixtures.company(server, own, { name: `${decoy} Co` });
      const res = await server.v3(own).get('/companies.json', { 'conditions[company_name]': prefix });
      expect(res.body.entries.map((e: { id: number }) => e.id)).toEqual([hit]);
      const gql = await server.graphql(own, 'query($name: String) { companies(filter: {name: {startsWith: $name}}) { nodes { databaseId } } }', {
        name: prefix,
      });
      expect(gql.body.data.companies.nodes).toEqual([{ databaseId: hit }]);
    });

    it('a company-name condition on people takes a backslash literally too', async () => {
      const other = await server.createAccount();
      const own = other.admin.apiKey;
      const slash = await fixtures.company(server, own, { name: 'Sl\\ash Ltd' });
      const plain = await fixtures.company(server, own, { name: 'Slash Ltd' });
      const hit = await fixtures.person(server, own, { lastName: 'Worker', companyId: slash });
      await fixtures.person(server, own, { lastName: 'Worker', companyId: plain });
      const res = await server.v3(own).get('/people.json', { 'conditions[person_company_name]': 'l\\a' });
      expect(res.body.entries.map((e: { id: number }) => e.id)).toEqual([hit]);
      const search = await server.v3(own).get('/people.json', { 'conditions[person_simple_search]': 'l\\a' });
      expect(search.body.entries.map((e: { id: number }) => e.id)).toEqual([hit]);
    });
  });

  describe('datetime ranges are inclusive at both ends', () => {
    // Stored times keep milliseconds; one record sits exactly on the bound, two just either side.
    const AT = '2014-05-31T10:00:00.123Z';
    const BEFORE = '2014-05-31T10:00:00.122Z';
    const AFTER = '2014-05-31T10:00:00.124Z';

    async function stamped(table: 'people' | 'companies'): Promise<{ before: number; at: number; after: number; ids: number[] }> {
      const make = table === 'people' ? fixtures.person : fixtures.company;
      const other = await server.createAccount();
      const own = other.admin.apiKey;
      const ids: number[] = [];
      for (const time of [BEFORE, AT, AFTER]) {
        const id = await make(server, own);
        await server.sql(`update ${table} set created_at = ?, updated_at = ? where id = ?`, [time, time, id]);
        ids.push(id);
      }
      keyOf.set(ids[0], own);
      return { before: ids[0], at: ids[1], after: ids[2], ids };
    }
    const keyOf = new Map<number, string>();

    it.each([
      ['people', 'person_created', 'person_modified'],
      ['companies', 'company_created', 'company_modified'],
    ] as const)('%s: a bound equal to a stored time keeps that record (GraphQL and v3, from and to)', async (table, created, modified) => {
      const r = await stamped(table);
      const own = keyOf.get(r.before)!;
      const gql = async (filter: Record<string, unknown>) => {
        const res = await server.graphql(
          own,
          `query($filter: ${table === 'people' ? 'PersonFilter' : 'CompanyFilter'}) { ${table}(filter: $filter) { nodes { databaseId } } }`,
          { filter },
        );
        return (res.body.data[table].nodes as Array<{ databaseId: number }>).map((e) => e.databaseId).sort((a, b) => a - b);
      };
      expect(await gql({ createdAt: { lte: AT } })).toEqual([r.before, r.at]);
      expect(await gql({ createdAt: { gte: AT } })).toEqual([r.at, r.after]);
      expect(await gql({ createdAt: { gte: AT, lte: AT } })).toEqual([r.at]);
      expect(await gql({ createdAt: { eq: AT } })).toEqual([r.at]);
      expect(await gql({ createdAt: { gt: AT } })).toEqual([r.after]);
      expect(await gql({ createdAt: { lt: AT } })).toEqual([r.before]);
      expect(await gql({ updatedAt: { gte: AT, lte: AT } })).toEqual([r.at]);

      const v3 = async (query: Record<string, string>) => {
        const res = await server.v3(own).get(`/${table}.json`, query);
        expect(res.status).toBe(200);
        return (res.body.entries as Array<{ id: number }>).map((e) => e.id).sort((a, b) => a - b);
      };
      // A bound to the millisecond is taken as given.
      expect(await v3({ [`conditions[${created}][to_date]`]: AT })).toEqual([r.before, r.at]);
      expect(await v3({ [`conditions[${created}][from_date]`]: AT })).toEqual([r.at, r.after]);
      expect(await v3({ [`conditions[${modified}][from_date]`]: AT, [`conditions[${modified}][to_date]`]: AT })).toEqual([r.at]);
    });

    it.each([
      ['people', 'person_created'],
      ['companies', 'company_created'],
    ] as const)('%s: a v3 upper bound covers the whole unit it names (a day, a printed second), and no more', async (table, created) => {
      const other = await server.createAccount({ timeZone: 'America/New_York' });
      const own = other.admin.apiKey;
      const make = table === 'people' ? fixtures.person : fixtures.company;
      // New York is UTC-4 in May: the local day 2014-05-31 ends at 2014-06-01 03:59:59.999 UTC.
      const times = {
        lastMs: '2014-06-01T03:59:59.999Z',
        nextDay: '2014-06-01T04:00:00.000Z',
        inSecond: '2014-05-31T14:00:05.999Z',
        nextSecond: '2014-05-31T14:00:06.000Z',
      };
      const ids: Record<string, number> = {};
      for (const [name, time] of Object.entries(times)) {
        ids[name] = await make(server, own);
        await server.sql(`update ${table} set created_at = ? where id = ?`, [time, ids[name]]);
      }
      const v3 = async (to: string, from = '2014-05-01') => {
        const res = await server.v3(own).get(`/${table}.json`, { [`conditions[${created}][from_date]`]: from, [`conditions[${created}][to_date]`]: to });
        expect(res.status).toBe(200);
        return (res.body.entries as Array<{ id: number }>).map((e) => e.id).sort((a, b) => a - b);
      };
      const sorted = (...xs: number[]) => xs.sort((a, b) => a - b);
      expect(await v3('2014-05-31')).toEqual(sorted(ids.lastMs, ids.inSecond, ids.nextSecond));
      expect(await v3('2014/05/31')).toEqual(sorted(ids.lastMs, ids.inSecond, ids.nextSecond));
      // The service's own datetime output, to the second, covers that whole second.
      expect(await v3('2014/05/31 10:00:05 -0400')).toEqual([ids.inSecond]);
      expect(await v3('2014-05-31 10:00:05')).toEqual([ids.inSecond]);
      // A from bound is not widened: it starts at the instant it names.
      expect(await v3('2014-06-01', '2014/05/31 10:00:06 -0400')).toEqual(sorted(ids.lastMs, ids.nextSecond, ids.nextDay));
    });
  });

  describe('check_for_duplicates looks in the viewer’s account only', () => {
    it('a company of the same name in another account is no duplicate (v3 and GraphQL); one in the same account is', async () => {
      const other = await server.createAccount();
      const name = `Twin ${Math.random().toString(36).slice(2, 8)}`;
      await fixtures.company(server, other.admin.apiKey, { name });

      const created = await server.v3(key).post('/companies.json', { company: { name } }, { check_for_duplicates: 'true' });
      expect(created.status).toBe(200);
      expect(created.body.name).toBe(name);

      const again = await server.v3(key).post('/companies.json', { company: { name: name.toUpperCase() } }, { check_for_duplicates: 'true' });
      expect(again.status).toBe(422);
      expect(again.body).toEqual([{ field: 'base', humanized_field: 'Base', msg: expect.stringContaining(name.toUpperCase()) }]);

      // The other account, in turn, still sees only its own one.
      const gql = await server.graphql(
        other.admin.apiKey,
        'mutation($name: String!) { createCompany(input: {name: $name}, options: {checkForDuplicates: true}) { company { id } userErrors { code } } }',
        { name: `${name} 2` },
      );
      expect(gql.body.data.createCompany.userErrors).toEqual([]);
      const third = await server.createAccount();
      const fresh = await server.graphql(
        third.admin.apiKey,
        'mutation($name: String!) { createCompany(input: {name: $name}, options: {checkForDuplicates: true}) { company { name } userErrors { code } } }',
        { name },
      );
      expect(fresh.body).toEqual({
        data: { createCompany: { company: { name }, userErrors: [] } },
        extensions: { cost: { requested: 1, charged: 1, remaining: expect.any(Number) } },
      });
      const dup = await server.graphql(
        third.admin.apiKey,
        'mutation($name: String!) { createCompany(input: {name: $name}, options: {checkForDuplicates: true}) { company { id } userErrors { code } } }',
        { name },
      );
      expect(dup.body.data.createCompany).toEqual({ company: null, userErrors: [{ code: 'DUPLICATE' }] });
      // Without the flag, a same-name company is fine.
      const plain = await server.v3(key).post('/companies.json', { company: { name } });
      expect(plain.status).toBe(200);
    });
  });
});
