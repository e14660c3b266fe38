import { Visibility } from '../../src/modules/users/user.entity';
import { PREVIEW_LENGTH, previewOf } from '../../src/modules/conversations/conversation';
import { fixtures } from '../support/fixtures';
import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Conversations (issue 12 §3; v3 §2.8, §4.8): notes on a deal in their own shape over v3 and
 * GraphQL. Create answers {id, user_id, deal_id, user, created_at, sentence}; show and update
 * {author, created_at, has_more, id, preview}; delete 200 empty; visibility through the deal; 422
 * bare arrays naming the field, and nothing written on bad input.
 */

const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;
const GQL_FIELDS = 'id databaseId dealId userId sentence preview hasMore author createdAt updatedAt user { databaseId fullName }';

describe('conversations', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  /** Sees only their own deals and those shared with them. */
  let own: { id: number; apiKey: string };
  let foreign: string;
  let adminDeal: number;
  let ownDeal: number;
  let sharedDeal: number;
  let person: number;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York' });
    admin = account.admin.apiKey;
    own = await account.addUser({ isAdmin: false, visibility: Visibility.OWN, firstName: 'Olga', lastName: 'Own' });
    foreign = (await server.createAccount()).admin.apiKey;
    adminDeal = await fixtures.deal(server, admin);
    ownDeal = await fixtures.deal(server, own.apiKey);
    sharedDeal = await fixtures.deal(server, admin, { sharedUserIds: [own.id] });
    person = await fixtures.person(server, admin);
  }, 60_000);
  afterAll(() => server.close());

  const notes = async () => Number((await server.sql('select count(*)::int as n from notes where account_id = ?', [account.accountId]))[0].n);
  const contentOf = async (id: number) => (await server.sql('select content from notes where id = ?', [id]))[0]?.content;
  /** A note stored directly (the notes API is another module's). */
  const seedNote = async (values: { dealId?: number | null; personId?: number | null; content: string; userId?: number }) =>
    Number(
      (
        await server.sql(
          'insert into notes (account_id, user_id, deal_id, person_id, content, created_at, updated_at) values (?, ?, ?, ?, ?, now(), now()) returning id',
          [account.accountId, values.userId ?? account.admin.id, values.dealId ?? null, values.personId ?? null, values.content],
        )
      )[0].id,
    );
  const create = async (key: string, attrs: Record<string, unknown>) => server.v3(key).post('/conversations.json', { conversation: attrs });

  describe('POST /conversations.json', () => {
    it('creates a note on the deal and answers {id, user_id, deal_id, user, created_at, sentence}', async () => {
      const res = await create(own.apiKey, { deal_id: ownDeal, sentence: 'Called them, they want a demo.' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['id', 'user_id', 'deal_id', 'user', 'created_at', 'sentence']);
      expect(res.body).toEqual({
        id: expect.any(Number),
        user_id: own.id,
        deal_id: ownDeal,
        user: { id: own.id, first_name: 'Olga', last_name: 'Own', full_name: 'Olga Own' },
        created_at: expect.stringMatching(V3_DATETIME),
        sentence: 'Called them, they want a demo.',
      });
      // In the viewer's zone (America/New_York: -0500 or -0400).
      expect(res.body.created_at).toMatch(/ -0[45]00$/);
      const [row] = await server.sql('select deal_id, person_id, company_id, user_id, content from notes where id = ?', [res.body.id]);
      expect(row).toEqual({ deal_id: ownDeal, person_id: null, company_id: null, user_id: own.id, content: 'Called them, they want a demo.' });
    });

    it('takes form-encoded bodies and a JSON body without the root key', async () => {
      const form = await server.request('POST', '/api/v3/conversations.json', {
        apiKey: admin,
        body: formEncode({ conversation: { deal_id: String(adminDeal), sentence: 'Form sentence' } }),
      });
      expect(form.status).toBe(200);
      expect(form.body).toMatchObject({ deal_id: adminDeal, sentence: 'Form sentence' });
      const bare = await server.v3(admin).post('/conversations.json', { deal_id: adminDeal, sentence: 'Bare JSON' });
      expect(bare.status).toBe(200);
      expect(bare.body).toMatchObject({ deal_id: adminDeal, sentence: 'Bare JSON' });
    });

    it('a blank or missing sentence is a 422 bare array naming it; nothing is written', async () => {
      const before = await notes();
      for (const attrs of [
        { deal_id: ownDeal },
        { deal_id: ownDeal, sentence: '' },
        { deal_id: ownDeal, sentence: '   ' },
        { deal_id: ownDeal, sentence: null },
      ]) {
        const res = await create(own.apiKey, attrs);
        expect({ attrs, status: res.status, body: res.body }).toEqual({
          attrs,
          status: 422,
          body: [{ field: 'sentence', humanized_field: 'Sentence', msg: "can't be blank" }],
        });
      }
      expect(await notes()).toBe(before);
    });

    it('a missing deal_id is a 422 naming it; nothing is written', async () => {
      const before = await notes();
      for (const attrs of [{ sentence: 'x' }, { deal_id: '', sentence: 'x' }, { deal_id: null, sentence: 'x' }]) {
        const res = await create(own.apiKey, attrs);
        expect({ attrs, status: res.status, body: res.body }).toEqual({
          attrs,
          status: 422,
          body: [{ field: 'deal_id', humanized_field: 'Deal', msg: "can't be blank" }],
        });
      }
      const bad = await create(own.apiKey, { deal_id: 'abc', sentence: 'x' });
      expect(bad.status).toBe(422);
      expect(bad.body[0].field).toBe('deal_id');
      expect(await notes()).toBe(before);
    });

    it("a deal the user may not see (hidden, another account's, unknown) is a 422 naming deal_id, as a missing one; nothing is written", async () => {
      const foreignDeal = await fixtures.deal(server, foreign);
      const before = await notes();
      for (const dealId of [adminDeal, foreignDeal, 2_000_000_000]) {
        const res = await create(own.apiKey, { deal_id: dealId, sentence: 'Sneaky' });
        expect({ dealId, status: res.status, body: res.body }).toEqual({
          dealId,
          status: 422,
          body: [{ field: 'deal_id', humanized_field: 'Deal', msg: 'does not exist' }],
        });
      }
      // Both problems at once when the deal is wrong and the sentence blank.
      const both = await create(own.apiKey, { deal_id: adminDeal, sentence: '' });
      expect(both.status).toBe(422);
      expect(both.body.map((e: { field: string }) => e.field).sort()).toEqual(['deal_id', 'sentence']);
      expect(await notes()).toBe(before);
    });

    it('a deal shared with the user takes their conversation', async () => {
      const res = await create(own.apiKey, { deal_id: sharedDeal, sentence: 'On a shared deal' });
      expect(res.status).toBe(200);
      expect(res.body.deal_id).toBe(sharedDeal);
    });
  });

  describe('GET /conversations/:id.json', () => {
    it('answers {author, created_at, has_more, id, preview}: a short sentence whole, has_more false', async () => {
      const { body: made } = await create(own.apiKey, { deal_id: ownDeal, sentence: '  Short and sweet.  ' });
      const res = await server.v3(own.apiKey).get(`/conversations/${made.id}.json`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['author', 'created_at', 'has_more', 'id', 'preview']);
      expect(res.body).toEqual({ author: 'Olga Own', created_at: made.created_at, has_more: false, id: made.id, preview: 'Short and sweet.' });
    });

    it('a long sentence previews its first words up to the limit, cut on a word boundary, has_more true', async () => {
      const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
      const { body: made } = await create(own.apiKey, { deal_id: ownDeal, sentence: words });
      const res = await server.v3(own.apiKey).get(`/conversations/${made.id}.json`);
      expect(res.body.has_more).toBe(true);
      expect(res.body.preview.length).toBeLessThanOrEqual(PREVIEW_LENGTH);
      expect(words.startsWith(res.body.preview)).toBe(true);
      // Ends on a whole word: the next character of the sentence is a space.
      expect(words[res.body.preview.length]).toBe(' ');
      expect(res.body.preview).toBe(previewOf(words).preview);
    });

    it("a conversation on a deal the user may not see, a note not on a deal, another account's and a missing one are 404 empty", async () => {
      const hidden = await seedNote({ dealId: adminDeal, content: 'Admin only' });
      const onPerson = await seedNote({ personId: person, content: 'About a person' });
      const foreignConversation = (await create(foreign, { deal_id: await fixtures.deal(server, foreign), sentence: 'Theirs' })).body.id;
      for (const [key, id] of [
        [own.apiKey, hidden],
        [admin, onPerson],
        [admin, foreignConversation],
        [admin, 2_000_000_000],
      ] as const) {
        const res = await server.v3(key).get(`/conversations/${id}.json`);
        expect({ id, status: res.status, text: res.text }).toEqual({ id, status: 404, text: '' });
      }
      // The admin sees the deal, so its note is a conversation to them.
      expect((await server.v3(admin).get(`/conversations/${hidden}.json`)).body).toMatchObject({
        id: hidden,
        preview: 'Admin only',
        author: expect.stringMatching(/^Ada Admin/),
      });
    });

    it('a note on a deal written elsewhere (the notes API) is a conversation too; a deleted author reads as null', async () => {
      const seeded = await seedNote({ dealId: ownDeal, content: 'Seeded', userId: own.id });
      expect((await server.v3(own.apiKey).get(`/conversations/${seeded}.json`)).body).toMatchObject({
        id: seeded,
        author: 'Olga Own',
        preview: 'Seeded',
        has_more: false,
      });
      const orphan = await seedNote({ dealId: adminDeal, content: 'Orphan' });
      await server.sql('update notes set user_id = null where id = ?', [orphan]);
      expect((await server.v3(admin).get(`/conversations/${orphan}.json`)).body).toMatchObject({ id: orphan, author: null });
    });
  });

  describe('PUT /conversations/:id.json', () => {
    it('changes the sentence and answers the shape of GET', async () => {
      const { body: made } = await create(own.apiKey, { deal_id: ownDeal, sentence: 'Before' });
      const res = await server.v3(own.apiKey).put(`/conversations/${made.id}.json`, { conversation: { sentence: 'After the call' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ author: 'Olga Own', created_at: made.created_at, has_more: false, id: made.id, preview: 'After the call' });
      expect(await contentOf(made.id)).toBe('After the call');
      // Form-encoded too; read-only keys sent back (deal_id, preview) are ignored.
      const form = await server.request('PUT', `/api/v3/conversations/${made.id}.json`, {
        apiKey: own.apiKey,
        body: formEncode({ conversation: { sentence: 'Third', deal_id: adminDeal, preview: 'x' } }),
      });
      expect(form.status).toBe(200);
      expect(form.body.preview).toBe('Third');
      expect((await server.sql('select deal_id from notes where id = ?', [made.id]))[0].deal_id).toBe(ownDeal);
    });

    it('without a sentence changes nothing and answers the record', async () => {
      const { body: made } = await create(own.apiKey, { deal_id: ownDeal, sentence: 'Unchanged' });
      const res = await server.v3(own.apiKey).put(`/conversations/${made.id}.json`, { conversation: {} });
      expect(res.status).toBe(200);
      expect(res.body.preview).toBe('Unchanged');
    });

    it('a blank sentence is a 422 naming it, and nothing changes', async () => {
      const { body: made } = await create(own.apiKey, { deal_id: ownDeal, sentence: 'Keep me' });
      for (const sentence of ['', '  ', null]) {
        const res = await server.v3(own.apiKey).put(`/conversations/${made.id}.json`, { conversation: { sentence } });
        expect({ sentence, status: res.status, body: res.body }).toEqual({
          sentence,
          status: 422,
          body: [{ field: 'sentence', humanized_field: 'Sentence', msg: "can't be blank" }],
        });
      }
      const wrongType = await server.v3(own.apiKey).put(`/conversations/${made.id}.json`, { conversation: { sentence: { nested: true } } });
      expect(wrongType.status).toBe(422);
      expect(wrongType.body[0].field).toBe('sentence');
      expect(await contentOf(made.id)).toBe('Keep me');
    });

    it('a hidden or missing conversation is 404 empty and is not changed', async () => {
      const hidden = await seedNote({ dealId: adminDeal, content: 'Admin only' });
      const onPerson = await seedNote({ personId: person, content: 'About a person' });
      for (const [key, id] of [
        [own.apiKey, hidden],
        [admin, onPerson],
        [foreign, hidden],
      ] as const) {
        const res = await server.v3(key).put(`/conversations/${id}.json`, { conversation: { sentence: 'Hijack' } });
        expect({ id, status: res.status, text: res.text }).toEqual({ id, status: 404, text: '' });
      }
      expect(await contentOf(hidden)).toBe('Admin only');
      expect(await contentOf(onPerson)).toBe('About a person');
    });
  });

  describe('DELETE /conversations/:id.json', () => {
    it('deletes the note and answers 200 with an empty body; then it is 404', async () => {
      const { body: made } = await create(own.apiKey, { deal_id: ownDeal, sentence: 'Bye' });
      const res = await server.v3(own.apiKey).del(`/conversations/${made.id}.json`);
      expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: '' });
      expect(await contentOf(made.id)).toBeUndefined();
      expect((await server.v3(own.apiKey).del(`/conversations/${made.id}.json`)).status).toBe(404);
    });

    it('a hidden conversation or a note not on a deal is 404 empty and stays', async () => {
      const hidden = await seedNote({ dealId: adminDeal, content: 'Stays' });
      const onPerson = await seedNote({ personId: person, content: 'Stays too' });
      for (const [key, id] of [
        [own.apiKey, hidden],
        [admin, onPerson],
        [foreign, hidden],
      ] as const) {
        const res = await server.v3(key).del(`/conversations/${id}.json`);
        expect({ id, status: res.status, text: res.text }).toEqual({ id, status: 404, text: '' });
      }
      expect(await contentOf(hidden)).toBe('Stays');
      expect(await contentOf(onPerson)).toBe('Stays too');
    });
  });

  describe('GraphQL', () => {
    const gql = async (key: string, query: string, variables?: Record<string, unknown>) => {
      const res = await server.graphql(key, query, variables);
      expect(res.body.errors).toBeUndefined();
      return res.body.data;
    };
    const CREATE = `mutation($input: ConversationCreateInput!) { createConversation(input: $input) { conversation { ${GQL_FIELDS} } userErrors { field code message } } }`;
    const UPDATE = `mutation($id: Int!, $input: ConversationUpdateInput!) { updateConversation(id: $id, input: $input) { conversation { ${GQL_FIELDS} } userErrors { field code message } } }`;
    const DELETE = 'mutation($id: Int!) { deleteConversation(id: $id) { deletedId deletedDatabaseId userErrors { field code message } } }';

    it('creates, reads (conversation, node), updates and deletes, with userErrors for bad input', async () => {
      const sentence = `${'a'.repeat(100)} ${'b'.repeat(100)}`;
      const { createConversation } = await gql(own.apiKey, CREATE, { input: { dealId: ownDeal, sentence } });
      expect(createConversation.userErrors).toEqual([]);
      const c = createConversation.conversation;
      expect(c).toMatchObject({
        dealId: ownDeal,
        userId: own.id,
        sentence,
        preview: 'a'.repeat(100),
        hasMore: true,
        author: 'Olga Own',
        user: { databaseId: own.id, fullName: 'Olga Own' },
      });
      const read = await gql(
        own.apiKey,
        `query($id: Int!, $gid: ID!) { conversation(id: $id) { databaseId preview } node(id: $gid) { ... on Conversation { databaseId sentence } } }`,
        { id: c.databaseId, gid: c.id },
      );
      expect(read).toEqual({ conversation: { databaseId: c.databaseId, preview: 'a'.repeat(100) }, node: { databaseId: c.databaseId, sentence } });

      const before = await notes();
      const refused = await gql(own.apiKey, CREATE, { input: { dealId: adminDeal, sentence: ' ' } });
      expect(refused.createConversation.conversation).toBeNull();
      expect(refused.createConversation.userErrors).toEqual([
        { field: ['input', 'dealId'], code: 'NOT_FOUND', message: 'does not exist' },
        { field: ['input', 'sentence'], code: 'BLANK', message: "can't be blank" },
      ]);
      expect(await notes()).toBe(before);

      const { updateConversation } = await gql(own.apiKey, UPDATE, { id: c.databaseId, input: { sentence: 'short' } });
      expect(updateConversation).toMatchObject({ conversation: { preview: 'short', hasMore: false, sentence: 'short' }, userErrors: [] });
      const blank = await gql(own.apiKey, UPDATE, { id: c.databaseId, input: { sentence: null } });
      expect(blank.updateConversation).toEqual({
        conversation: null,
        userErrors: [{ field: ['input', 'sentence'], code: 'BLANK', message: "can't be blank" }],
      });

      const hidden = await gql(admin, CREATE, { input: { dealId: adminDeal, sentence: 'Admin' } });
      const hiddenId = hidden.createConversation.conversation.databaseId;
      expect((await gql(own.apiKey, 'query($id: Int!) { conversation(id: $id) { databaseId } }', { id: hiddenId })).conversation).toBeNull();
      expect((await gql(own.apiKey, UPDATE, { id: hiddenId, input: { sentence: 'x' } })).updateConversation.userErrors).toEqual([
        { field: ['id'], code: 'NOT_FOUND', message: `Conversation ${hiddenId} not found` },
      ]);
      expect((await gql(own.apiKey, DELETE, { id: hiddenId })).deleteConversation).toMatchObject({
        deletedId: null,
        userErrors: [{ field: ['id'], code: 'NOT_FOUND' }],
      });
      expect(await contentOf(hiddenId)).toBe('Admin');

      const { deleteConversation } = await gql(own.apiKey, DELETE, { id: c.databaseId });
      expect(deleteConversation).toEqual({ deletedId: c.id, deletedDatabaseId: c.databaseId, userErrors: [] });
      expect(await contentOf(c.databaseId)).toBeUndefined();
    });
  });
});

