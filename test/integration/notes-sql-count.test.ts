import { countStatements } from '../support/sql-counter';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** Issue 12 §5: a page of notes with comments, users and associations costs a fixed number of statements. */
describe('SQL statements per notes page', () => {
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
      `insert into notes (account_id, user_id, deal_id, person_id, company_id, note_category_id, content, notify_user_ids, created_at, updated_at)
       select ?, ?, (select id from deals where account_id = ? order by id offset g % 10 limit 1), (select id from people where account_id = ? order by id offset g % 10 limit 1),
              (select id from companies where account_id = ? order by id offset g % 10 limit 1), (select id from list_items where account_id = ? and kind = 'note_category' order by id limit 1),
              'Note ' || g, '[]', now(), now() from generate_series(1, 100) g`,
      [a, u, a, a, a, a],
    );
    await sql(
      `insert into comments (account_id, note_id, user_id, comment, created_at, updated_at) select ?, n.id, ?, 'c', now(), now() from notes n, generate_series(1, 3) where n.account_id = ?`,
      [a, u, a],
    );
  }, 60_000);
  afterAll(() => server.close());

  const query = `query($n: Int) { notes(first: $n) { nodes { databaseId user { fullName } deal { name } person { lastName } company { name } noteCategory { name } possibleNotifyUserIds
    comments(first: 5) { nodes { comment user { fullName } editedBy { fullName } } totalCount } } } }`;

  it('GraphQL and v3: the same count for 5 and 100 notes', async () => {
    const small = await countStatements(() => server.graphql(account.admin.apiKey, query, { n: 5 }));
    const large = await countStatements(() => server.graphql(account.admin.apiKey, query, { n: 100 }));
    expect(large.result.body.data.notes.nodes).toHaveLength(100);
    expect(large.result.body.data.notes.nodes[0]).toMatchObject({
      deal: { name: expect.any(String) },
      person: { lastName: expect.any(String) },
      company: { name: expect.any(String) },
      comments: { totalCount: 3 },
    });
    expect(large.statements.length).toBe(small.statements.length);
    expect(large.statements.length <= 12 ? 'at most 12' : large.statements).toBe('at most 12');
    const v3small = await countStatements(() => server.v3(account.admin.apiKey).get('/notes.json', { per_page: 5 }));
    const v3large = await countStatements(() => server.v3(account.admin.apiKey).get('/notes.json', { per_page: 100 }));
    expect(v3large.result.body.entries).toHaveLength(100);
    expect(v3large.statements.length).toBe(v3small.statements.length);
  });

  it("v3 list entries carry their comments: one batched read of every note's first page, whatever the page size", async () => {
    const v3 = server.v3(account.admin.apiKey);
    const commentReads = (statements: string[]) => statements.filter((s) => /from "comments"/i.test(s));
    const small = await countStatements(() => v3.get('/notes.json', { per_page: 5 }));
    const large = await countStatements(() => v3.get('/notes.json', { per_page: 100 }));
    for (const entry of large.result.body.entries) {
      expect(entry.comments.entries).toHaveLength(3);
      expect(entry.comments.pagination).toMatchObject({ page: 1, per_page: 5, total: 3 });
      expect(entry.comments.entries[0]).toMatchObject({ note_id: entry.id, comment: 'c', user: { id: account.admin.id } });
    }
    // The page of comments and their totals: one statement each for all 100 notes.
    expect(commentReads(large.statements)).toHaveLength(commentReads(small.statements).length);
    expect(commentReads(large.statements).length).toBeGreaterThan(0);
    expect(commentReads(large.statements).length).toBeLessThanOrEqual(2);
    expect(large.statements.length).toBe(small.statements.length);
    expect(large.statements.length <= 12 ? 'at most 12' : large.statements).toBe('at most 12');
  });
});
