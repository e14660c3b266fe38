import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** Issue 12 §2: comments over v3 and GraphQL, the note's visibility, outbox mails. */
describe('comments', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: ReturnType<TestServer['v3']>;
  let own: { id: number; apiKey: string };
  let colleague: { id: number; apiKey: string };
  let note: number;

  const mails = () =>
    server.sql(`select recipient_id, kind, subject_type, subject_id, payload from outbox_messages where account_id = ? and kind = 'note_comment' order by id`, [
      account.accountId,
    ]);

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    admin = server.v3(account.admin.apiKey);
    own = await account.addUser({ isAdmin: false, visibility: 'own' as never });
    colleague = await account.addUser({ isAdmin: false, visibility: 'all' as never });
    const person = (await admin.post('/people.json', { person: { last_name: 'Commented' } })).body.id;
    note = (await admin.post('/notes.json', { note: { content: 'N', person_id: person, notify_user_ids: [account.admin.id, colleague.id] } })).body.id;
  }, 60_000);
  afterAll(() => server.close());

  it('creates a comment, mails each notify user but the author in the outbox, bumps the note', async () => {
    await server.sql(`update notes set updated_at = '2020-01-01T00:00:00Z' where id = ?`, [note]);
    const created = await admin.post(`/notes/${note}/comments.json`, { comment: { comment: 'First!' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      note_id: note,
      user_id: account.admin.id,
      comment: 'First!',
      edited_by_user_id: null,
      user: { id: account.admin.id, avatar_thumb_url: null },
    });
    expect(await mails()).toEqual([
      {
        recipient_id: colleague.id,
        kind: 'note_comment',
        subject_type: 'Note',
        subject_id: note,
        payload: { byUserId: account.admin.id, commentId: created.body.id },
      },
    ]);
    const [row] = await server.sql(`select updated_at from notes where id = ?`, [note]);
    expect(new Date(row.updated_at).getFullYear()).toBeGreaterThan(2020);
    const shown = await admin.get(`/notes/${note}.json`);
    expect(shown.body.comments.entries.map((c: { id: number }) => c.id)).toEqual([created.body.id]);
    expect(shown.body.comments.pagination.total).toBe(1);
  });

  it('refuses a blank comment with a bare 422 array and writes nothing (no mail either)', async () => {
    const before = (await mails()).length;
    const [{ n }] = await server.sql(`select count(*) as n from comments where account_id = ?`, [account.accountId]);
    const blank = await admin.post(`/notes/${note}/comments.json`, { comment: { comment: ' ' } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual([{ field: 'comment', humanized_field: 'Comment', msg: "can't be blank" }]);
    const [{ n: after }] = await server.sql(`select count(*) as n from comments where account_id = ?`, [account.accountId]);
    expect(after).toBe(n);
    expect((await mails()).length).toBe(before);
    expect((await admin.post('/notes/999999/comments.json', { comment: { comment: 'x' } })).status).toBe(404);
  });

  it('lists (5 a page), shows, updates and deletes, on the plain and nested routes', async () => {
    for (let i = 0; i < 6; i++) await server.v3(colleague.apiKey).post(`/notes/${note}/comments.json`, { comment: { comment: `c${i}` } });
    const list = await admin.get(`/notes/${note}/comments.json`);
    expect(list.body.entries).toHaveLength(5);
    expect(list.body.pagination).toMatchObject({ per_page: 5, total: 7, pages: 2 });
    const nested = await admin.get(`/companies/424242/notes/${note}/comments.json`, { page: 2 });
    expect(nested.status).toBe(200);
    expect(nested.body.entries).toHaveLength(2);
    const id = list.body.entries[1].id;
    // the author (colleague) is not mailed; the admin is
    expect((await mails()).filter((m: { recipient_id: number }) => m.recipient_id === colleague.id)).toHaveLength(1);
    expect((await admin.get(`/notes/${note}/comments/${id}.json`)).body.id).toBe(id);
    const upd = await admin.put(`/notes/${note}/comments/${id}.json`, {
      comment: { comment: 'edited', edited_by_person_id: account.admin.id, updated_at: '2030-01-02 03:04:05' },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ comment: 'edited', edited_by_user_id: account.admin.id, updated_at: '2030/01/02 03:04:05 +0000' });
    const blank = await admin.put(`/notes/${note}/comments/${id}.json`, { comment: { comment: '' } });
    expect(blank.status).toBe(422);
    expect(Array.isArray(blank.body)).toBe(true);
    const other = (
      await admin.post('/notes.json', { note: { content: 'other', person_id: (await admin.post('/people.json', { person: { last_name: 'X' } })).body.id } })
    ).body.id;
    expect((await admin.get(`/notes/${other}/comments/${id}.json`)).status).toBe(404);
    const del = await admin.del(`/notes/${note}/comments/${id}.json`);
    expect(del.status).toBe(200);
    expect(del.text).toBe('');
    expect((await admin.del(`/notes/${note}/comments/${id}.json`)).status).toBe(404);
  });

  it('an own user cannot reach comments of a note they cannot see', async () => {
    const client = server.v3(own.apiKey);
    expect((await client.get(`/notes/${note}/comments.json`)).status).toBe(404);
    const [{ id }] = await server.sql(`select id from comments where note_id = ? limit 1`, [note]);
    expect((await client.get(`/notes/${note}/comments/${id}.json`)).status).toBe(404);
    expect((await client.put(`/notes/${note}/comments/${id}.json`, { comment: { comment: 'x' } })).status).toBe(404);
    expect((await client.del(`/notes/${note}/comments/${id}.json`)).status).toBe(404);
    const gql = await server.graphql(own.apiKey, '{ comments { totalCount } }');
    expect(gql.body.data.comments.totalCount).toBe(0);
  });

  it('GraphQL: Note.comments, Comment relations and mutations', async () => {
    const key = account.admin.apiKey;
    const made = await server.graphql(
      key,
      'mutation($n: Int!) { createComment(input: {noteId: $n, comment: "gql"}) { comment { databaseId note { databaseId } user { databaseId } editedBy { databaseId } } userErrors { field code } } }',
      { n: note },
    );
    expect(made.body.data.createComment.comment).toMatchObject({ note: { databaseId: note }, user: { databaseId: account.admin.id }, editedBy: null });
    const page = await server.graphql(
      key,
      'query($n: Int!) { note(id: $n) { comments(first: 2) { nodes { comment } totalCount pageInfo { hasNextPage } } } }',
      { n: note },
    );
    expect(page.body.data.note.comments.nodes).toHaveLength(2);
    expect(page.body.data.note.comments.pageInfo.hasNextPage).toBe(true);
    const missing = await server.graphql(
      key,
      'mutation { createComment(input: {noteId: 999999, comment: "x"}) { comment { databaseId } userErrors { field code } } }',
    );
    expect(missing.body.data.createComment).toEqual({ comment: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] });
  });
});