describe('previewOf (the preview and has_more rule)', () => {
  it('keeps a sentence that fits, trimmed; cuts a longer one on the last word boundary; hard-cuts one long word', () => {
    expect(previewOf('  hello  ')).toEqual({ preview: 'hello', hasMore: false });
    const exact = 'x'.repeat(PREVIEW_LENGTH);
    expect(previewOf(exact)).toEqual({ preview: exact, hasMore: false });
    // The last word ends exactly at the limit: kept whole.
    expect(previewOf(`${'y'.repeat(PREVIEW_LENGTH)} tail`)).toEqual({ preview: 'y'.repeat(PREVIEW_LENGTH), hasMore: true });
    expect(previewOf(`${'a'.repeat(PREVIEW_LENGTH - 5)} bbbbbbbbbb`)).toEqual({ preview: 'a'.repeat(PREVIEW_LENGTH - 5), hasMore: true });
    expect(previewOf('z'.repeat(PREVIEW_LENGTH + 10))).toEqual({ preview: 'z'.repeat(PREVIEW_LENGTH), hasMore: true });
    // Counted in characters, not UTF-16 units: an emoji is not split.
    const emoji = '😀'.repeat(PREVIEW_LENGTH + 1);
    expect(previewOf(emoji)).toEqual({ preview: '😀'.repeat(PREVIEW_LENGTH), hasMore: true });
  });
});
