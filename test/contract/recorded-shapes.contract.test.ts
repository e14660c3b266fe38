import { hashKey } from '../../src/common/keys';
import { countStatements } from '../support/sql-counter';
import { fixtures } from '../support/fixtures';
import { formEncode, openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 22: v3 as the real service answered, from the official clients' recorded traffic
 * (PipelineDeals/pipeline_api and pipelinedeals_api spec/cassettes). Each test names the recording
 * it follows. Adding a key never breaks a v3 client; keys and secrets the recordings show
 * (a user's `api_key`, a webhook's `account_key`) stay out.
 */

const STAMPS = ['created_at', 'updated_at'];

describe('what the official clients recorded', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let member: { id: number; apiKey: string };

  beforeAll(async () => {
    ({ server, account, key } = await openServerWithAccount({ timeZone: 'America/New_York' }));
    member = await account.addUser({ firstName: 'Mia', lastName: 'Member', isAdmin: false });
  }, 60_000);
  afterAll(() => server.close());

  const api = (k = key) => server.v3(k);

  describe('lead status colours (lead_statuses_create.yml: `"hex_color": 0` stored as "0")', () => {
    it('the official client’s create answers 200 with hex_color "0", a string', async () => {
      // Recorded request body, verbatim but for a name unique in this account.
      const res = await api().post('/admin/lead_statuses.json', { lead_status: { name: 'test lead status', hex_color: 0 } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['id', 'name', 'hex_color', ...STAMPS]);
      expect(res.body).toMatchObject({ name: 'test lead status', hex_color: '0' });
      expect((await api().get(`/admin/lead_statuses/${res.body.id}.json`)).body.hex_color).toBe('0');
      const stored = await server.sql('select hex_color from list_items where id = ?', [res.body.id]);
      expect(stored).toEqual([{ hex_color: '0' }]);
    });

    it('keeps what the real service held as given ("fff", "C73408"), in the index and over GraphQL', async () => {
      const fff = (await api().post('/admin/lead_statuses.json', { lead_status: { name: 'status fff', hex_color: 'fff' } })).body;
      // The form body the older clients send.
      const form = await server.request('POST', '/api/v3/admin/lead_statuses.json', {
        apiKey: key,
        body: formEncode({ lead_status: { name: 'Hot', hex_color: 'C73408' } }),
      });
      expect({ status: form.status, hex_color: form.body.hex_color }).toEqual({ status: 200, hex_color: 'C73408' });
      const index = await api().get('/admin/lead_statuses.json');
      const colours = Object.fromEntries(index.body.entries.map((e: { id: number; hex_color: string }) => [e.id, e.hex_color]));
      expect(colours).toMatchObject({ [fff.id]: 'fff', [form.body.id]: 'C73408' });
      const gql = await server.graphql(key, 'query($id: Int!) { listItem(id: $id) { hexColor } }', { id: form.body.id });
      expect(gql.body.data.listItem).toEqual({ hexColor: 'C73408' });
    });

    it('a number is stored as its decimal string; blank or null clears; longer than 32 characters is a 422 naming hex_color', async () => {
      const { body: status } = await api().post('/admin/lead_statuses.json', { lead_status: { name: 'numbered', hex_color: '#a1b2c3' } });
      expect(status.hex_color).toBe('#a1b2c3');
      const white = await api().put(`/admin/lead_statuses/${status.id}.json`, { lead_status: { hex_color: 16777215 } });
      expect({ status: white.status, hex_color: white.body.hex_color }).toEqual({ status: 200, hex_color: '16777215' });
      const long = await api().put(`/admin/lead_statuses/${status.id}.json`, { lead_status: { hex_color: 'f'.repeat(33) } });
      expect({ status: long.status, body: long.body }).toEqual({
        status: 422,
        body: [{ field: 'hex_color', humanized_field: 'Hex color', msg: 'is too long (maximum is 32 characters)' }],
      });
      expect((await api().get(`/admin/lead_statuses/${status.id}.json`)).body.hex_color).toBe('16777215');
      expect((await api().put(`/admin/lead_statuses/${status.id}.json`, { lead_status: { hex_color: 'f'.repeat(32) } })).body.hex_color).toBe('f'.repeat(32));
      expect((await api().put(`/admin/lead_statuses/${status.id}.json`, { lead_status: { hex_color: '' } })).body.hex_color).toBeNull();
      expect((await api().put(`/admin/lead_statuses/${status.id}.json`, { lead_status: { hex_color: 'fff' } })).body.hex_color).toBe('fff');
      expect((await api().put(`/admin/lead_statuses/${status.id}.json`, { lead_status: { hex_color: null } })).body.hex_color).toBeNull();
    });

    it('calendar entry priorities take a colour the same way (calendar_entry_priorities_create.yml)', async () => {
      const res = await api().post('/admin/calendar_entry_priorities.json', {
        calendar_entry_priority: { name: 'test calendar entry priority', hex_color: 0 },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['id', 'name', 'hex_color', 'position', ...STAMPS]);
      expect(res.body).toMatchObject({ name: 'test calendar entry priority', hex_color: '0', position: expect.any(Number) });
      // Other lists still keep no colour.
      const tag = await api().post('/admin/predefined_contacts_tags.json', { predefined_contacts_tag: { name: 'colourless', hex_color: 'fff' } });
      expect(tag.body).not.toHaveProperty('hex_color');
      expect(await server.sql('select hex_color from list_items where id = ?', [tag.body.id])).toEqual([{ hex_color: null }]);
    });
  });

  describe('notes in lists carry their comments (PipelineDeals_Deal_notes.yml, PipelineDeals_Person_notes.yml)', () => {
    let person: number;
    let deal: number;
    let busy: number;
    let quiet: number;
    const comments: number[] = [];

    beforeAll(async () => {
      person = await fixtures.person(server, key, { firstName: 'Leonard', lastName: 'Jakubowski' });
      deal = await fixtures.deal(server, key);
      busy = (await api().post('/notes.json', { note: { content: 'Busy', person_id: person, deal_id: deal } })).body.id;
      quiet = (await api().post('/notes.json', { note: { content: 'Quiet', person_id: person, deal_id: deal } })).body.id;
      for (let i = 1; i <= 6; i++) comments.push((await api().post(`/notes/${busy}/comments.json`, { comment: { comment: `c${i}` } })).body.id);
    });

    it.each([
      ['/notes.json?person_id', (q: { person: number }) => ['/notes.json', { person_id: q.person }] as const],
      ['/notes.json?deal_id', (q: { deal: number }) => ['/notes.json', { deal_id: q.deal }] as const],
      ['/people/:id/notes.json', (q: { person: number }) => [`/people/${q.person}/notes.json`, {}] as const],
      ['/deals/:id/notes.json', (q: { deal: number }) => [`/deals/${q.deal}/notes.json`, {}] as const],
    ])('%s: every entry embeds its first page of comments, as its show does', async (_label, route) => {
      const [path, query] = route({ person, deal });
      const res = await api().get(path, query);
      expect(res.status).toBe(200);
      const byId = new Map(res.body.entries.map((e: { id: number }) => [e.id, e]));
      const entry = byId.get(busy) as Record<string, any>;
      // DECISIONS (Paging): comments 5 a page, oldest first; the rest is at /notes/:id/comments.json.
      expect(entry.comments.entries.map((c: { id: number }) => c.id)).toEqual(comments.slice(0, 5));
      expect(entry.comments.pagination).toMatchObject({ page: 1, per_page: 5, total: 6, pages: 2, page_var: 'page' });
      expect(entry.comments.entries).toEqual((await api().get(`/notes/${busy}/comments.json`)).body.entries);
      expect(entry).toEqual((await api().get(`/notes/${busy}.json`)).body);
      const none = byId.get(quiet) as Record<string, any>;
      expect(none.comments.entries).toEqual([]);
      expect(none.comments.pagination).toMatchObject({ page: 1, per_page: 5, total: 0 });
    });

    it('attrs may pick comments alone; creates and updates answer as before, without comments', async () => {
      const picked = await api().get('/notes.json', { person_id: person, attrs: 'id,comments' });
      for (const e of picked.body.entries) expect(Object.keys(e)).toEqual(['id', 'comments']);
      const created = await api().post('/notes.json', { note: { content: 'New', person_id: person } });
      expect(created.status).toBe(200);
      expect(created.body).not.toHaveProperty('comments');
      const updated = await api().put(`/notes/${busy}.json`, { note: { content: 'Busier' } });
      expect(updated.body).not.toHaveProperty('comments');
    });
  });

  describe('convenience objects carry both name forms', () => {
    it('a document’s person and owner: id, first_name, last_name, full_name (PipelineDeals_Person_documents.yml)', async () => {
      const person = await fixtures.person(server, key, { firstName: 'Leonard', lastName: 'Jakubowski' });
      const id = await fixtures.document(server, key, { personId: person });
      const shown = (await api().get(`/documents/${id}.json`)).body;
      expect(shown.person).toEqual({ id: person, first_name: 'Leonard', last_name: 'Jakubowski', full_name: 'Leonard Jakubowski' });
      expect(shown.owner).toEqual({ id: account.admin.id, first_name: expect.any(String), last_name: expect.any(String), full_name: expect.any(String) });
      const listed = (await api().get('/documents.json', { person_id: person })).body.entries;
      expect(listed.map((d: { id: number; person: unknown; owner: unknown }) => [d.id, d.person, d.owner])).toEqual([[id, shown.person, shown.owner]]);
    });

    it('a person’s lead_status carries its hex_color (get_a_person.yml: {"hex_color": "C73408", "id": 2, "name": "Hot"})', async () => {
      const { body: hot } = await api().post('/admin/lead_statuses.json', { lead_status: { name: 'Hot lead', hex_color: 'C73408' } });
      const { body: person } = await api().post('/people.json', { person: { last_name: 'Statused', lead_status_id: hot.id } });
      expect(person.lead_status).toEqual({ id: hot.id, name: 'Hot lead', hex_color: 'C73408' });
      expect((await api().get(`/people/${person.id}.json`)).body.lead_status).toEqual(person.lead_status);
      const listed = (await api().get('/people.json', { 'conditions[person_status]': hot.id })).body.entries;
      expect(listed.map((p: { lead_status: unknown }) => p.lead_status)).toEqual([person.lead_status]);
      const { body: plain } = await api().post('/people.json', { person: { last_name: 'Unstatused' } });
      expect(plain.lead_status).toBeNull();
    });
  });

  describe('keys clients read', () => {
    it('users: account_id, is_account_admin, avatar_thumb_url (pipeline_user.yml, deal_user.yml); never api_key', async () => {
      const index = await api().get('/users.json');
      const byId = Object.fromEntries(index.body.entries.map((u: { id: number }) => [u.id, u]));
      expect(byId[account.admin.id]).toMatchObject({ account_id: account.accountId, is_account_admin: true, is_admin: true, avatar_thumb_url: null });
      expect(byId[member.id]).toMatchObject({ account_id: account.accountId, is_account_admin: false, is_admin: false, avatar_thumb_url: null });
      const shown = await api(member.apiKey).get(`/users/${account.admin.id}.json`);
      expect(shown.body).toEqual(byId[account.admin.id]);
      const profile = await api(member.apiKey).get('/profile.json');
      expect(profile.body).toMatchObject({ id: member.id, account_id: account.accountId, is_account_admin: false, avatar_thumb_url: null });
      for (const res of [index, shown, profile]) {
        expect(res.text).not.toMatch(/api_?key/i);
        for (const secret of [key, member.apiKey, hashKey(key), hashKey(member.apiKey)]) expect(res.text).not.toContain(secret);
      }
      const gql = await server.graphql(member.apiKey, '{ viewer { accountId isAdmin } }');
      expect(gql.body.data.viewer).toEqual({ accountId: account.accountId, isAdmin: false });
    });

    it.each([
      // deal_loss_reasons_create.yml, deal_won_reasons_create.yml: {id, name, account_id, position, created_at, updated_at}
      ['deal_loss_reasons', 'deal_loss_reason', ['id', 'name', 'account_id', 'position', ...STAMPS]],
      ['deal_won_reasons', 'deal_won_reason', ['id', 'name', 'account_id', 'position', ...STAMPS]],
      // event_categories_create.yml: {id, name, position, ...}: no account_id recorded.
      ['event_categories', 'event_category', ['id', 'name', 'position', ...STAMPS]],
      // calendar_entry_priorities_create.yml: {id, name, hex_color, position, ...}
      ['calendar_entry_priorities', 'calendar_entry_priority', ['id', 'name', 'hex_color', 'position', ...STAMPS]],
      // lead_statuses_create.yml: {id, created_at, updated_at, hex_color, name}: neither account_id nor position.
      ['lead_statuses', 'lead_status', ['id', 'name', 'hex_color', ...STAMPS]],
      // lead_sources, note_categories, predefined_contacts_tags, document_tags: unchanged.
      ['lead_sources', 'lead_source', ['id', 'name', 'cost_per_lead_in_cents', 'flat_fee_in_cents', ...STAMPS]],
      ['note_categories', 'note_category', ['id', 'name', ...STAMPS]],
      ['predefined_contacts_tags', 'predefined_contacts_tag', ['id', 'name', ...STAMPS]],
      ['document_tags', 'document_tag', ['id', 'name', ...STAMPS]],
    ])('/admin/%s entries have the recorded keys', async (path, root, keys) => {
      const created = await api().post(`/admin/${path}.json`, { [root]: { name: `test ${root}` } });
      expect(created.status).toBe(200);
      expect(Object.keys(created.body)).toEqual(keys);
      if (keys.includes('account_id')) expect(created.body.account_id).toBe(account.accountId);
      if (keys.includes('position')) expect(created.body.position).toEqual(expect.any(Number));
      const index = await api(member.apiKey).get(`/admin/${path}.json`);
      for (const e of index.body.entries) expect(Object.keys(e)).toEqual(keys);
      expect(index.body.entries.find((e: { id: number }) => e.id === created.body.id)).toEqual(created.body);
    });

    it('todo templates and their items show account_id (todo_templates_index.yml, todo_template_items_index.yml)', async () => {
      const { body: template } = await api().post('/admin/todo_templates.json', { todo_template: { name: 'test todo template' } });
      expect(template).toMatchObject({ account_id: account.accountId });
      const { body: item } = await api().post('/admin/todo_template_items.json', {
        todo_template_item: { description: 'test todo template item', todo_template_id: template.id },
      });
      expect(item).toMatchObject({ todo_template_id: template.id, account_id: account.accountId });
      const shown = (await api().get(`/admin/todo_templates/${template.id}.json`)).body;
      expect(shown.todo_template_items).toEqual([expect.objectContaining({ id: item.id, account_id: account.accountId })]);
      const data = (await server.graphql(key, 'query($id: Int!) { todoTemplate(id: $id) { accountId items { accountId } } }', { id: template.id })).body.data;
      expect(data.todoTemplate).toEqual({ accountId: account.accountId, items: [{ accountId: account.accountId }] });
    });

    it('the new keys cost no statement per row: users and admin lists answer a page of 3 or 60 rows with the same statements', async () => {
      const own = await server.createAccount();
      const countFor = async (path: string) => (await countStatements(() => api(own.admin.apiKey).get(path))).statements.length;
      const reasons = async (n: number) => {
        for (let i = 0; i < n; i++) await fixtures.dealLossReason(server, own.admin.apiKey);
      };
      await reasons(3);
      const few = await countFor('/admin/deal_loss_reasons.json');
      await reasons(57);
      const many = await countFor('/admin/deal_loss_reasons.json');
      expect((await api(own.admin.apiKey).get('/admin/deal_loss_reasons.json')).body.entries).toHaveLength(60);
      expect(many).toBe(few);

      const usersFew = await countFor('/users.json');
      for (let i = 0; i < 20; i++) await own.addUser({ isAdmin: i % 2 === 0 });
      const usersMany = await countFor('/users.json');
      expect((await api(own.admin.apiKey).get('/users.json')).body.entries).toHaveLength(21);
      expect(usersMany).toBe(usersFew);
    });
  });
});
