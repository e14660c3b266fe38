import { countStatements } from '../support/sql-counter';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Read sets (src/graphql/read-set.ts): a page's convenience objects read only the columns their
 * selection needs. Every field of Person and Company, read through a relation that uses a read
 * set, must answer exactly what a whole-row read answers: a field that reads a property it does
 * not declare would come back wrong here.
 */
describe('read sets of relation fields', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let dealId: number;
  let personId: number;
  let companyId: number;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    key = account.admin.apiKey;
    const v3 = server.v3(key);
    const company = await v3.post('/companies.json', {
      company: { name: 'Read Set Co', web: 'https://rs.example', phone1: '+1 555 0100', city: 'Lyon', country: 'FR' },
    });
    companyId = company.body.id;
    const person = await v3.post('/people.json', {
      person: {
        first_name: 'Rhea',
        last_name: 'Setter',
        email: 'rhea@rs.example',
        phone: '+1 555 0101',
        work_city: 'Lyon',
        company_id: companyId,
        position: 'Buyer',
        type: 'Contact',
      },
    });
    personId = person.body.id;
    const deal = await v3.post('/deals.json', {
      deal: { name: 'Read set deal', value: '1200.50', company_id: companyId, primary_contact_id: personId, person_ids: [personId] },
    });
    expect(deal.status).toBe(200);
    dealId = deal.body.id;
  }, 60_000);
  afterAll(() => server.close());

  type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
  const named = (t: TypeRef): TypeRef => (t.ofType ? named(t.ofType) : t);

  /** Every field of `type` a selection can ask without arguments: leaves as they are, objects by `__typename`. */
  async function selectionOf(type: string): Promise<string[]> {
    const res = await server.graphql(
      key,
      `query($n: String!) { __type(name: $n) { fields { name args { type { kind } } type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`,
      { n: type },
    );
    const fields = res.body.data.__type.fields as Array<{ name: string; args: Array<{ type: { kind: string } }>; type: TypeRef }>;
    return (
      fields
        // Nested connections are pages of their own (and cost their page size): other tests cover them.
        .filter((f) => !f.args.some((a) => a.type.kind === 'NON_NULL') && !named(f.type).name?.endsWith('Connection'))
        .map((f) => (['SCALAR', 'ENUM'].includes(named(f.type).kind) ? f.name : `${f.name} { __typename }`))
    );
  }

  it("every Person field answers the same through primaryContact, a deal's people and person(id)", async () => {
    const fields = (await selectionOf('Person')).join(' ');
    const res = await server.graphql(
      key,
      `query($id: Int!, $deal: Int!) {
      whole: person(id: $id) { ${fields} }
      deals(first: 1, filter: { databaseId: { eq: $deal } }) { nodes { primaryContact { ${fields} } people(first: 5) { nodes { ${fields} } } } }
    }`,
      { id: personId, deal: dealId },
    );
    expect(res.body.errors).toBeUndefined();
    const [node] = res.body.data.deals.nodes;
    expect(node.primaryContact).toEqual(res.body.data.whole);
    expect(node.people.nodes).toEqual([res.body.data.whole]);
    expect(res.body.data.whole.email).toBe('rhea@rs.example');
  });

  it("every Company field answers the same through a deal's and a person's company and company(id)", async () => {
    const fields = (await selectionOf('Company')).join(' ');
    const res = await server.graphql(
      key,
      `query($id: Int!, $deal: Int!) {
      whole: company(id: $id) { ${fields} }
      deals(first: 1, filter: { databaseId: { eq: $deal } }) { nodes { company { ${fields} } companyName } }
      people(first: 1, filter: { databaseId: { eq: ${personId} } }) { nodes { company { ${fields} } companyName } }
    }`,
      { id: companyId, deal: dealId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.deals.nodes[0].company).toEqual(res.body.data.whole);
    expect(res.body.data.people.nodes[0].company).toEqual(res.body.data.whole);
    expect(res.body.data.deals.nodes[0].companyName).toBe('Read Set Co');
    expect(res.body.data.whole.website).toBe('https://rs.example');
  });

  it('the same person read with two read sets in one operation keeps both answers whole', async () => {
    const res = await server.graphql(
      key,
      `query($deal: Int!) {
      deals(first: 1, filter: { databaseId: { eq: $deal } }) { nodes { primaryContact { fullName } people(first: 5) { nodes { email position } } } }
    }`,
      { deal: dealId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.deals.nodes[0]).toEqual({
      primaryContact: { fullName: 'Rhea Setter' },
      people: { nodes: [{ email: 'rhea@rs.example', position: 'Buyer' }] },
    });
  });

  it('the v3 deals list reads names, not whole rows, of its people and companies', async () => {
    const { result, statements } = await countStatements(() => server.v3(key).get('/deals.json'));
    expect(result.status).toBe(200);
    const [entry] = result.body.entries;
    expect(entry.primary_contact).toEqual({ id: personId, first_name: 'Rhea', last_name: 'Setter', full_name: 'Rhea Setter' });
    expect(entry.people).toEqual([entry.primary_contact]);
    expect(entry.company).toEqual({ id: companyId, name: 'Read Set Co' });
    const reading = (table: string) => statements.filter((s) => new RegExp(`from "${table}"`).test(s) && /^\s*select/i.test(s));
    expect(reading('people').length).toBeGreaterThan(0);
    expect(reading('companies').length).toBeGreaterThan(0);
    for (const s of reading('people')) expect(s).not.toMatch(/"email"|"home_address1"|"custom_fields"/);
    for (const s of reading('companies')) expect(s).not.toMatch(/"web"|"custom_fields"/);
  });
});
