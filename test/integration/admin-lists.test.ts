import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** The lists every new account starts with (AccountAdmin.createAccount), in position order. */
const DEFAULTS = {
  lead_statuses: ['New', 'Contacted', 'Qualified', 'Unqualified'],
  lead_sources: ['Website', 'Referral', 'Trade show', 'Cold call'],
  predefined_contacts_tags: ['Customer', 'Partner', 'Prospect'],
  note_categories: ['Call', 'Email', 'Meeting', 'Note'],
} as const;

const ITEM = 'id: databaseId name hexColor position kind';

describe('admin lists (v3 §2.10, §4.10)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.close());

  const get = (key: string, path: string, query?: Record<string, string | number>) => server.request('GET', `/api/v3${path}`, { apiKey: key, query });
  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => (await server.graphql(key, query, variables)).body;

  /** A mutation's outcome: the item (null when refused), its user errors, and any top-level errors. */
  interface Outcome {
    item: any;
    userErrors: Array<{ field: string[] | null; code: string; message: string }>;
    errors?: Array<{ extensions: { code: string } }>;
  }
  const outcome = (body: any, field: string, key: string): Outcome => ({
    item: body.data?.[field]?.[key] ?? null,
    userErrors: body.data?.[field]?.userErrors ?? [],
    errors: body.errors,
  });
  const USER_ERRORS = 'userErrors { field code message }';
  const createItem = async (key: string, kind: string, input: Record<string, unknown>) =>
    outcome(
      await gql(
        key,
        `mutation($kind: ListKind!, $input: ListItemCreateInput!) { createListItem(kind: $kind, input: $input) { listItem { ${ITEM} } ${USER_ERRORS} } }`,
        { kind, input: { name: '', ...input } },
      ),
      'createListItem',
      'listItem',
    );
  const updateItem = async (key: string, id: number, input: Record<string, unknown>) =>
    outcome(
      await gql(key, `mutation($id: Int!, $input: ListItemUpdateInput!) { updateListItem(id: $id, input: $input) { listItem { ${ITEM} } ${USER_ERRORS} } }`, {
        id,
        input,
      }),
      'updateListItem',
      'listItem',
    );
  const deleteItem = async (key: string, id: number) =>
    outcome(
      await gql(key, `mutation($id: Int!) { deleteListItem(id: $id) { deletedDatabaseId ${USER_ERRORS} } }`, { id }),
      'deleteListItem',
      'deletedDatabaseId',
    );
  const listOf = async (key: string, kind: string, page?: { page: number; perPage?: number }) =>
    (
      await gql(
        key,
        `query($kind: ListKind!, $page: Int, $perPage: Int) { listItems(kind: $kind, page: $page, perPage: $perPage) { nodes { ${ITEM} } totalCount } }`,
        { kind, ...page },
      )
    ).data.listItems;

  /** User errors as `{field, message}`, the field named by its last path segment. */
  const problems = (o: Outcome) => o.userErrors.map((e) => ({ field: e.field?.[e.field.length - 1] ?? 'base', message: e.message }));

  describe('defaults and the v3 envelope', () => {
    let account: TestAccount;
    beforeAll(async () => {
      account = await server.createAccount();
    });

    it.each(Object.entries(DEFAULTS))('GET /admin/%s.json lists the defaults in order, 200 a page', async (path, names) => {
      const res = await get(account.admin.apiKey, `/admin/${path}.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.body.entries.map((e: any) => e.name)).toEqual(names);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 200, total: names.length, pages: 1, page_var: 'page' });
    });

    it('lead statuses carry hex_color; tags, categories and sources id and name (DECISIONS: Admin surface adds created_at/updated_at)', async () => {
      // Required keys first, in this order; the keys DECISIONS adds later may follow, nothing else.
      const shapes: Record<string, { required: string[]; later: string[] }> = {
        lead_statuses: { required: ['id', 'name', 'hex_color'], later: [] },
        predefined_contacts_tags: { required: ['id', 'name'], later: [] },
        note_categories: { required: ['id', 'name'], later: [] },
        lead_sources: { required: ['id', 'name'], later: ['cost_per_lead_in_cents', 'flat_fee_in_cents'] },
      };
      for (const [path, { required, later }] of Object.entries(shapes)) {
        const res = await get(account.admin.apiKey, `/admin/${path}`);
        expect(res.body.entries.length).toBeGreaterThan(0);
        for (const e of res.body.entries) {
          const keys = Object.keys(e);
          expect({ path, keys: keys.filter((k) => required.includes(k)) }).toEqual({ path, keys: required });
          expect({ path, extra: keys.filter((k) => !required.includes(k) && ![...later, 'created_at', 'updated_at'].includes(k)) }).toEqual({
            path,
            extra: [],
          });
          expect(typeof e.id).toBe('number');
          expect(typeof e.name).toBe('string');
          // The defaults are #rrggbb; clients may store any short text (issue 22 §1).
          if (path === 'lead_statuses') expect(e.hex_color).toMatch(/^#[0-9a-f]{6}$/);
        }
      }
    });

    it('pages: per_page splits, pages is ceil(total / per_page), per_page above 200 is clamped', async () => {
      const key = account.admin.apiKey;
      const first = await get(key, '/admin/note_categories.json', { per_page: 3 });
      expect(first.body.pagination).toEqual({ page: 1, per_page: 3, total: 4, pages: 2, page_var: 'page' });
      expect(first.body.entries.map((e: any) => e.name)).toEqual(['Call', 'Email', 'Meeting']);
      const second = await get(key, '/admin/note_categories.json', { per_page: 3, page: 2 });
      expect(second.body.entries.map((e: any) => e.name)).toEqual(['Note']);
      expect(second.body.pagination.page).toBe(2);

      const clamped = await get(key, '/admin/lead_statuses.json', { per_page: 1000 });
      expect(clamped.status).toBe(200);
      expect(clamped.body.pagination.per_page).toBe(200);
      const junk = await get(key, '/admin/lead_statuses.json', { per_page: 'lots', page: '-3' });
      expect(junk.body.pagination).toMatchObject({ page: 1, per_page: 200 });
    });

    it('clamps at 200 with more than 200 items, and every page is reachable', async () => {
      const own = await server.createAccount();
      const values = Array.from({ length: 205 }, (_, i) => `(${own.accountId}, 'note_category', 'Bulk ${i}', ${100 + i}, now(), now())`).join(', ');
      await server.orm.em.fork().getConnection().execute(`insert into list_items (account_id, kind, name, position, created_at, updated_at) values ${values}`);
      const first = await get(own.admin.apiKey, '/admin/note_categories.json', { per_page: 500 });
      expect(first.body.entries).toHaveLength(200);
      expect(first.body.pagination).toEqual({ page: 1, per_page: 200, total: 209, pages: 2, page_var: 'page' });
      const second = await get(own.admin.apiKey, '/admin/note_categories.json', { page: 2 });
      expect(second.body.entries.map((e: any) => e.name)).toEqual([
        'Bulk 196',
        'Bulk 197',
        'Bulk 198',
        'Bulk 199',
        'Bulk 200',
        'Bulk 201',
        'Bulk 202',
        'Bulk 203',
        'Bulk 204',
      ]);
    });

    it('every user of the account may read the lists (REST and GraphQL)', async () => {
      const user = await account.addUser({ isAdmin: false });
      const res = await get(user.apiKey, '/admin/predefined_contacts_tags.json');
      expect(res.status).toBe(200);
      expect(res.body.entries.map((e: any) => e.name)).toEqual(DEFAULTS.predefined_contacts_tags);

      const body = await gql(
        user.apiKey,
        '{ leadStatuses { nodes { name } } leadSources { nodes { name } } contactTags { nodes { name } } noteCategories { nodes { name } totalCount } }',
      );
      expect(body.errors).toBeUndefined();
      expect(body.data.leadStatuses.nodes.map((e: any) => e.name)).toEqual(DEFAULTS.lead_statuses);
      expect(body.data.leadSources.nodes.map((e: any) => e.name)).toEqual(DEFAULTS.lead_sources);
      expect(body.data.contactTags.nodes.map((e: any) => e.name)).toEqual(DEFAULTS.predefined_contacts_tags);
      expect(body.data.noteCategories.nodes.map((e: any) => e.name)).toEqual(DEFAULTS.note_categories);
      expect(body.data.noteCategories.totalCount).toBe(DEFAULTS.note_categories.length);
    });

    // DECISIONS (Admin surface): admins write admin lists through v3 (POST 200 with the item, PUT,
    // DELETE 200 empty; a non-admin write 403 {error}): test/integration/admin-surface.test.ts.

    it('lists never cross accounts', async () => {
      const other = await server.createAccount();
      const created = await createItem(other.admin.apiKey, 'CONTACT_TAG', { name: 'Only elsewhere' });
      expect(created.errors).toBeUndefined();
      expect(created.item).not.toBeNull();
      const mine = await get(account.admin.apiKey, '/admin/predefined_contacts_tags.json');
      expect(mine.body.entries.map((e: any) => e.name)).not.toContain('Only elsewhere');
      expect(mine.body.entries.map((e: any) => e.id)).not.toContain(created.item.id);
    });
  });

  describe('admin mutations (GraphQL)', () => {
    let account: TestAccount;
    let admin: string;
    let member: { id: number; apiKey: string };

    beforeAll(async () => {
      account = await server.createAccount();
      admin = account.admin.apiKey;
      member = await account.addUser({ isAdmin: false });
    });

    it('creates at the end of the list, updates and deletes', async () => {
      const created = await createItem(admin, 'LEAD_STATUS', { name: '  Hot  ', hexColor: '#FF0000' });
      expect(created.userErrors).toEqual([]);
      const hot = created.item;
      // Kept as given, case included (issue 22 §1: the real service kept "C73408").
      expect(hot).toMatchObject({ id: expect.any(Number), name: 'Hot', hexColor: '#FF0000', kind: 'LEAD_STATUS' });
      let names = (await listOf(admin, 'LEAD_STATUS')).nodes.map((e: any) => e.name);
      expect(names).toEqual([...DEFAULTS.lead_statuses, 'Hot']);

      const updated = await updateItem(admin, hot.id, { name: 'Very hot', hexColor: '#00aa00', position: 0 });
      expect(updated.userErrors).toEqual([]);
      expect(updated.item).toMatchObject({ id: hot.id, name: 'Very hot', hexColor: '#00aa00', position: 0 });
      // Position 0 ties with `New` (position 0): id breaks the tie.
      names = (await listOf(admin, 'LEAD_STATUS')).nodes.map((e: any) => e.name);
      expect(names).toEqual(['New', 'Very hot', 'Contacted', 'Qualified', 'Unqualified']);

      const rest = await get(admin, '/admin/lead_statuses.json');
      expect(rest.body.entries[1]).toEqual({
        id: hot.id,
        name: 'Very hot',
        hex_color: '#00aa00',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });

      const cleared = await updateItem(admin, hot.id, { hexColor: null });
      expect(cleared.item).toMatchObject({ name: 'Very hot', hexColor: null });

      const deleted = await deleteItem(admin, hot.id);
      expect(deleted).toEqual({ item: hot.id, userErrors: [], errors: undefined });
      names = (await listOf(admin, 'LEAD_STATUS')).nodes.map((e: any) => e.name);
      expect(names).toEqual(DEFAULTS.lead_statuses);
      expect((await deleteItem(admin, hot.id)).userErrors).toEqual([{ field: ['id'], code: 'NOT_FOUND', message: expect.any(String) }]);
    });

    it('a colour is only kept for lead statuses and calendar entry priorities', async () => {
      const tag = await createItem(admin, 'CONTACT_TAG', { name: 'Colourless', hexColor: '#123456' });
      expect(tag.userErrors).toEqual([]);
      expect(tag.item.hexColor).toBeNull();
      const priority = await createItem(admin, 'CALENDAR_ENTRY_PRIORITY', { name: 'Urgent', hexColor: 'fff' });
      expect(priority.userErrors).toEqual([]);
      expect(priority.item.hexColor).toBe('fff');
    });

    it('non-admins get FORBIDDEN and change nothing', async () => {
      const before = await listOf(admin, 'NOTE_CATEGORY');
      const target = before.nodes[0];
      const attempts = [
        await createItem(member.apiKey, 'NOTE_CATEGORY', { name: 'Sneaky' }),
        await updateItem(member.apiKey, target.id, { name: 'Sneaky' }),
        await deleteItem(member.apiKey, target.id),
      ];
      for (const attempt of attempts) {
        expect(attempt.item).toBeNull();
        expect(attempt.errors?.[0].extensions.code).toBe('FORBIDDEN');
      }
      expect(await listOf(admin, 'NOTE_CATEGORY')).toEqual(before);
    });

    it('validates name (blank, too long, taken case-insensitively), colour and position', async () => {
      expect(problems(await createItem(admin, 'LEAD_SOURCE', {}))).toEqual([{ field: 'name', message: "can't be blank" }]);
      expect(problems(await createItem(admin, 'LEAD_SOURCE', { name: '   ' }))).toEqual([{ field: 'name', message: "can't be blank" }]);
      expect(problems(await createItem(admin, 'LEAD_SOURCE', { name: 'x'.repeat(101) }))).toEqual([
        { field: 'name', message: 'is too long (maximum is 100 characters)' },
      ]);
      expect((await createItem(admin, 'LEAD_SOURCE', { name: 'y'.repeat(100) })).userErrors).toEqual([]);

      const dup = await createItem(admin, 'LEAD_SOURCE', { name: 'WEBSITE' });
      expect(dup.userErrors).toEqual([{ field: ['input', 'name'], code: 'TAKEN', message: 'has already been taken' }]);

      // Unique per account and kind only.
      expect((await createItem(admin, 'CONTACT_TAG', { name: 'Website' })).userErrors).toEqual([]);
      const other = await server.createAccount();
      expect((await createItem(other.admin.apiKey, 'LEAD_SOURCE', { name: 'website 2' })).userErrors).toEqual([]);

      // Issue 22 §1: any short text is a colour (kept as given); only its length is bounded.
      expect(problems(await createItem(admin, 'LEAD_STATUS', { name: 'Tinted', hexColor: '#'.repeat(33) }))).toEqual([
        { field: 'hexColor', message: 'is too long (maximum is 32 characters)' },
      ]);
      expect(problems(await createItem(admin, 'LEAD_STATUS', { name: 'Tinted', position: -1 }))).toEqual([
        { field: 'position', message: 'must be greater than or equal to 0' },
      ]);

      const sources = (await listOf(admin, 'LEAD_SOURCE')).nodes;
      const referral = sources.find((e: any) => e.name === 'Referral');
      expect(problems(await updateItem(admin, referral.id, { name: 'trade SHOW' }))).toEqual([{ field: 'name', message: 'has already been taken' }]);
      expect(problems(await updateItem(admin, referral.id, { name: null }))).toEqual([{ field: 'name', message: "can't be blank" }]);
      // Renaming an item to a different case of its own name is fine.
      const recased = await updateItem(admin, referral.id, { name: 'REFERRAL' });
      expect(recased.userErrors).toEqual([]);
      expect(recased.item.name).toBe('REFERRAL');
    });

    it('a name taken by a concurrent create is reported on name too (the unique index backs the pre-check)', async () => {
      const results = await Promise.all([createItem(admin, 'NOTE_CATEGORY', { name: 'Race' }), createItem(admin, 'NOTE_CATEGORY', { name: 'race' })]);
      expect(results.filter((r) => r.item !== null)).toHaveLength(1);
      const failures = results.filter((r) => r.item === null);
      expect(failures).toHaveLength(1);
      for (const f of failures) expect(problems(f)).toEqual([{ field: 'name', message: 'has already been taken' }]);
    });

    it("another account's items are answered as missing", async () => {
      const other = await server.createAccount();
      const theirs = (await listOf(other.admin.apiKey, 'LEAD_STATUS')).nodes[0];
      expect((await updateItem(admin, theirs.id, { name: 'Mine now' })).userErrors).toEqual([
        { field: ['id'], code: 'NOT_FOUND', message: expect.any(String) },
      ]);
      expect((await deleteItem(admin, theirs.id)).userErrors).toEqual([{ field: ['id'], code: 'NOT_FOUND', message: expect.any(String) }]);
      expect((await listOf(other.admin.apiKey, 'LEAD_STATUS')).nodes[0]).toEqual(theirs);
      expect((await gql(admin, 'query($id: Int!) { listItem(id: $id) { name } }', { id: theirs.id })).data).toEqual({ listItem: null });
    });
  });

  describe('deleting clears references', () => {
    let account: TestAccount;
    let admin: string;

    beforeAll(async () => {
      account = await server.createAccount();
      admin = account.admin.apiKey;
    });

    const createPerson = async (input: Record<string, unknown>) => {
      const body = await gql(
        admin,
        'mutation($input: PersonCreateInput!) { createPerson(input: $input) { person { id: databaseId tagIds leadStatusId leadSourceId } } }',
        { input },
      );
      expect(body.errors).toBeUndefined();
      return body.data.createPerson.person as { id: number; tagIds: number[]; leadStatusId: number | null; leadSourceId: number | null };
    };
    const personOf = async (id: number) =>
      (await gql(admin, 'query($id: Int!) { person(id: $id) { tagIds tags { id: databaseId } leadStatusId leadSourceId } }', { id })).data.person;

    it('a deleted contact tag disappears from every person of the account, other tags kept in order', async () => {
      const tags = (await listOf(admin, 'CONTACT_TAG')).nodes.map((e: any) => e.id as number);
      expect(tags).toHaveLength(3);
      const [customer, partner, prospect] = tags;
      const both = await createPerson({ lastName: 'Both', tagIds: [prospect, partner, customer] });
      const only = await createPerson({ lastName: 'Only', tagIds: [partner] });
      const none = await createPerson({ lastName: 'None', tagIds: [customer] });
      expect(both.tagIds).toEqual([prospect, partner, customer]);

      expect((await deleteItem(admin, partner)).item).toBe(partner);

      expect(await personOf(both.id)).toMatchObject({ tagIds: [prospect, customer], tags: [{ id: prospect }, { id: customer }] });
      expect((await personOf(only.id)).tagIds).toEqual([]);
      expect((await personOf(none.id)).tagIds).toEqual([customer]);
      const [row] = await server.orm.em.fork().getConnection().execute('select tag_ids from people where id = ?', [only.id]);
      expect(row.tag_ids).toEqual([]);

      const rest = await server.request('GET', `/api/v3/people/${both.id}.json`, { apiKey: admin });
      expect(rest.body.predefined_contacts_tag_ids).toEqual([prospect, customer]);
    });

    it('a deleted lead status or source is cleared from people (foreign keys)', async () => {
      const status = (await listOf(admin, 'LEAD_STATUS')).nodes[1].id;
      const source = (await listOf(admin, 'LEAD_SOURCE')).nodes[2].id;
      const person = await createPerson({ lastName: 'Lead', type: 'LEAD', leadStatusId: status, leadSourceId: source });
      expect(person).toMatchObject({ leadStatusId: status, leadSourceId: source });
      expect((await deleteItem(admin, status)).item).toBe(status);
      expect((await deleteItem(admin, source)).item).toBe(source);
      expect(await personOf(person.id)).toMatchObject({ leadStatusId: null, leadSourceId: null });
    });
  });
});
