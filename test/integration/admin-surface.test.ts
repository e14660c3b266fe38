import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase } from '../../src/db/embedded';
import { openOrm } from '../../src/app/orm';
import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * DECISIONS (Admin surface): every admin list is readable by every user of the account and
 * writable by its admins, over v3 (index, show, create, update, delete) and GraphQL alike; a
 * non-admin write is a 403 (v3) or FORBIDDEN (GraphQL); validation errors are 422 bare arrays naming
 * the v3 field; deleting an item clears what refers to it.
 */

interface AdminList {
  /** `/admin/<path>.json` */
  readonly path: string;
  /** The body's root key. */
  readonly root: string;
  /** Minimal valid attributes (a unique name). */
  readonly attrs: () => Record<string, unknown>;
  /** A change and what it shows. */
  readonly change: Record<string, unknown>;
  /** The v3 keys of an entry, in order. */
  readonly keys: readonly string[];
  /** The required text field (blank: 422 "can't be blank"). */
  readonly required: string;
}

let serial = 0;
const unique = (what: string) => `${what} ${process.pid}-${++serial}`;

const ID_NAME = ['id', 'name'];
const STAMPS = ['created_at', 'updated_at'];
const nameList = (path: string, root: string, keys: readonly string[] = [...ID_NAME, ...STAMPS], change: Record<string, unknown> = {}): AdminList => ({
  path,
  root,
  attrs: () => ({ name: unique(root) }),
  change: { name: unique(`${root} renamed`), ...change },
  keys,
  required: 'name',
});

const LISTS: readonly AdminList[] = [
  nameList('lead_statuses', 'lead_status', ['id', 'name', 'hex_color', ...STAMPS], { hex_color: '#a1b2c3' }),
  nameList('lead_sources', 'lead_source', ['id', 'name', 'cost_per_lead_in_cents', 'flat_fee_in_cents', ...STAMPS], {
    cost_per_lead_in_cents: 250,
    flat_fee_in_cents: 10000,
  }),
  nameList('predefined_contacts_tags', 'predefined_contacts_tag'),
  nameList('note_categories', 'note_category'),
  // Issue 22 §4: reasons show their account_id, as recorded.
  nameList('deal_loss_reasons', 'deal_loss_reason', ['id', 'name', 'account_id', 'position', ...STAMPS], { position: 7 }),
  nameList('deal_won_reasons', 'deal_won_reason', ['id', 'name', 'account_id', 'position', ...STAMPS], { position: 7 }),
  nameList('event_categories', 'event_category', ['id', 'name', 'position', ...STAMPS], { position: 7 }),
  nameList('document_tags', 'document_tag'),
  // Issue 22 §4: priorities carry a colour and a position, as recorded.
  nameList('calendar_entry_priorities', 'calendar_entry_priority', ['id', 'name', 'hex_color', 'position', ...STAMPS], { hex_color: 'C73408', position: 7 }),
  {
    path: 'deal_stages',
    root: 'deal_stage',
    attrs: () => ({ name: unique('stage'), percent: 30 }),
    change: { name: unique('stage renamed'), percent: 35, position: 9 },
    keys: ['id', 'name', 'percent', 'position', ...STAMPS],
    required: 'name',
  },
  {
    path: 'todo_templates',
    root: 'todo_template',
    attrs: () => ({ name: unique('template') }),
    change: { name: unique('template renamed'), template_type: 'deals', is_default: true },
    keys: ['id', 'name', 'account_id', 'template_type', 'is_default', 'todo_template_items', ...STAMPS],
    required: 'name',
  },
];

