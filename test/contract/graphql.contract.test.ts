import { AccountAdmin } from '../../src/modules/accounts/account.service';
import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * The GraphQL surface shares the core with the v3 facade: the same keys (DECISIONS: Auth and rate
 * limit), typed errors with stable codes (VALIDATION_FAILED with fields, NOT_FOUND, UNAUTHENTICATED),
 * the same visibility. Exercised on companies.
 */

const COMPANIES = `query List($filter: CompanyFilter, $sort: [CompanySort!], $page: PageInput) {
  companies(filter: $filter, sort: $sort, page: $page) {
    entries { id name city ownerId owner { id fullName } createdAt customFields { label value } }
    pagination { page perPage total pages }
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
    for (const [name, city] of [['Alpha Corp', 'Berlin'], ['alpine Ltd', 'Bern'], ['Beta GmbH', 'Berlin'], ['Gamma SA', 'Geneva'], ['Alphabet Inc', 'Boston']]) {
      const res = await server.graphql(key, 'mutation ($input: CompanyInput!) { createCompany(input: $input) { id } }', { input: { name, city } });
      expect(res.body.errors).toBeUndefined();
    }
  }, 60_000);
  afterAll(() => server.close());

  describe('authentication', () => {
    it('gives no data without a key: 401 UNAUTHENTICATED', async () => {
      const res = await server.request('POST', '/graphql', { body: { query: '{ companies { entries { id name } } }' } });
      expect(res.status).toBe(401);
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Unknown api_key', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
      expect(res.text).not.toContain('Alpha');
    });

    it('an unknown key (bearer, X-Api-Key or api_key) is a 401 as well', async () => {
      const attempts: Array<Record<string, string>> = [{ authorization: `Bearer ${'f'.repeat(64)}` }, { 'x-api-key': 'f'.repeat(64) }];
      for (const headers of attempts) {
        const res = await server.request('POST', '/graphql', { body: { query: '{ companies { entries { id } } }' }, headers });
        expect({ status: res.status, code: res.body.errors?.[0]?.extensions?.code, data: res.body.data ?? null }).toEqual({ status: 401, code: 'UNAUTHENTICATED', data: null });
      }
      const viaQuery = await server.request('POST', '/graphql', { body: { query: '{ companies { entries { id } } }' }, query: { api_key: 'f'.repeat(64) } });
      expect(viaQuery.status).toBe(401);
    });

    it('an unknown app_key is a 401 "Unknown app_key"; a registered one is accepted', async () => {
      const bad = await server.graphql(key, '{ companies { pagination { total } } }', undefined, { 'x-app-key': 'a'.repeat(64) });
      expect({ status: bad.status, message: bad.body.errors?.[0]?.message }).toEqual({ status: 401, message: 'Unknown app_key' });
      const appKey = await new AccountAdmin(server.orm.em.fork()).createApp('GraphQL app');
      const good = await server.graphql(key, '{ companies { pagination { total } } }', undefined, { 'x-app-key': appKey });
      expect(good.status).toBe(200);
      expect(good.headers.get('x-ratelimit-limit')).toBe('10000');
    });

    it('answers JSON with the rate-limit headers', async () => {
      const res = await server.graphql(key, '{ companies { pagination { total } } }');
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
      const page1 = await server.graphql(key, COMPANIES, { filter: { name: 'alp' }, page: { page: 1, perPage: 2 } });
      expect(page1.body.errors).toBeUndefined();
      expect(page1.body.data.companies.pagination).toEqual({ page: 1, perPage: 2, total: 3, pages: 2 });
      expect(page1.body.data.companies.entries.map((c: any) => c.name)).toEqual(['Alpha Corp', 'Alphabet Inc']);
      const page2 = await server.graphql(key, COMPANIES, { filter: { name: 'alp' }, page: { page: 2, perPage: 2 } });
      expect(page2.body.data.companies.entries.map((c: any) => c.name)).toEqual(['alpine Ltd']);
      expect(page2.body.data.companies.pagination).toEqual({ page: 2, perPage: 2, total: 3, pages: 2 });
      const byCity = await server.graphql(key, COMPANIES, { filter: { city: 'berlin' }, sort: [{ field: 'NAME', direction: 'DESC' }] });
      expect(byCity.body.data.companies.entries.map((c: any) => c.name)).toEqual(['Beta GmbH', 'Alpha Corp']);
      const entry = page1.body.data.companies.entries[0];
      expect(entry).toEqual({
        id: expect.any(Number),
        name: 'Alpha Corp',
        city: 'Berlin',
        ownerId: account.admin.id,
        owner: { id: account.admin.id, fullName: expect.stringMatching(/^Ada /) },
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), // GraphQL speaks ISO 8601
        customFields: [],
      });
    });

    it('clamps perPage and treats page < 1 as page 1', async () => {
      const res = await server.graphql(key, COMPANIES, { page: { page: 0, perPage: 100000 } });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.companies.pagination).toEqual({ page: 1, perPage: 200, total: 5, pages: 1 });
    });

    it('an own user sees only their companies', async () => {
      const own = await account.addUser({ visibility: Visibility.OWN });
      const res = await server.graphql(own.apiKey, COMPANIES, {});
      expect(res.body.data.companies).toEqual({ entries: [], pagination: { page: 1, perPage: 100, total: 0, pages: 0 } });
    });
  });

  describe('typed errors', () => {
    it('a blank name is VALIDATION_FAILED with the fields, and no data', async () => {
      const res = await server.graphql(key, 'mutation { createCompany(input: {name: "  ", city: "X"}) { id } }');
      expect(res.status).toBe(200);
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0]).toEqual(
        expect.objectContaining({
          message: expect.any(String),
          path: ['createCompany'],
          extensions: { code: 'VALIDATION_FAILED', fields: [{ field: 'name', message: "can't be blank" }] },
        }),
      );
    });

    it('several problems are reported together; a duplicate name is a base problem', async () => {
      const res = await server.graphql(key, `mutation { createCompany(input: {name: "", city: "${'x'.repeat(101)}"}) { id } }`);
      expect(res.body.errors[0].extensions).toEqual({
        code: 'VALIDATION_FAILED',
        fields: expect.arrayContaining([{ field: 'name', message: "can't be blank" }, { field: 'city', message: expect.stringContaining('too long') }]),
      });
      const dup = await server.graphql(key, 'mutation { createCompany(input: {name: "alpha corp"}, options: {checkForDuplicates: true}) { id } }');
      expect(dup.body.errors[0].extensions).toEqual({ code: 'VALIDATION_FAILED', fields: [{ field: 'base', message: expect.stringContaining('alpha corp') }] });
    });

    it('a missing or invisible company is NOT_FOUND, alike', async () => {
      const own = await account.addUser({ visibility: Visibility.OWN });
      const visible = (await server.graphql(key, COMPANIES, { page: { page: 1, perPage: 1 } })).body.data.companies.entries[0];
      const foreignAccount = await server.createAccount();
      const foreign = (await server.graphql(foreignAccount.admin.apiKey, 'mutation { createCompany(input: {name: "F"}) { id } }')).body.data.createCompany.id;
      const cases: Array<[string, number]> = [
        [key, 2_147_483_000],
        [key, foreign],
        [own.apiKey, visible.id],
      ];
      for (const [apiKey, id] of cases) {
        for (const query of [`{ company(id: ${id}) { id name } }`, `mutation { updateCompany(id: ${id}, input: {name: "x"}) { id } }`, `mutation { deleteCompany(id: ${id}) }`]) {
          const res = await server.graphql(apiKey, query);
          expect({ query, data: res.body.data ?? null, errors: res.body.errors }).toEqual({
            query,
            data: null,
            errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })],
          });
          expect(res.text).not.toContain('"name"');
        }
      }
    });

    it('a malformed request is a GraphQL error with a code, never a stack trace', async () => {
      const res = await server.graphql(key, '{ companies(page: {perPage: "many"}) { pagination { total } } }');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toEqual(expect.any(String));
      expect(res.text).not.toMatch(/stacktrace|\\n\s+at /);
    });
  });
});
