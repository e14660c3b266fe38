import { AccountAdmin } from '../../src/modules/accounts/account.service';
import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * The GraphQL surface shares the core with the v3 facade: the same keys (DECISIONS: Auth and rate
 * limit), typed errors with stable codes (VALIDATION_FAILED with fields, NOT_FOUND, UNAUTHENTICATED),
 * the same visibility. Exercised on companies.
 */

const COMPANIES = `query List($filter: CompanyFilter, $orderBy: [CompanyOrder!], $page: Int, $perPage: Int) {
  companies(filter: $filter, orderBy: $orderBy, page: $page, perPage: $perPage) {
    nodes { databaseId name city ownerId owner { databaseId fullName } createdAt customFields { label value } }
    totalCount
    pageInfo { hasNextPage hasPreviousPage }
  }
}`;

describe('GraphQL contract', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York' });
    key = account.admin.apiKey;
    for (const [name, city] of [
      ['Alpha Corp', 'Berlin'],
      ['alpine Ltd', 'Bern'],
      ['Beta GmbH', 'Berlin'],
      ['Gamma SA', 'Geneva'],
      ['Alphabet Inc', 'Boston'],
    ]) {
      const res = await server.graphql(key, 'mutation ($input: CompanyCreateInput!) { createCompany(input: $input) { company { id } } }', {
        input: { name, city },
      });
      expect(res.body.errors).toBeUndefined();
    }
  }, 60_000);
  afterAll(() => server.close());

  describe('authentication', () => {
    it('gives no data without a key: 401 UNAUTHENTICATED', async () => {
      const res = await server.request('POST', '/graphql', { body: { query: '{ companies { nodes { id name } } }' } });
      expect(res.status).toBe(401);
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: 'Unknown api_key', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }),
      ]);
      expect(res.text).not.toContain('Alpha');
    });

    it('an unknown key (bearer, X-Api-Key or api_key) is a 401 as well', async () => {
      const attempts: Array<Record<string, string>> = [{ authorization: `Bearer ${'f'.repeat(64)}` }, { 'x-api-key': 'f'.repeat(64) }];
      for (const headers of attempts) {
        const res = await server.request('POST', '/graphql', { body: { query: '{ companies { nodes { id } } }' }, headers });
        expect({ status: res.status, code: res.body.errors?.[0]?.extensions?.code, data: res.body.data ?? null }).toEqual({
          status: 401,
          code: 'UNAUTHENTICATED',
          data: null,
        });
      }
      const viaQuery = await server.request('POST', '/graphql', { body: { query: '{ companies { nodes { id } } }' }, query: { api_key: 'f'.repeat(64) } });
      expect(viaQuery.status).toBe(401);
    });

    it('an unknown app_key is a 401 "Unknown app_key"; a registered one is accepted', async () => {
      const bad = await server.graphql(key, '{ companies { totalCount } }', undefined, { 'x-app-key': 'a'.repeat(64) });
      expect({ status: bad.status, message: bad.body.errors?.[0]?.message }).toEqual({ status: 401, message: 'Unknown app_key' });
      const appKey = await new AccountAdmin(server.orm.em.fork()).createApp('GraphQL app');
      const good = await server.graphql(key, '{ companies { totalCount } }', undefined, { 'x-app-key': appKey });
      expect(good.status).toBe(200);
      expect(good.headers.get('x-ratelimit-limit')).toBe('10000');
    });

    it('answers JSON with the rate-limit headers', async () => {
      const res = await server.graphql(key, '{ companies { totalCount } }');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    });
  });

  describe('companies query', () => {
    it('filters (case-insensitive prefix) and paginates', async () => {
      const page1 = await server.graphql(key, COMPANIES, { filter: { name: { startsWith: 'alp' } }, page: 1, perPage: 2 });
      expect(page1.body.errors).toBeUndefined();
      expect(page1.body.data.companies.totalCount).toBe(3);
      expect(page1.body.data.companies.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
      expect(page1.body.data.companies.nodes.map((c: any) => c.name)).toEqual(['Alpha Corp', 'Alphabet Inc']);
      const page2 = await server.graphql(key, COMPANIES, { filter: { name: { startsWith: 'alp' } }, page: 2, perPage: 2 });
      expect(page2.body.data.companies.nodes.map((c: any) => c.name)).toEqual(['alpine Ltd']);
      expect(page2.body.data.companies.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
      const byCity = await server.graphql(key, COMPANIES, { filter: { city: { startsWith: 'berlin' } }, orderBy: [{ field: 'NAME', direction: 'DESC' }] });
      expect(byCity.body.data.companies.nodes.map((c: any) => c.name)).toEqual(['Beta GmbH', 'Alpha Corp']);
      const entry = page1.body.data.companies.nodes[0];
      expect(entry).toEqual({
        databaseId: expect.any(Number),
        name: 'Alpha Corp',
        city: 'Berlin',
        ownerId: account.admin.id,
        owner: { databaseId: account.admin.id, fullName: expect.stringMatching(/^Ada /) },
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), // GraphQL speaks ISO 8601
        customFields: [],
      });
    });

    it('clamps perPage and refuses a page below 1, naming it', async () => {
      const res = await server.graphql(key, COMPANIES, { page: 1, perPage: 100000 });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.companies.nodes).toHaveLength(5);
      const zero = await server.graphql(key, COMPANIES, { page: 0 });
      expect(zero.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'page' });
    });

    it('an own user sees only their companies', async () => {
      const own = await account.addUser({ visibility: Visibility.OWN });
      const res = await server.graphql(own.apiKey, COMPANIES, {});
      expect(res.body.data.companies).toEqual({ nodes: [], totalCount: 0, pageInfo: { hasNextPage: false, hasPreviousPage: false } });
    });
  });

  describe('user errors and top-level errors', () => {
    it('a blank name is a BLANK user error on the field, and nothing is created', async () => {
      const res = await server.graphql(key, 'mutation { createCompany(input: {name: "  ", city: "X"}) { company { id } userErrors { field code message } } }');
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.createCompany).toEqual({ company: null, userErrors: [{ field: ['input', 'name'], code: 'BLANK', message: "can't be blank" }] });
      expect(await server.sql(`select id from companies where city = 'X'`)).toEqual([]);
    });

    it('several problems are reported together; a duplicate name is a problem of the record', async () => {
      const res = await server.graphql(
        key,
        `mutation { createCompany(input: {name: "", city: "${'x'.repeat(101)}"}) { company { id } userErrors { field code message } } }`,
      );
      expect(res.body.data.createCompany.userErrors).toEqual(
        expect.arrayContaining([
          { field: ['input', 'name'], code: 'BLANK', message: "can't be blank" },
          { field: ['input', 'city'], code: 'TOO_LONG', message: expect.stringContaining('too long') },
        ]),
      );
      const dup = await server.graphql(
        key,
        'mutation { createCompany(input: {name: "alpha corp"}, options: {checkForDuplicates: true}) { company { id } userErrors { field code message } } }',
      );
      expect(dup.body.data.createCompany.userErrors).toEqual([{ field: null, code: 'DUPLICATE', message: expect.stringContaining('alpha corp') }]);
    });

    it('a missing or invisible company is null on lookup and a NOT_FOUND user error on writes, alike', async () => {
      const own = await account.addUser({ visibility: Visibility.OWN });
      const visible = (await server.graphql(key, COMPANIES, { page: 1, perPage: 1 })).body.data.companies.nodes[0];
      const foreignAccount = await server.createAccount();
      const foreign = (await server.graphql(foreignAccount.admin.apiKey, 'mutation { createCompany(input: {name: "F"}) { company { databaseId } } }')).body.data
        .createCompany.company.databaseId;
      const cases: Array<[string, number]> = [
        [key, 2_147_483_000],
        [key, foreign],
        [own.apiKey, visible.databaseId],
      ];
      for (const [apiKey, id] of cases) {
        const lookup = await server.graphql(apiKey, `{ company(id: ${id}) { id name } }`);
        expect({ id, body: lookup.body.data }).toEqual({ id, body: { company: null } });
        const update = await server.graphql(apiKey, `mutation { updateCompany(id: ${id}, input: {name: "x"}) { company { name } userErrors { field code } } }`);
        expect(update.body.data.updateCompany).toEqual({ company: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] });
        const del = await server.graphql(apiKey, `mutation { deleteCompany(id: ${id}) { deletedId userErrors { field code } } }`);
        expect(del.body.data.deleteCompany).toEqual({ deletedId: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] });
      }
    });

    it('a malformed request is a GraphQL error with a code, never a stack trace', async () => {
      const res = await server.graphql(key, '{ companies(first: "many") { totalCount } }');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toEqual(expect.any(String));
      expect(res.text).not.toMatch(/stacktrace|\\n\s+at /);
    });
  });
});
