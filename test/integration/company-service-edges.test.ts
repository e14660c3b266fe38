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

  const CREATE = 'mutation($input: CompanyCreateInput!) { createCompany(input: $input) { id name createdAt updatedAt } }';
  const LIST = 'query($filter: CompanyFilter) { companies(filter: $filter, first: 100) { nodes { name } } }';
  const names = async (filter: Record<string, unknown>) => ((await gql(LIST, { filter })).data.companies.entries as Array<{ name: string }>).map((c) => c.name).sort();

  describe('list filters', () => {
    let olga: { id: number };

    beforeAll(async () => {
      olga = await account.addUser({ firstName: 'Olga' });
      for (const input of [
        { name: 'Edge Alpha', email: 'alpha@edge.test', phone1: '555 0100' },
        { name: 'Edge Beta', ownerId: olga.id },
        { name: 'Edge Gamma', email: 'gamma@edge.test' },
      ]) {
        expect((await gql(CREATE, { input })).errors).toBeUndefined();
      }
      await server.sql("update companies set imported_at = '2014-05-01T00:00:00Z' where account_id = ? and name = 'Edge Gamma'", [account.accountId]);
    });

    it('filters by owner', async () => {
      expect(await names({ ownerIds: [olga.id] })).toEqual(['Edge Beta']);
    });

    it('filters by import time', async () => {
      expect(await names({ importedAt: { from: '2014-04-30T00:00:00Z', to: '2014-05-02T00:00:00Z' } })).toEqual(['Edge Gamma']);
    });

    it('trims text filters before matching their prefix', async () => {
      expect(await names({ name: '  edge al ' })).toEqual(['Edge Alpha']);
      expect(await names({ email: ' gamma@' })).toEqual(['Edge Gamma']);
      expect(await names({ phone: ' 555 01 ' })).toEqual(['Edge Alpha']);
    });

    it('ignores a blank text filter instead of dropping records without that field', async () => {
      expect(await names({ email: '   ' })).toEqual(['Edge Alpha', 'Edge Beta', 'Edge Gamma']);
    });
  });

  it('refuses a name of NUL characters only as blank, on create and update', async () => {
    const created = await gql(CREATE, { input: { name: '\u0000\u0000' } });
    expect(created.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', fields: [{ field: 'name', message: "can't be blank" }] });

    const { id } = (await gql(CREATE, { input: { name: 'Nul Target' } })).data.createCompany;
    const updated = await gql('mutation($id: Int!, $input: CompanyCreateInput!) { updateCompany(id: $id, input: $input) { name } }', { id, input: { name: '\u0000' } });
    expect(updated.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', fields: [{ field: 'name', message: "can't be blank" }] });
    const stored = await server.sql<{ name: string }>('select name from companies where id = ?', [id]);
    expect(stored).toEqual([{ name: 'Nul Target' }]);
  });

  it('an imported company is last updated when it was created, unless the import says otherwise', async () => {
    const imported = (await gql(CREATE, { input: { name: 'Imported', createdAt: '2014-05-01T10:00:00.000Z' } })).data.createCompany;
    expect(imported).toMatchObject({ createdAt: '2014-05-01T10:00:00.000Z', updatedAt: '2014-05-01T10:00:00.000Z' });

    const both = await gql(CREATE, { input: { name: 'Imported Both', createdAt: '2014-05-01T10:00:00.000Z', updatedAt: '2014-06-01T10:00:00.000Z' } });
    expect(both.data.createCompany).toMatchObject({ createdAt: '2014-05-01T10:00:00.000Z', updatedAt: '2014-06-01T10:00:00.000Z' });

    const fresh = (await gql(CREATE, { input: { name: 'Fresh' } })).data.createCompany;
    expect(fresh.updatedAt).toBe(fresh.createdAt);
    expect(Date.now() - Date.parse(fresh.createdAt)).toBeLessThan(60_000);
  });

  it('a null createdAt leaves the creation time to the server', async () => {
    const res = await gql(CREATE, { input: { name: 'Null Created', createdAt: null } });
    expect(res.errors).toBeUndefined();
    expect(Date.now() - Date.parse(res.data.createCompany.createdAt)).toBeLessThan(60_000);
  });

  it('the reassignment email records the company and who reassigned it', async () => {
    const petra = await account.addUser({ firstName: 'Petra' });
    const { id } = (await gql(CREATE, { input: { name: 'Handed Over' } })).data.createCompany;
    const res = await gql('mutation($id: Int!, $input: CompanyCreateInput!) { updateCompany(id: $id, input: $input) { ownerId } }', { id, input: { ownerId: petra.id } });
    expect(res.data.updateCompany).toEqual({ ownerId: petra.id });
    const mails = await server.sql('select recipient_id, kind, subject_type, subject_id, payload from outbox_messages where account_id = ? and subject_id = ?', [account.accountId, id]);
    expect(mails).toEqual([{ recipient_id: petra.id, kind: 'company_reassignment', subject_type: 'Company', subject_id: id, payload: { byUserId: account.admin.id } }]);
  });
});
