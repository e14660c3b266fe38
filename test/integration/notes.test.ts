import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** Issue 12 §1: notes over v3 and GraphQL, visibility through the associated records. */
describe('notes', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: ReturnType<TestServer['v3']>;
  let own: { id: number; apiKey: string };
  let other: { id: number; apiKey: string };
  let adminPerson: number;
  let ownPerson: number;
  let deal: number;

  const count = async (table: string) => Number((await server.sql(`select count(*) as n from ${table} where account_id = ?`, [account.accountId]))[0].n);

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    admin = server.v3(account.admin.apiKey);
    own = await account.addUser({ isAdmin: false, visibility: 'own' as never, firstName: 'Olga', lastName: 'Own' });
    other = await account.addUser({ isAdmin: false, visibility: 'own' as never, firstName: 'Otto', lastName: 'Other' });
    adminPerson = (await admin.post('/people.json', { person: { last_name: 'Admins', first_name: 'Ann' } })).body.id;
    ownPerson = (await server.v3(own.apiKey).post('/people.json', { person: { last_name: 'Owned' } })).body.id;
    deal = (await admin.post('/deals.json', { deal: { name: 'Big deal' } })).body.id;
  }, 60_000);
  afterAll(() => server.close());

  it('creates a note with every §2.2 field and shows it with embedded comments', async () => {
    const created = await admin.post('/notes.json', { note: { content: 'Met them', title: 'Visit', person_id: adminPerson, deal_id: deal } });
    expect(created.status).toBe(200);
    const note = created.body;
    expect(note).toMatchObject({
      content: 'Met them',
      title: 'Visit',
      person_id: adminPerson,
      deal_id: deal,
      company_id: null,
      user_id: account.admin.id,
      primary_association_id: deal,
      primary_association_type: 'Deal',
      deal: { id: deal, name: 'Big deal' },
      person: { id: adminPerson, first_name: 'Ann', last_name: 'Admins' },
      company: null,
      note_category: null,
      is_sent_message: null,
      notify_user_ids: [],
      mime: null,
    });
    expect(note.user).toMatchObject({ id: account.admin.id, avatar_thumb_url: null });
    expect(note.created_at).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
    // the admin and `all` users can see the deal; `own` users cannot (not owners).
    expect(note.possible_notify_user_ids).toEqual([account.admin.id]);
    const shown = await admin.get(`/notes/${note.id}.json`);
    expect(shown.status).toBe(200);
    expect(shown.body.comments).toEqual({ entries: [], pagination: { page: 1, per_page: 5, total: 0, pages: 1, page_var: 'page' } });
  });

  it('refuses bad input with a wrapped 422 naming the field, and writes nothing', async () => {
    const before = await count('notes');
    const blank = await admin.post('/notes.json', { note: { content: '  ', person_id: adminPerson } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ errors: [{ field: 'content', humanized_field: 'Content', msg: "can't be blank" }] });
    const none = await admin.post('/notes.json', { note: { content: 'x' } });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].field).toBe('base');
    const unknown = await admin.post('/notes.json', { note: { content: 'x', deal_id: 999999 } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'deal_id' })]);
    // an own user may not attach a note to a person they cannot see
    const hidden = await server.v3(own.apiKey).post('/notes.json', { note: { content: 'x', person_id: adminPerson } });
    expect(hidden.status).toBe(422);
    expect(hidden.body.errors).toEqual([expect.objectContaining({ field: 'person_id' })]);
    const notify = await admin.post('/notes.json', { note: { content: 'x', person_id: adminPerson, notify_user_ids: [own.id] } });
    expect(notify.status).toBe(422);
    expect(notify.body.errors).toEqual([expect.objectContaining({ field: 'notify_user_ids' })]);
    const badCategory = await admin.post('/notes.json', { note: { content: 'x', person_id: adminPerson, note_category_id: 999999 } });
    expect(badCategory.body.errors).toEqual([expect.objectContaining({ field: 'note_category_id' })]);
    expect(await count('notes')).toBe(before);
  });

  it('a note is visible exactly when one of its records is, on every path', async () => {
    const mine = (await server.v3(own.apiKey).post('/notes.json', { note: { content: 'Own note', person_id: ownPerson, notify_user_ids: [account.admin.id] } }))
      .body;
    expect(mine.possible_notify_user_ids).toEqual(expect.arrayContaining([account.admin.id, own.id]));
    expect(mine.possible_notify_user_ids).not.toContain(other.id);
    const theirs = (await admin.post('/notes.json', { note: { content: 'Admin note', person_id: adminPerson } })).body;
    const ownClient = server.v3(own.apiKey);
    const list = await ownClient.get('/notes.json', { per_page: 100 });
    expect(list.body.entries.map((n: { id: number }) => n.id)).toContain(mine.id);
    expect(list.body.entries.map((n: { id: number }) => n.id)).not.toContain(theirs.id);
    expect((await ownClient.get(`/notes/${theirs.id}.json`)).status).toBe(404);
    expect((await ownClient.get(`/notes/${theirs.id}.json`)).text).toBe('');
    expect((await ownClient.put(`/notes/${theirs.id}.json`, { note: { content: 'hack' } })).status).toBe(404);
    expect((await ownClient.del(`/notes/${theirs.id}.json`)).status).toBe(404);
    expect((await ownClient.get(`/people/${adminPerson}/notes.json`)).status).toBe(404);
    expect((await ownClient.get(`/notes/${theirs.id}/comments.json`)).status).toBe(404);
    expect((await ownClient.post(`/notes/${theirs.id}/comments.json`, { comment: { comment: 'hi' } })).status).toBe(404);
    const gql = await server.graphql(own.apiKey, 'query($id: ID!, $n: Int!) { node(id: $id) { id } note(id: $n) { id } }', {
      id: Buffer.from(`Note:${theirs.id}`).toString('base64url'),
      n: theirs.id,
    });
    expect(gql.body.data).toEqual({ node: null, note: null });
    const seen = await server.graphql(own.apiKey, 'query($id: ID!) { node(id: $id) { ... on Note { databaseId content } } }', {
      id: Buffer.from(`Note:${mine.id}`).toString('base64url'),
    });
    expect(seen.body.data.node).toEqual({ databaseId: mine.id, content: 'Own note' });
    expect((await server.v3(other.apiKey).get(`/notes/${mine.id}.json`)).status).toBe(404);
    // a note about a hidden person and a visible deal (shared) is visible
    const both = (await admin.post('/notes.json', { note: { content: 'Both', person_id: adminPerson, deal_id: deal } })).body;
    expect((await ownClient.get(`/notes/${both.id}.json`)).status).toBe(404);
    await admin.put(`/deals/${deal}.json`, { deal: { shared_user_ids: [own.id] } });
    const visible = await ownClient.get(`/notes/${both.id}.json`);
    expect(visible.status).toBe(200);
    expect(visible.body.person).toBeNull(); // the person itself stays hidden
    expect(visible.body.person_id).toBe(adminPerson);
    await admin.put(`/deals/${deal}.json`, { deal: { shared_user_ids: [] } });
  });

  it('lists by association (plain, conditions, nested), activity_modified and paging', async () => {
    const company = (await admin.post('/companies.json', { company: { name: 'Acme Notes' } })).body.id;
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await admin.post('/notes.json', { note: { content: `C${i}`, company_id: company } })).body.id);
    const plain = await admin.get('/notes.json', { company_id: company });
    expect(plain.body.pagination).toMatchObject({ per_page: 5, total: 7, pages: 2 });
    expect(plain.body.entries).toHaveLength(5);
    const cond = await admin.get('/notes.json', { 'conditions[company_id]': company, per_page: 100 });
    expect(cond.body.entries.map((n: { id: number }) => n.id).sort()).toEqual([...ids].sort());
    const nested = await admin.get(`/companies/${company}/notes.json`, { per_page: 500 });
    expect(nested.body.pagination).toMatchObject({ per_page: 100, total: 7 });
    const combined = await admin.get('/notes.json', { company_id: company, deal_id: deal });
    expect(combined.body.pagination.total).toBe(0); // combined: each must hold
    await server.sql(`update notes set updated_at = '2020-01-01T00:00:00Z' where id = ?`, [ids[0]]);
    const modified = await admin.get('/notes.json', { 'conditions[activity_modified][to_date]': '2021-01-01', company_id: company });
    expect(modified.body.entries.map((n: { id: number }) => n.id)).toEqual([ids[0]]);
    expect((await admin.get('/companies/999999/notes.json')).status).toBe(404);
    expect((await admin.get(`/deals/${deal}/notes.json`)).status).toBe(200);
  });

  it('runs saved searches of type notes', async () => {
    const company = (await admin.post('/companies.json', { company: { name: 'Searched' } })).body.id;
    const note = (await admin.post('/notes.json', { note: { content: 'S', company_id: company } })).body.id;
    const [row] = await server.sql(
      `insert into saved_searches (account_id, user_id, name, search_type, query, is_shared, is_default, created_at, updated_at) values (?, ?, 'n', 'notes', ?, false, false, now(), now()) returning id`,
      [account.accountId, account.admin.id, JSON.stringify({ company_id: [company] })],
    );
    const found = await admin.get('/notes.json', { search_id: row.id, deal_id: 1 });
    expect(found.status).toBe(200);
    expect(found.body.entries.map((n: { id: number }) => n.id)).toEqual([note]);
  });

  it('updates and deletes; the Email category sets is_sent_message', async () => {
    // Accounts start with an "Email" note category.
    const categories = (await admin.get('/admin/note_categories.json')).body.entries as Array<{ id: number; name: string }>;
    const category = categories.find((c) => c.name === 'Email')!.id;
    const note = (await admin.post('/notes.json', { note: { content: 'Mail', person_id: adminPerson, note_category_id: category } })).body;
    expect(note).toMatchObject({ note_category: { id: category, name: 'Email' }, is_sent_message: true });
    const received = await admin.put(`/notes/${note.id}.json`, {
      note: { ...note, is_sent_message: false, content: 'Mail 2', notify_user_ids: [account.admin.id] },
    });
    expect(received.status).toBe(200);
    expect(received.body).toMatchObject({ is_sent_message: false, content: 'Mail 2', notify_user_ids: [account.admin.id] });
    const plain = await admin.put(`/notes/${note.id}.json`, { note: { note_category_id: null } });
    expect(plain.body.is_sent_message).toBeNull();
    const del = await admin.del(`/notes/${note.id}.json`);
    expect(del.status).toBe(200);
    expect(del.text).toBe('');
    expect((await admin.del(`/notes/${note.id}.json`)).status).toBe(404);
  });

  it('GraphQL: notes, filters, nested connections and mutations with userErrors', async () => {
    const key = account.admin.apiKey;
    const created = await server.graphql(
      key,
      'mutation($i: NoteCreateInput!) { createNote(input: $i) { note { databaseId primaryAssociationType user { databaseId } person { databaseId } } userErrors { field code } } }',
      {
        i: { content: 'gql', personId: adminPerson },
      },
    );
    const id = created.body.data.createNote.note.databaseId;
    expect(created.body.data.createNote.note).toMatchObject({
      primaryAssociationType: 'Person',
      user: { databaseId: account.admin.id },
      person: { databaseId: adminPerson },
    });
    const bad = await server.graphql(key, 'mutation($i: NoteCreateInput!) { createNote(input: $i) { note { databaseId } userErrors { field code } } }', {
      i: { content: '', personId: adminPerson },
    });
    expect(bad.body.data.createNote).toEqual({ note: null, userErrors: [{ field: ['input', 'content'], code: 'BLANK' }] });
    const nested = await server.graphql(
      key,
      'query($p: Int!) { person(id: $p) { notes(first: 50, filter: {content: {eq: "gql"}}) { nodes { databaseId } totalCount } } notes(filter: {personId: {eq: $p}, updatedAt: {gte: "2000-01-01T00:00:00Z"}}) { totalCount } }',
      { p: adminPerson },
    );
    expect(nested.body.data.person.notes.nodes).toEqual([{ databaseId: id }]);
    expect(nested.body.data.notes.totalCount).toBeGreaterThan(0);
    const upd = await server.graphql(key, 'mutation($id: Int!) { updateNote(id: $id, input: {title: "T"}) { note { title } userErrors { code } } }', { id });
    expect(upd.body.data.updateNote).toEqual({ note: { title: 'T' }, userErrors: [] });
    const del = await server.graphql(own.apiKey, 'mutation($id: Int!) { deleteNote(id: $id) { deletedDatabaseId userErrors { field code } } }', { id });
    expect(del.body.data.deleteNote).toEqual({ deletedDatabaseId: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] });
  });
});
