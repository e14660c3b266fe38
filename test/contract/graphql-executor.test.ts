import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** /graphql runs on compiled plans (graphql-jit behind Apollo's executor hook): pin what that must keep. */
describe('GraphQL executor', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  it('answers introspection (Apollo Sandbox needs it)', async () => {
    const res = await server.graphql(account.admin.apiKey, '{ __schema { queryType { name } types { name } } }');
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
    expect(res.body.data.__schema.types.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['Person', 'Company', 'Pagination']));
  });

  it('fills input-object defaults a variable leaves out, on every run of a cached plan', async () => {
    const mutation = 'mutation($input: CompanyInput!, $options: CompanyCreateOptions) { createCompany(input: $input, options: $options) { id name } }';
    for (const name of ['Twice Co', 'Twice Co']) {
      const res = await server.graphql(account.admin.apiKey, mutation, { input: { name }, options: {} });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.createCompany.name).toBe(name);
    }
    const dup = await server.graphql(account.admin.apiKey, mutation, { input: { name: 'Twice Co' }, options: { checkForDuplicates: true } });
    expect(dup.body.errors[0].extensions).toEqual({ code: 'VALIDATION_FAILED', fields: [{ field: 'base', message: expect.stringContaining('Twice Co') }] });
  });

  it('keeps enum inputs and outputs by name, and domain error codes', async () => {
    const created = await server.graphql(account.admin.apiKey, 'mutation($t: PersonType) { createPerson(input: { lastName: "Enum", type: $t }) { id type } }', { t: 'LEAD' });
    expect(created.body.data.createPerson.type).toBe('LEAD');
    const sorted = await server.graphql(account.admin.apiKey, '{ people(sort: [{ field: CREATED_AT, direction: DESC }]) { entries { id } } }');
    expect(sorted.body.data.people.entries[0].id).toBe(created.body.data.createPerson.id);
    const missing = await server.graphql(account.admin.apiKey, '{ person(id: 2147483647) { id } }');
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('rejects a badly typed variable with a client error, not a 500', async () => {
    const res = await server.graphql(account.admin.apiKey, 'query($id: Int!) { company(id: $id) { id } }', { id: 'abc' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].message).toMatch(/\$id/);
  });
});

describe('GraphQL paging defaults', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  it('uses each list’s own default per page when perPage is left out (admin lists 200, others 100)', async () => {
    const res = await server.graphql(key, '{ leadStatuses(page: { page: 1 }) { pagination { perPage } } companies(page: { page: 1 }) { pagination { perPage } } }');
    expect(res.body.data).toEqual({ leadStatuses: { pagination: { perPage: 200 } }, companies: { pagination: { perPage: 100 } } });
  });
});
