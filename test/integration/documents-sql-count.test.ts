import { countStatements } from '../support/sql-counter';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** A page of documents with their owner, links and tags costs a fixed number of statements, whatever its size. */
describe('SQL statements per documents page', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    const a = account.accountId;
    const u = account.admin.id;
    const sql = (text: string, params: unknown[] = []) => server.sql(text, params);
    await sql(
      `insert into companies (account_id, owner_id, name, created_at, updated_at) select ?, ?, 'Co ' || g, now(), now() from generate_series(1, 10) g`,
      [a, u],
    );
    await sql(
      `insert into people (account_id, owner_id, first_name, last_name, created_at, updated_at) select ?, ?, 'F', 'P ' || g, now(), now() from generate_series(1, 10) g`,
      [a, u],
    );
    await sql(`insert into deals (account_id, owner_id, name, created_at, updated_at) select ?, ?, 'D ' || g, now(), now() from generate_series(1, 10) g`, [
      a,
      u,
    ]);
    await sql(
      `insert into list_items (account_id, kind, name, position, created_at, updated_at) select ?, 'document_tag', 'Tag ' || g, g, now(), now() from generate_series(1, 3) g`,
      [a],
    );
    await sql(
      `insert into documents (account_id, owner_id, deal_id, person_id, company_id, title, url, public_token, public_token_digest, created_at, updated_at)
       select ?, ?, (select id from deals where account_id = ? order by id offset g % 10 limit 1), (select id from people where account_id = ? order by id offset g % 10 limit 1),
              (select id from companies where account_id = ? order by id offset g % 10 limit 1), 'Doc ' || g, 'https://example.com/' || g || '.pdf', md5(g::text || ?), md5(g::text || ? || 'd'), now(), now()
       from generate_series(1, 100) g`,
      [a, u, a, a, a, String(a), String(a)],
    );
    await sql(
      `insert into document_tags (document_id, list_item_id) select d.id, li.id from documents d, list_items li where d.account_id = ? and li.account_id = ? and li.kind = 'document_tag'`,
      [a, a],
    );
  }, 60_000);
  afterAll(() => server.close());

  const query = `query($n: Int) { documents(first: $n) { nodes { databaseId publicLink owner { fullName } deal { name } person { lastName } company { name } tagIds tags { name } } } }`;

  it('GraphQL and v3: the same count for 5 and 100 documents', async () => {
    const small = await countStatements(() => server.graphql(account.admin.apiKey, query, { n: 5 }));
    const large = await countStatements(() => server.graphql(account.admin.apiKey, query, { n: 100 }));
    expect(large.result.body.data.documents.nodes).toHaveLength(100);
    expect(large.result.body.data.documents.nodes[0]).toMatchObject({
      owner: { fullName: expect.any(String) },
      deal: { name: expect.any(String) },
      person: { lastName: expect.any(String) },
      company: { name: expect.any(String) },
      tags: [{ name: 'Tag 1' }, { name: 'Tag 2' }, { name: 'Tag 3' }],
    });
    expect(large.statements.length).toBe(small.statements.length);
    expect(large.statements.length <= 10 ? 'at most 10' : large.statements).toBe('at most 10');
    const v3small = await countStatements(() => server.v3(account.admin.apiKey).get('/documents.json', { per_page: 5 }));
    const v3large = await countStatements(() => server.v3(account.admin.apiKey).get('/documents.json', { per_page: 100 }));
    expect(v3large.result.body.entries).toHaveLength(100);
    expect(v3large.result.body.entries[0].document_tags).toHaveLength(3);
    expect(v3large.statements.length).toBe(v3small.statements.length);
  });
});