describe('the admin surface (DECISIONS: Admin surface)', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let member: string;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    admin = account.admin.apiKey;
    member = (await account.addUser({ isAdmin: false })).apiKey;
  }, 60_000);
  afterAll(() => server.close());

  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => (await server.graphql(key, query, variables)).body;

  describe.each(LISTS.map((l) => [l.path, l] as const))('/admin/%s', (_path, list) => {
    const url = (id?: number | string) => `/admin/${list.path}${id === undefined ? '' : `/${id}`}.json`;

    it('admins create (JSON or form), show, update and delete; every user reads', async () => {
      const v3 = server.v3(admin);
      const attrs = list.attrs();
      const created = await v3.post(url(), { [list.root]: attrs });
      expect(created.status).toBe(200);
      expect(Object.keys(created.body)).toEqual(list.keys);
      expect(created.body).toMatchObject({
        id: expect.any(Number),
        ...attrs,
        created_at: expect.stringMatching(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d [+-]\d{4}$/),
      });
      const id = created.body.id as number;

      const form = list.attrs();
      const viaForm = await server.request('POST', `/api/v3${url()}`, { apiKey: admin, body: formEncode({ [list.root]: form }) });
      expect(viaForm.status).toBe(200);
      expect(viaForm.body).toMatchObject(form);

      for (const key of [admin, member]) {
        const shown = await server.v3(key).get(url(id));
        expect(shown.status).toBe(200);
        expect(shown.body).toEqual(created.body);
        const index = await server.v3(key).get(url());
        expect(index.status).toBe(200);
        expect(index.body.pagination).toMatchObject({ page: 1, per_page: 200 });
        expect(index.body.entries.map((e: { id: number }) => e.id)).toEqual(expect.arrayContaining([id, viaForm.body.id]));
      }

      // Clients PUT back what they read, changed in a field or two: read-only keys are ignored.
      const updated = await v3.put(url(id), { [list.root]: { ...created.body, ...list.change } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id, ...list.change });
      expect((await v3.get(url(id))).body).toMatchObject(list.change);

      const deleted = await v3.del(url(id));
      expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 200, text: '' });
      expect((await v3.get(url(id))).status).toBe(404);
      expect((await v3.del(url(id))).status).toBe(404);
    });

    it('a non-admin write is a 403 {"error"} and changes nothing', async () => {
      const v3 = server.v3(member);
      const { body: item } = await server.v3(admin).post(url(), { [list.root]: list.attrs() });
      const attempts = [
        await v3.post(url(), { [list.root]: list.attrs() }),
        await v3.put(url(item.id), { [list.root]: list.change }),
        await v3.del(url(item.id)),
        await v3.put(url(2_000_000_000), { [list.root]: list.change }),
      ];
      for (const res of attempts) expect({ status: res.status, error: typeof res.body?.error }).toEqual({ status: 403, error: 'string' });
      expect((await server.v3(admin).get(url(item.id))).body).toEqual(item);
    });

    it('validation errors are 422 bare arrays naming the v3 field; a missing or foreign item is a 404', async () => {
      const v3 = server.v3(admin);
      const blank = await v3.post(url(), { [list.root]: { ...list.attrs(), [list.required]: '  ' } });
      expect({ status: blank.status, body: blank.body }).toEqual({
        status: 422,
        body: [{ field: list.required, humanized_field: expect.any(String), msg: "can't be blank" }],
      });
      const missing = await v3.post(url(), { [list.root]: { percent: 50 } });
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual(expect.arrayContaining([expect.objectContaining({ field: list.required, msg: "can't be blank" })]));

      const taken = list.attrs();
      expect((await v3.post(url(), { [list.root]: taken })).status).toBe(200);
      const again = await v3.post(url(), { [list.root]: { ...list.attrs(), name: String(taken.name).toUpperCase() } });
      expect({ status: again.status, body: again.body }).toEqual({
        status: 422,
        body: [{ field: 'name', humanized_field: 'Name', msg: 'has already been taken' }],
      });

      const other = await server.createAccount();
      const { body: theirs } = await server.v3(other.admin.apiKey).post(url(), { [list.root]: list.attrs() });
      for (const res of [
        await v3.get(url(theirs.id)),
        await v3.put(url(theirs.id), { [list.root]: list.change }),
        await v3.del(url(theirs.id)),
        await v3.get(url(2_000_000_000)),
      ]) {
        expect({ status: res.status, text: res.text }).toEqual({ status: 404, text: '' });
      }
      expect((await server.v3(other.admin.apiKey).get(url(theirs.id))).body).toEqual(theirs);
    });
  });

  describe('lists of one table answer only their own items', () => {
    it('a note category is not a lead status: show, update and delete through another list are 404', async () => {
      const v3 = server.v3(admin);
      const { body: category } = await v3.post('/admin/note_categories.json', { note_category: { name: unique('category') } });
      for (const res of [
        await v3.get(`/admin/lead_statuses/${category.id}.json`),
        await v3.put(`/admin/lead_statuses/${category.id}.json`, { lead_status: { name: 'x' } }),
        await v3.del(`/admin/document_tags/${category.id}.json`),
      ]) {
        expect(res.status).toBe(404);
      }
      expect((await v3.get(`/admin/note_categories/${category.id}.json`)).body).toEqual(category);
      expect(
        (await gql(admin, 'query($id: Int!) { a: listItem(id: $id, kind: LEAD_STATUS) { name } b: listItem(id: $id) { kind } }', { id: category.id })).data,
      ).toEqual({ a: null, b: { kind: 'NOTE_CATEGORY' } });
    });
  });

  describe("a new account's calendar lists (issue 25 §5)", () => {
    it('starts with event categories and calendar entry priorities, listed over v3 and GraphQL', async () => {
      const fresh = await server.createAccount();
      const key = fresh.admin.apiKey;
      const reader = (await fresh.addUser({ isAdmin: false })).apiKey;
      const categories = await server.v3(reader).get('/admin/event_categories.json');
      expect(categories.status).toBe(200);
      expect(categories.body.entries.map((e: { name: string; position: number }) => [e.name, e.position])).toEqual([
        ['Call', 0],
        ['Email', 1],
        ['Meeting', 2],
        ['Follow-up', 3],
        ['Milestone', 4],
      ]);
      const priorities = await server.v3(reader).get('/admin/calendar_entry_priorities.json');
      expect(priorities.status).toBe(200);
      expect(priorities.body.entries.map((e: { name: string; hex_color: string; position: number }) => [e.name, e.hex_color, e.position])).toEqual([
        ['High', '#ef4444', 0],
        ['Medium', '#f59e0b', 1],
        ['Low', '#6b7280', 2],
      ]);

      const listed = (
        await gql(
          reader,
          '{ eventCategories(first: 200) { nodes { databaseId name position } } calendarEntryPriorities(first: 200) { nodes { name hexColor position } } }',
        )
      ).data;
      expect(listed.eventCategories.nodes).toEqual(
        categories.body.entries.map((e: { id: number; name: string; position: number }) => ({ databaseId: e.id, name: e.name, position: e.position })),
      );
      expect(listed.calendarEntryPriorities.nodes).toEqual([
        { name: 'High', hexColor: '#ef4444', position: 0 },
        { name: 'Medium', hexColor: '#f59e0b', position: 1 },
        { name: 'Low', hexColor: '#6b7280', position: 2 },
      ]);

      // A deal's expected close date task goes in the Milestone the account starts with: none is added.
      const deal = await server.v3(key).post('/deals.json', { deal: { name: 'Dated', expected_close_date: '2027-05-29' } });
      const task = await server.v3(key).get(`/calendar_entries/${deal.body.expected_close_date_event_id}.json`);
      const milestone = categories.body.entries.find((e: { name: string }) => e.name === 'Milestone');
      expect(task.body.category).toEqual({ id: milestone.id, name: 'Milestone' });
      expect((await server.v3(key).get('/admin/event_categories.json')).body.entries).toHaveLength(5);
    });
  });

  describe('fields of their own', () => {
    it('lead statuses: hex_color is kept as given, at most 32 characters', async () => {
      const res = await server.v3(admin).post('/admin/lead_statuses.json', { lead_status: { name: unique('status'), hex_color: 'x'.repeat(33) } });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 422,
        body: [{ field: 'hex_color', humanized_field: 'Hex color', msg: 'is too long (maximum is 32 characters)' }],
      });
      const red = await server.v3(admin).post('/admin/lead_statuses.json', { lead_status: { name: unique('status'), hex_color: 'red' } });
      expect({ status: red.status, hex_color: red.body.hex_color }).toEqual({ status: 200, hex_color: 'red' });
    });

    it('lead sources: costs in cents, 0 or more, kept apart from other lists', async () => {
      const v3 = server.v3(admin);
      const { body: source } = await v3.post('/admin/lead_sources.json', { lead_source: { name: unique('source'), cost_per_lead_in_cents: '125' } });
      expect(source).toMatchObject({ cost_per_lead_in_cents: 125, flat_fee_in_cents: null });
      // One cost changed: the other stays.
      expect((await v3.put(`/admin/lead_sources/${source.id}.json`, { lead_source: { flat_fee_in_cents: 5000 } })).body).toMatchObject({
        cost_per_lead_in_cents: 125,
        flat_fee_in_cents: 5000,
      });
      const negative = await v3.put(`/admin/lead_sources/${source.id}.json`, { lead_source: { cost_per_lead_in_cents: -1 } });
      expect({ status: negative.status, body: negative.body }).toEqual({
        status: 422,
        body: [{ field: 'cost_per_lead_in_cents', humanized_field: 'Cost per lead in cents', msg: 'must be greater than or equal to 0' }],
      });
      expect((await v3.put(`/admin/lead_sources/${source.id}.json`, { lead_source: { cost_per_lead_in_cents: null } })).body).toMatchObject({
        cost_per_lead_in_cents: null,
        flat_fee_in_cents: 5000,
      });
      const data = (
        await gql(admin, '{ leadSources { nodes { databaseId costPerLeadInCents flatFeeInCents } } contactTags(first: 1) { nodes { costPerLeadInCents } } }')
      ).data;
      expect(data.leadSources.nodes.find((n: { databaseId: number }) => n.databaseId === source.id)).toEqual({
        databaseId: source.id,
        costPerLeadInCents: null,
        flatFeeInCents: 5000,
      });
      expect(data.contactTags.nodes).toEqual([{ costPerLeadInCents: null }]);
      expect((await v3.del(`/admin/lead_sources/${source.id}.json`)).status).toBe(200);
      expect(await server.sql('select * from lead_source_costs where list_item_id = ?', [source.id])).toEqual([]);
    });

    it('deal stages: percent from 0 to 100, required on create', async () => {
      const v3 = server.v3(admin);
      for (const percent of [101, -1, '250']) {
        const res = await v3.post('/admin/deal_stages.json', { deal_stage: { name: unique('stage'), percent } });
        expect({ percent, status: res.status, body: res.body }).toEqual({
          percent,
          status: 422,
          body: [{ field: 'percent', humanized_field: 'Percent', msg: 'must be between 0 and 100' }],
        });
      }
      const { body: stage } = await v3.post('/admin/deal_stages.json', { deal_stage: { name: unique('stage'), percent: '0' } });
      expect(stage).toMatchObject({ percent: 0 });
      const cleared = await v3.put(`/admin/deal_stages/${stage.id}.json`, { deal_stage: { percent: null } });
      expect({ status: cleared.status, body: cleared.body }).toEqual({
        status: 422,
        body: [{ field: 'percent', humanized_field: 'Percent', msg: "can't be blank" }],
      });
      const without = await v3.post('/admin/deal_stages.json', { deal_stage: { name: unique('stage') } });
      expect({ status: without.status, body: without.body }).toEqual({
        status: 422,
        body: [{ field: 'percent', humanized_field: 'Percent', msg: "can't be blank" }],
      });
    });

    it('a new account starts with open stages, Won (100) and Lost (0), in order', async () => {
      const fresh = await server.createAccount();
      const res = await server.v3(fresh.admin.apiKey).get('/admin/deal_stages.json');
      expect(res.body.entries.map((e: { name: string; percent: number; position: number }) => [e.name, e.percent, e.position])).toEqual([
        ['Incoming', 10, 0],
        ['Qualified', 25, 1],
        ['Proposal', 50, 2],
        ['Negotiation', 75, 3],
        ['Won', 100, 4],
        ['Lost', 0, 5],
      ]);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 200, total: 6, pages: 1, page_var: 'page' });
    });
  });

  describe('todo templates and their items', () => {
    it('items belong to a template of the account, show in it, and lose a deleted event category or priority', async () => {
      const v3 = server.v3(admin);
      const { body: category } = await v3.post('/admin/event_categories.json', { event_category: { name: unique('category') } });
      const { body: priority } = await v3.post('/admin/calendar_entry_priorities.json', { calendar_entry_priority: { name: unique('priority') } });
      const { body: template } = await v3.post('/admin/todo_templates.json', { todo_template: { name: unique('template'), template_type: 'people' } });
      expect(template).toMatchObject({ template_type: 'people', is_default: false, todo_template_items: [] });

      // The official clients send form bodies.
      const first = await server.request('POST', '/api/v3/admin/todo_template_items.json', {
        apiKey: admin,
        body: formEncode({ todo_template_item: { description: 'Call them', todo_template_id: template.id, event_category_id: category.id, due_date: '2' } }),
      });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        description: 'Call them',
        due_date: 2,
        todo_template_id: template.id,
        event_category_id: category.id,
        event_category: { id: category.id, name: category.name },
        calendar_entry_priority_id: null,
      });
      const { body: second } = await v3.post('/admin/todo_template_items.json', {
        todo_template_item: { description: 'Send a quote', todo_template_id: template.id, calendar_entry_priority_id: priority.id },
      });

      const shown = (await v3.get(`/admin/todo_templates/${template.id}.json`)).body;
      expect(shown.todo_template_items).toEqual([
        {
          id: first.body.id,
          description: 'Call them',
          due_date: 2,
          event_category_id: category.id,
          event_category: { id: category.id, name: category.name },
          account_id: account.accountId,
          calendar_entry_priority_id: null,
        },
        {
          id: second.id,
          description: 'Send a quote',
          due_date: null,
          event_category_id: null,
          event_category: null,
          account_id: account.accountId,
          calendar_entry_priority_id: priority.id,
        },
      ]);
      const items = await server.v3(member).get('/admin/todo_template_items.json', { 'conditions[todo_template_id]': template.id });
      expect(items.body.entries.map((e: { id: number }) => e.id)).toEqual([first.body.id, second.id]);
      expect((await v3.get('/admin/todo_template_items.json', { todo_template_id: template.id })).body.pagination.total).toBe(2);

      expect((await v3.del(`/admin/event_categories/${category.id}.json`)).status).toBe(200);
      expect((await v3.del(`/admin/calendar_entry_priorities/${priority.id}.json`)).status).toBe(200);
      expect((await v3.get(`/admin/todo_template_items/${first.body.id}.json`)).body).toMatchObject({ event_category_id: null, event_category: null });
      expect((await v3.get(`/admin/todo_template_items/${second.id}.json`)).body).toMatchObject({ calendar_entry_priority_id: null });

      // Deleting the template deletes its items.
      expect((await v3.del(`/admin/todo_templates/${template.id}.json`)).status).toBe(200);
      expect((await v3.get(`/admin/todo_template_items/${first.body.id}.json`)).status).toBe(404);
      expect(await server.sql('select id from todo_template_items where todo_template_id = ?', [template.id])).toEqual([]);
    });

    it('refuses references outside the account or to another list, naming the field', async () => {
      const v3 = server.v3(admin);
      const { body: template } = await v3.post('/admin/todo_templates.json', { todo_template: { name: unique('template') } });
      const other = await server.createAccount();
      const { body: theirs } = await server.v3(other.admin.apiKey).post('/admin/todo_templates.json', { todo_template: { name: unique('template') } });
      const { body: tag } = await v3.post('/admin/document_tags.json', { document_tag: { name: unique('tag') } });
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{}, 'todo_template_id', "can't be blank"],
        [{ todo_template_id: theirs.id }, 'todo_template_id', 'does not exist'],
        [{ todo_template_id: template.id, event_category_id: tag.id }, 'event_category_id', 'does not exist'],
        [{ todo_template_id: template.id, calendar_entry_priority_id: tag.id }, 'calendar_entry_priority_id', 'does not exist'],
        [{ todo_template_id: template.id, due_date: 5000 }, 'due_date', 'must be between 0 and 3650'],
        [{ todo_template_id: template.id, description: '' }, 'description', "can't be blank"],
      ];
      for (const [attrs, field, msg] of cases) {
        const res = await v3.post('/admin/todo_template_items.json', { todo_template_item: { description: 'Task', ...attrs } });
        expect({ attrs, status: res.status, body: res.body }).toEqual({ attrs, status: 422, body: [{ field, humanized_field: expect.any(String), msg }] });
      }
      expect((await v3.get('/admin/todo_template_items.json', { todo_template_id: theirs.id })).body.entries).toEqual([]);
    });

    it('one default template per type', async () => {
      const v3 = server.v3(admin);
      const { body: a } = await v3.post('/admin/todo_templates.json', {
        todo_template: { name: unique('template'), template_type: 'deals', is_default: true },
      });
      const { body: b } = await v3.post('/admin/todo_templates.json', { todo_template: { name: unique('template'), template_type: 'deals', is_default: '1' } });
      const { body: c } = await v3.post('/admin/todo_templates.json', {
        todo_template: { name: unique('template'), template_type: 'people', is_default: true },
      });
      expect(b.is_default).toBe(true);
      expect((await v3.get(`/admin/todo_templates/${a.id}.json`)).body.is_default).toBe(false);
      expect((await v3.get(`/admin/todo_templates/${c.id}.json`)).body.is_default).toBe(true);
    });

    it('a template holds at most 100 items', async () => {
      const { body: template } = await server.v3(admin).post('/admin/todo_templates.json', { todo_template: { name: unique('template') } });
      const values = Array.from({ length: 100 }, (_, i) => `(${account.accountId}, ${template.id}, 'Task ${i}', ${i}, now(), now())`).join(', ');
      await server.sql(`insert into todo_template_items (account_id, todo_template_id, description, position, created_at, updated_at) values ${values}`);
      const res = await server
        .v3(admin)
        .post('/admin/todo_template_items.json', { todo_template_item: { description: 'One more', todo_template_id: template.id } });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 422,
        body: [{ field: 'todo_template_id', humanized_field: 'Todo template', msg: 'has too many items (maximum is 100)' }],
      });
      expect((await gql(admin, 'query($id: Int!) { todoTemplate(id: $id) { items { position } } }', { id: template.id })).data.todoTemplate.items).toHaveLength(
        100,
      );
    });
  });

  describe('deleting an item clears references to it', () => {
    it('a person loses a deleted lead status, lead source and contact tag (v3 deletes)', async () => {
      const v3 = server.v3(admin);
      const { body: status } = await v3.post('/admin/lead_statuses.json', { lead_status: { name: unique('status') } });
      const { body: source } = await v3.post('/admin/lead_sources.json', { lead_source: { name: unique('source'), flat_fee_in_cents: 100 } });
      const { body: tag } = await v3.post('/admin/predefined_contacts_tags.json', { predefined_contacts_tag: { name: unique('tag') } });
      const { body: keep } = await v3.post('/admin/predefined_contacts_tags.json', { predefined_contacts_tag: { name: unique('tag') } });
      const { body: person } = await v3.post('/people.json', {
        person: { last_name: 'Referred', type: 'Lead', lead_status_id: status.id, lead_source_id: source.id, predefined_contacts_tag_ids: [tag.id, keep.id] },
      });
      expect(person).toMatchObject({ lead_status_id: status.id, lead_source_id: source.id, predefined_contacts_tag_ids: [tag.id, keep.id] });
      for (const path of [`/admin/lead_statuses/${status.id}.json`, `/admin/lead_sources/${source.id}.json`, `/admin/predefined_contacts_tags/${tag.id}.json`])
        expect((await v3.del(path)).status).toBe(200);
      expect((await v3.get(`/people/${person.id}.json`)).body).toMatchObject({
        lead_status_id: null,
        lead_status: null,
        lead_source_id: null,
        predefined_contacts_tag_ids: [keep.id],
      });
    });
  });

  describe('GraphQL', () => {
    const STAGE = 'dealStage { databaseId name percent position }';
    const ERRORS = 'userErrors { field code message }';

    it('creates, updates and deletes deal stages with userErrors; non-admins get FORBIDDEN', async () => {
      const created = (
        await gql(admin, `mutation($input: DealStageCreateInput!) { createDealStage(input: $input) { ${STAGE} ${ERRORS} } }`, {
          input: { name: unique('stage'), percent: 40 },
        })
      ).data.createDealStage;
      expect(created).toMatchObject({ dealStage: { databaseId: expect.any(Number), percent: 40 }, userErrors: [] });
      const id = created.dealStage.databaseId;

      const bad = (await gql(admin, `mutation($id: Int!) { updateDealStage(id: $id, input: { percent: 150, name: " " }) { ${STAGE} ${ERRORS} } }`, { id })).data
        .updateDealStage;
      expect(bad).toEqual({
        dealStage: null,
        userErrors: expect.arrayContaining([
          { field: ['input', 'percent'], code: 'OUT_OF_RANGE', message: 'must be between 0 and 100' },
          { field: ['input', 'name'], code: 'BLANK', message: "can't be blank" },
        ]),
      });
      const good = (await gql(admin, `mutation($id: Int!) { updateDealStage(id: $id, input: { percent: 90 }) { ${STAGE} ${ERRORS} } }`, { id })).data
        .updateDealStage;
      expect(good.dealStage).toMatchObject({ databaseId: id, percent: 90 });

      for (const attempt of [
        `mutation($id: Int!) { updateDealStage(id: $id, input: { percent: 1 }) { ${STAGE} } }`,
        'mutation($id: Int!) { deleteDealStage(id: $id) { deletedDatabaseId } }',
        `mutation { createDealStage(input: { name: "Sneaky", percent: 5 }) { ${STAGE} } }`,
      ]) {
        const res = await gql(member, attempt, attempt.includes('$id') ? { id } : undefined);
        expect({ attempt, data: res.data, codes: res.errors.map((e: { extensions: { code: string } }) => e.extensions.code) }).toEqual({
          attempt,
          data: null,
          codes: ['FORBIDDEN'],
        });
      }

      const read = (
        await gql(member, `query($id: Int!) { dealStage(id: $id) { id name percent } dealStages(first: 200) { totalCount nodes { databaseId } } }`, { id })
      ).data;
      expect(read.dealStage.percent).toBe(90);
      expect((await gql(member, 'query($id: ID!) { node(id: $id) { ... on DealStage { databaseId } } }', { id: read.dealStage.id })).data.node).toEqual({
        databaseId: id,
      });

      const deleted = (await gql(admin, `mutation($id: Int!) { deleteDealStage(id: $id) { deletedId deletedDatabaseId ${ERRORS} } }`, { id })).data
        .deleteDealStage;
      expect(deleted).toEqual({ deletedId: read.dealStage.id, deletedDatabaseId: id, userErrors: [] });
      expect(
        (await gql(admin, `mutation($id: Int!) { deleteDealStage(id: $id) { deletedDatabaseId ${ERRORS} } }`, { id })).data.deleteDealStage.userErrors,
      ).toEqual([{ field: ['id'], code: 'NOT_FOUND', message: expect.any(String) }]);
    });

    it('the new name lists are connections of ListItem, written through the list item mutations', async () => {
      for (const [kind, field] of [
        ['DEAL_LOSS_REASON', 'dealLossReasons'],
        ['DEAL_WON_REASON', 'dealWonReasons'],
        ['EVENT_CATEGORY', 'eventCategories'],
        ['DOCUMENT_TAG', 'documentTags'],
        ['CALENDAR_ENTRY_PRIORITY', 'calendarEntryPriorities'],
      ] as const) {
        const name = unique(kind);
        const made = (
          await gql(
            admin,
            `mutation($kind: ListKind!, $name: String!) { createListItem(kind: $kind, input: { name: $name }) { listItem { databaseId kind } ${ERRORS} } }`,
            { kind, name },
          )
        ).data.createListItem;
        expect(made).toMatchObject({ listItem: { kind }, userErrors: [] });
        const list = (await gql(member, `{ ${field}(first: 200) { nodes { databaseId name } edges { cursor } totalCount } }`)).data[field];
        expect(list.nodes).toContainEqual({ databaseId: made.listItem.databaseId, name });
        const denied = await gql(member, `mutation($kind: ListKind!) { createListItem(kind: $kind, input: { name: "Sneaky" }) { listItem { databaseId } } }`, {
          kind,
        });
        expect(denied.errors[0].extensions.code).toBe('FORBIDDEN');
      }
    });

    it('todo templates with their items; item references are checked', async () => {
      const category = (
        await gql(admin, `mutation { createListItem(kind: EVENT_CATEGORY, input: { name: "${unique('category')}" }) { listItem { databaseId name } } }`)
      ).data.createListItem.listItem;
      const template = (
        await gql(
          admin,
          `mutation($name: String!) { createTodoTemplate(input: { name: $name, templateType: DEALS }) { todoTemplate { databaseId id templateType isDefault } ${ERRORS} } }`,
          { name: unique('template') },
        )
      ).data.createTodoTemplate;
      expect(template).toMatchObject({ todoTemplate: { templateType: 'DEALS', isDefault: false }, userErrors: [] });
      const tid = template.todoTemplate.databaseId;
      const item = (
        await gql(
          admin,
          `mutation($input: TodoTemplateItemCreateInput!) { createTodoTemplateItem(input: $input) { todoTemplateItem { databaseId todoTemplateId dueDate eventCategory { name } } ${ERRORS} } }`,
          {
            input: { description: 'Follow up', todoTemplateId: tid, dueDate: 7, eventCategoryId: category.databaseId },
          },
        )
      ).data.createTodoTemplateItem;
      expect(item).toMatchObject({ todoTemplateItem: { todoTemplateId: tid, dueDate: 7, eventCategory: { name: category.name } }, userErrors: [] });
      const wrong = (
        await gql(
          admin,
          `mutation($input: TodoTemplateItemCreateInput!) { createTodoTemplateItem(input: $input) { todoTemplateItem { databaseId } ${ERRORS} } }`,
          {
            input: { description: 'Nope', todoTemplateId: 2_000_000_000, eventCategoryId: tid },
          },
        )
      ).data.createTodoTemplateItem;
      expect(wrong).toEqual({
        todoTemplateItem: null,
        userErrors: expect.arrayContaining([
          { field: ['input', 'todoTemplateId'], code: 'NOT_FOUND', message: 'does not exist' },
          { field: ['input', 'eventCategoryId'], code: 'NOT_FOUND', message: 'does not exist' },
        ]),
      });
      const listed = (
        await gql(
          member,
          `query($id: Int!) { todoTemplate(id: $id) { items { databaseId description } } todoTemplates(filter: { templateType: { eq: DEALS } }) { nodes { databaseId } } }`,
          { id: tid },
        )
      ).data;
      expect(listed.todoTemplate.items).toEqual([{ databaseId: item.todoTemplateItem.databaseId, description: 'Follow up' }]);
      expect(listed.todoTemplates.nodes).toContainEqual({ databaseId: tid });
      for (const attempt of [
        `mutation { deleteTodoTemplate(id: ${tid}) { deletedDatabaseId } }`,
        `mutation { updateTodoTemplateItem(id: ${item.todoTemplateItem.databaseId}, input: { dueDate: 1 }) { todoTemplateItem { databaseId } } }`,
        `mutation { createTodoTemplateItem(input: { description: "Sneaky", todoTemplateId: ${tid} }) { todoTemplateItem { databaseId } } }`,
      ]) {
        expect({ attempt, codes: (await gql(member, attempt)).errors.map((e: { extensions: { code: string } }) => e.extensions.code) }).toEqual({
          attempt,
          codes: ['FORBIDDEN'],
        });
      }
      const gone = (await gql(admin, `mutation($id: Int!) { deleteTodoTemplate(id: $id) { deletedDatabaseId ${ERRORS} } }`, { id: tid })).data
        .deleteTodoTemplate;
      expect(gone).toEqual({ deletedDatabaseId: tid, userErrors: [] });
      expect(
        (await gql(admin, `query($id: Int!) { todoTemplateItem(id: $id) { databaseId } }`, { id: item.todoTemplateItem.databaseId })).data.todoTemplateItem,
      ).toBeNull();
    });
  });
});

