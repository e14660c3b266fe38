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
    expect(res.body.data.__schema.types.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['Person', 'Company', 'PersonConnection', 'PageInfo', 'Node']),
    );
  });

  it('fills input-object defaults a variable leaves out, on every run of a cached plan', async () => {
    const mutation =
      'mutation($input: CompanyCreateInput!, $options: CompanyCreateOptions) { createCompany(input: $input, options: $options) { company { name } userErrors { field code message } } }';
    for (const name of ['Twice Co', 'Twice Co']) {
      const res = await server.graphql(account.admin.apiKey, mutation, { input: { name }, options: {} });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.createCompany.company.name).toBe(name);
    }
    const dup = await server.graphql(account.admin.apiKey, mutation, { input: { name: 'Twice Co' }, options: { checkForDuplicates: true } });
    expect(dup.body.data.createCompany.userErrors).toEqual([{ field: null, code: 'DUPLICATE', message: expect.stringContaining('Twice Co') }]);
  });

  it('keeps enum inputs and outputs by name, also inside a filter variable (coerced before jit runs it)', async () => {
    const created = await server.graphql(
      account.admin.apiKey,
      'mutation($t: PersonType) { createPerson(input: { lastName: "Enum", type: $t }) { person { id type } } }',
      { t: 'LEAD' },
    );
    expect(created.body.data.createPerson.person.type).toBe('LEAD');
    const sorted = await server.graphql(account.admin.apiKey, '{ people(orderBy: [{ field: CREATED_AT, direction: DESC }]) { nodes { id } } }');
    expect(sorted.body.data.people.nodes[0].id).toBe(created.body.data.createPerson.person.id);
    const filtered = await server.graphql(account.admin.apiKey, 'query($f: PersonFilter) { people(filter: $f) { nodes { id } } }', {
      f: { or: [{ type: { eq: 'LEAD' } }], createdAt: { gte: '2000-01-01T00:00:00Z' } },
    });
    expect(filtered.body.data.people.nodes).toEqual([{ id: created.body.data.createPerson.person.id }]);
    const badEnum = await server.graphql(account.admin.apiKey, 'query($f: PersonFilter) { people(filter: $f) { nodes { id } } }', {
      f: { or: [{ type: { eq: 'CLIENT' } }] },
    });
    expect(badEnum.status).toBe(400);
    expect(badEnum.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const missing = await server.graphql(account.admin.apiKey, '{ person(id: 2147483647) { id } }');
    expect(missing.body).toEqual({ data: { person: null }, extensions: expect.anything() });
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
  let account: TestAccount;
  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  it('uses each list’s own default page size when first/perPage are left out (admin lists 200, others 100)', async () => {
    await server.sql(
      `insert into companies (account_id, name, custom_fields, created_at, updated_at) select ?, 'Co ' || g, '{}', now(), now() from generate_series(1, 150) g`,
      [account.accountId],
    );
    await server.sql(
      `insert into list_items (account_id, kind, name, position, created_at, updated_at) select ?, 'lead_status', 'Status ' || g, 100 + g, now(), now() from generate_series(1, 210) g`,
      [account.accountId],
    );
    const res = await server.graphql(account.admin.apiKey, '{ leadStatuses { nodes { id } totalCount } companies { nodes { id } totalCount } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.companies.totalCount).toBe(150);
    expect(res.body.data.companies.nodes).toHaveLength(100);
    expect(res.body.data.leadStatuses.totalCount).toBeGreaterThan(210);
    expect(res.body.data.leadStatuses.nodes).toHaveLength(200);
  });
});
