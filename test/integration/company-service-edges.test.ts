import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * CompanyService behaviour the other company tests leave open (found by mutation testing):
 * filters by owner and import time, trimmed and blank text filters, NUL-only names, the update
 * time of an imported record and what the reassignment email records.
 */
describe('company service edges (GraphQL)', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    key = account.admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  async function gql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
    const res = await server.graphql(key, query, variables);
    return res.body;
  }

  const CREATE =
    'mutation($input: CompanyCreateInput!) { createCompany(input: $input) { company { id: databaseId name createdAt updatedAt } userErrors { field code message } } }';
  const UPDATE =
    'mutation($id: Int!, $input: CompanyUpdateInput!) { updateCompany(id: $id, input: $input) { company { name ownerId } userErrors { field code message } } }';
  const LIST = 'query($filter: CompanyFilter) { companies(filter: $filter, first: 100) { nodes { name } } }';
  const names = async (filter: Record<string, unknown>) =>
    ((await gql(LIST, { filter })).data.companies.nodes as Array<{ name: string }>).map((c) => c.name).sort();

  describe('list filters', () => {
    let olga: { id: number };

    beforeAll(async () => {
      olga = await account.addUser({ firstName: 'Olga' });
      for (const input of [
        { name: 'Edge Alpha', email: 'alpha@edge.test', phone1: '555 0100' },
        { name: 'Edge Beta', ownerId: olga.id },
        { name: 'Edge Gamma', email: 'gamma@edge.test' },
      ]) {
        expect((await gql(CREATE, { input })).data.createCompany.userErrors).toEqual([]);
      }
      await server.sql("update companies set imported_at = '2014-05-01T00:00:00Z' where account_id = ? and name = 'Edge Gamma'", [account.accountId]);
    });

    it('filters by owner', async () => {
      expect(await names({ ownerId: { eq: olga.id } })).toEqual(['Edge Beta']);
      expect(await names({ ownerId: { in: [olga.id, account.admin.id] }, name: { startsWith: 'edge' } })).toEqual(['Edge Alpha', 'Edge Beta', 'Edge Gamma']);
    });

    it('filters by import time', async () => {
      expect(await names({ importedAt: { gte: '2014-04-30T00:00:00Z', lte: '2014-05-02T00:00:00Z' } })).toEqual(['Edge Gamma']);
      expect(await names({ importedAt: { isNull: false } })).toEqual(['Edge Gamma']);
    });

    it('matches prefixes ignoring case, on any of the phones, as given (the v3 facade trims its conditions)', async () => {
      expect(await names({ name: { startsWith: 'edge al' } })).toEqual(['Edge Alpha']);
      expect(await names({ email: { startsWith: 'GAMMA@' } })).toEqual(['Edge Gamma']);
      expect(await names({ anyPhone: { startsWith: '555 01' } })).toEqual(['Edge Alpha']);
      expect(await names({ name: { startsWith: ' edge' } })).toEqual([]);
    });

    it('an empty prefix matches every record with a value; isNull finds those without', async () => {
      expect(await names({ name: { startsWith: 'edge' }, email: { startsWith: '' } })).toEqual(['Edge Alpha', 'Edge Gamma']);
      expect(await names({ name: { startsWith: 'edge' }, email: { isNull: true } })).toEqual(['Edge Beta']);
    });
  });

  it('refuses a name of NUL characters only as blank, on create and update', async () => {
    const created = await gql(CREATE, { input: { name: '\u0000\u0000' } });
    expect(created.data.createCompany.userErrors).toEqual([{ field: ['input', 'name'], code: 'BLANK', message: "can't be blank" }]);

    const { id } = (await gql(CREATE, { input: { name: 'Nul Target' } })).data.createCompany.company;
    const updated = await gql(UPDATE, { id, input: { name: '\u0000' } });
    expect(updated.data.updateCompany.userErrors).toEqual([{ field: ['input', 'name'], code: 'BLANK', message: "can't be blank" }]);
    const stored = await server.sql<{ name: string }>('select name from companies where id = ?', [id]);
    expect(stored).toEqual([{ name: 'Nul Target' }]);
  });

  it('an imported company is last updated when it was created, unless the import says otherwise', async () => {
    const imported = (await gql(CREATE, { input: { name: 'Imported', createdAt: '2014-05-01T10:00:00.000Z' } })).data.createCompany.company;
    expect(imported).toMatchObject({ createdAt: '2014-05-01T10:00:00.000Z', updatedAt: '2014-05-01T10:00:00.000Z' });

    const both = await gql(CREATE, { input: { name: 'Imported Both', createdAt: '2014-05-01T10:00:00.000Z', updatedAt: '2014-06-01T10:00:00.000Z' } });
    expect(both.data.createCompany.company).toMatchObject({ createdAt: '2014-05-01T10:00:00.000Z', updatedAt: '2014-06-01T10:00:00.000Z' });

    const fresh = (await gql(CREATE, { input: { name: 'Fresh' } })).data.createCompany.company;
    expect(fresh.updatedAt).toBe(fresh.createdAt);
    expect(Date.now() - Date.parse(fresh.createdAt)).toBeLessThan(60_000);
  });

  it('a null createdAt leaves the creation time to the server', async () => {
    const res = await gql(CREATE, { input: { name: 'Null Created', createdAt: null } });
    expect(res.errors).toBeUndefined();
    expect(Date.now() - Date.parse(res.data.createCompany.company.createdAt)).toBeLessThan(60_000);
  });

  it('the reassignment email records the company and who reassigned it', async () => {
    const petra = await account.addUser({ firstName: 'Petra' });
    const { id } = (await gql(CREATE, { input: { name: 'Handed Over' } })).data.createCompany.company;
    const res = await gql(UPDATE, { id, input: { ownerId: petra.id } });
    expect(res.data.updateCompany).toEqual({ company: { name: 'Handed Over', ownerId: petra.id }, userErrors: [] });
    const mails = await server.sql(
      'select recipient_id, kind, subject_type, subject_id, payload from outbox_messages where account_id = ? and subject_id = ?',
      [account.accountId, id],
    );
    expect(mails).toEqual([
      { recipient_id: petra.id, kind: 'company_reassignment', subject_type: 'Company', subject_id: id, payload: { byUserId: account.admin.id } },
    ]);
  });
});