describe('migration 20261125000001 (admin surface) on an existing database', () => {
  it('gives existing accounts the default deal stages and keeps every list item and reference', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = '/postgres';
    const name = `crm_admin_mig_${process.pid}_${randomBytes(3).toString('hex')}`;
    const orm = await openOrm({ clientUrl: await ensureDatabase(url.toString(), name), poolMax: 2 });
    try {
      const migrator = orm.getMigrator();
      await migrator.up({ to: 'Migration20261122000003SortIndexes' });
      const conn = orm.em.getConnection();
      const [{ id: accountId }] = await conn.execute(`insert into accounts (name, created_at) values ('Before', now()) returning id`);
      const [{ id: sourceId }] = await conn.execute(
        `insert into list_items (account_id, kind, name, position, created_at, updated_at) values (?, 'lead_source', 'Web', 0, now(), now()) returning id`,
        [accountId],
      );
      const [{ id: personId }] = await conn.execute(
        `insert into people (account_id, last_name, lead_source_id, created_at, updated_at) values (?, 'Kept', ?, now(), now()) returning id`,
        [accountId, sourceId],
      );

      await migrator.up({ to: 'Migration20261125000001AdminSurface' });

      const stages = await conn.execute<Array<{ name: string; percent: number }>>(
        `select name, percent, position from deal_stages where account_id = ? order by position`,
        [accountId],
      );
      expect(stages.map((s) => [s.name, s.percent])).toEqual([
        ['Incoming', 10],
        ['Qualified', 25],
        ['Proposal', 50],
        ['Negotiation', 75],
        ['Won', 100],
        ['Lost', 0],
      ]);
      expect(await conn.execute(`select lead_source_id from people where id = ?`, [personId])).toEqual([{ lead_source_id: sourceId }]);
      // The new kinds are accepted by the table's check.
      await conn.execute(
        `insert into list_items (account_id, kind, name, position, created_at, updated_at) values (?, 'event_category', 'Call', 0, now(), now())`,
        [accountId],
      );
    } finally {
      await orm.close(true);
      await dropDatabase(url.toString(), name);
    }
  }, 60_000);
});
