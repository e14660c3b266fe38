import { toGlobalId } from '../../src/graphql/node';
import { Visibility } from '../../src/context/viewer';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Probes from outside: records of the activities and saved-search issues reached by every lookup
 * path GraphQL offers (node, nodes, the type's own query) by a user who may not see them: each
 * answers as if the record did not exist.
 */
describe('activities and searches hidden from an own-visibility user on every GraphQL path', () => {
  let server: TestServer;
  let account: TestAccount;
  let own: { id: number; apiKey: string };
  const hidden: Record<string, number> = {};

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    own = await account.addUser({ visibility: Visibility.OWN, isAdmin: false });
    const admin = server.v3(account.admin.apiKey);
    const deal = await admin.post('/deals.json', { deal: { name: 'Secret deal' } });
    const note = await admin.post('/notes.json', { note: { deal_id: deal.body.id, content: 'Secret note' } });
    const comment = await admin.post(`/notes/${note.body.id}/comments.json`, { comment: { comment: 'Secret comment' } });
    const conversation = await admin.post('/conversations.json', { conversation: { deal_id: deal.body.id, sentence: 'Secret talk' } });
    const notification = await admin.post('/account_notifications.json', { text: 'For the admin only' });
    const search = await server.graphql(
      account.admin.apiKey,
      'mutation { createSearch(input: { name: "Mine", searchType: DEALS, query: {} }) { search { databaseId } userErrors { message } } }',
    );
    for (const [name, res] of Object.entries({ deal, note, comment, conversation, notification })) {
      expect([name, res.status]).toEqual([name, 200]);
    }
    expect(search.body.data.createSearch.userErrors).toEqual([]);
    Object.assign(hidden, {
      Deal: deal.body.id,
      Note: note.body.id,
      Comment: comment.body.id,
      Conversation: conversation.body.id,
      AccountNotification: notification.body.id,
      SavedSearch: search.body.data.createSearch.search.databaseId,
    });
  }, 60_000);
  afterAll(() => server.close());

  it('node and nodes answer null for each of them (their owner sees every one)', async () => {
    for (const [type, id] of Object.entries(hidden)) {
      const global = toGlobalId(type, id);
      const mine = await server.graphql(account.admin.apiKey, 'query($id: ID!) { node(id: $id) { id } }', { id: global });
      expect([type, mine.body.data]).toEqual([type, { node: { id: global } }]);
      const res = await server.graphql(own.apiKey, 'query($id: ID!) { node(id: $id) { id } nodes(ids: [$id]) { id } }', { id: global });
      expect([type, res.body.errors, res.body.data]).toEqual([type, undefined, { node: null, nodes: [null] }]);
    }
  });

  it('their own lookups and lists answer nothing', async () => {
    const res = await server.graphql(
      own.apiKey,
      `query($note: Int!, $search: Int!, $notification: Int!, $conversation: Int!) {
        note(id: $note) { databaseId }
        search(id: $search) { databaseId }
        accountNotification(id: $notification) { databaseId }
        conversation(id: $conversation) { databaseId }
        notes(first: 50) { nodes { databaseId } }
        searches(first: 50) { nodes { databaseId } }
        accountNotifications(first: 50) { nodes { databaseId } }
      }`,
      { note: hidden.Note, search: hidden.SavedSearch, notification: hidden.AccountNotification, conversation: hidden.Conversation },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      note: null,
      search: null,
      accountNotification: null,
      conversation: null,
      notes: { nodes: [] },
      searches: { nodes: [] },
      accountNotifications: { nodes: [] },
    });
  });

  it('over v3 the same records are 404s', async () => {
    const v3 = server.v3(own.apiKey);
    expect((await v3.get(`/notes/${hidden.Note}.json`)).status).toBe(404);
    expect((await v3.get(`/notes/${hidden.Note}/comments/${hidden.Comment}.json`)).status).toBe(404);
    expect((await v3.get(`/notes/${hidden.Note}/comments.json`)).status).toBe(404);
    expect((await v3.get(`/conversations/${hidden.Conversation}.json`)).status).toBe(404);
    expect((await v3.get(`/account_notifications/${hidden.AccountNotification}.json`)).status).toBe(404);
    expect((await v3.get(`/searches/${hidden.SavedSearch}.json`)).status).toBe(404);
    expect((await v3.get(`/deals/${hidden.Deal}/notes.json`)).status).toBe(404);
    expect((await v3.get('/deals.json', { search_id: hidden.SavedSearch })).status).toBe(404);
    // Writes too: nothing changes.
    expect((await v3.put(`/notes/${hidden.Note}.json`, { note: { content: 'mine now' } })).status).toBe(404);
    expect((await v3.del(`/notes/${hidden.Note}/comments/${hidden.Comment}.json`)).status).toBe(404);
    const [{ content }] = await server.sql('select content from notes where id = ?', [hidden.Note]);
    expect(content).toBe('Secret note');
  });
});
