import { CustomField, CustomFieldKind, CustomFieldResource } from '../../src/modules/custom-fields/custom-field.entity';
import { Visibility } from '../../src/modules/users/user.entity';
import { countStatements } from '../support/sql-counter';
import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** Every attribute a v3 person carries (v3 §2.4 plus viewed_at), in the serializer's order. */
const PERSON_KEYS = [
  'id',
  'first_name',
  'last_name',
  'full_name',
  'summary',
  'position',
  'website',
  'phone',
  'home_phone',
  'mobile',
  'fax',
  'email',
  'email2',
  'home_email',
  'company_id',
  'company_name',
  'company',
  'user_id',
  'user',
  'type',
  'lead_status_id',
  'lead_status',
  'lead_source_id',
  'lead_source',
  'image_thumb_url',
  'image_mobile_url',
  'predefined_contacts_tag_ids',
  'predefined_contacts_tags',
  'custom_fields',
  'work_address_1',
  'work_address_2',
  'work_city',
  'work_state',
  'work_country',
  'work_postal_code',
  'home_address_1',
  'home_address_2',
  'home_city',
  'home_state',
  'home_country',
  'home_postal_code',
  'facebook_url',
  'linked_in_url',
  'twitter',
  'instant_message',
  'created_at',
  'updated_at',
  'possible_notify_user_ids',
  'unsubscribed',
  'bounced',
  'last_emailed_at',
  'deal_ids',
  'viewed_at',
  // Issue 22: keys the recordings show on people, after the spec's (test/contract/recorded-keys.contract.test.ts).
  'deals',
  'shared_user_ids',
  'created_by_user_id',
  'total_pipeline',
  'won_deals_total',
];

const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;

interface Lists {
  statuses: Array<{ id: number; name: string }>;
  sources: Array<{ id: number; name: string }>;
  tags: Array<{ id: number; name: string }>;
  categories: Array<{ id: number; name: string }>;
}

describe('people (v3 §2.4, §4.4)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.close());

  const sql = <T = any>(text: string, params: unknown[] = []) => server.sql<T>(text, params);

  async function listsOf(accountId: number): Promise<Lists> {
    const rows = await sql<{ id: number; kind: string; name: string }>('select id, kind, name from list_items where account_id = ? order by position, id', [
      accountId,
    ]);
    const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => ({ id: r.id, name: r.name }));
    return { statuses: of('lead_status'), sources: of('lead_source'), tags: of('contact_tag'), categories: of('note_category') };
  }

  async function customField(accountId: number, kind: CustomFieldKind, name: string, resource = CustomFieldResource.PERSON): Promise<number> {
    const em = server.orm.em.fork();
    const field = em.create(CustomField, { account: accountId, resource, kind, name });
    await em.persistAndFlush(field);
    return field.id;
  }

  const api = (key: string) => server.v3(key);

  async function createPerson(key: string, person: Record<string, unknown>, flags: Record<string, unknown> = {}): Promise<any> {
    const res = await api(key).post('/people.json', { person, ...flags });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number) }) });
    return res.body;
  }

  const ids = (res: { body: any }) => res.body.entries.map((e: any) => e.id);

  describe('CRUD', () => {
    let account: TestAccount;
    let key: string;
    let lists: Lists;
    let nickname: number;

    beforeAll(async () => {
      account = await server.createAccount({ timeZone: 'America/New_York' });
      key = account.admin.apiKey;
      lists = await listsOf(account.accountId);
      nickname = await customField(account.accountId, CustomFieldKind.TEXT, 'Nickname');
    });

    it('creates from a form body and answers the whole v3 record', async () => {
      const body = formEncode({
        person: {
          first_name: 'John',
          last_name: 'Smith',
          email: 'john@example.test',
          phone: '555-0100',
          fax: '555-0199',
          position: 'CTO',
          type: 'Lead',
          lead_status_id: lists.statuses[0].id,
          lead_source_id: lists.sources[1].id,
          predefined_contacts_tag_ids: [lists.tags[0].id, lists.tags[2].id, 99999999],
          custom_fields: { [`custom_label_${nickname}`]: 'Johnny' },
          work_address_1: '1 Main St',
          work_city: 'Boston',
          home_address_2: 'Apt 3',
          linked_in_url: 'https://linkedin.test/john',
          unsubscribed: 'true',
          last_emailed_at: '2014-05-19 08:54',
          bogus_attribute: 'ignored',
        },
      });
      const res = await api(key).post('/people.json', body);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(PERSON_KEYS);
      expect(res.body).toMatchObject({
        first_name: 'John',
        last_name: 'Smith',
        full_name: 'John Smith',
        email: 'john@example.test',
        phone: '555-0100',
        fax: '555-0199',
        position: 'CTO',
        type: 'Lead',
        lead_status_id: lists.statuses[0].id,
        lead_status: lists.statuses[0],
        lead_source_id: lists.sources[1].id,
        lead_source: lists.sources[1],
        predefined_contacts_tag_ids: [lists.tags[0].id, lists.tags[2].id],
        predefined_contacts_tags: [lists.tags[0], lists.tags[2]],
        custom_fields: { [`custom_label_${nickname}`]: 'Johnny' },
        work_address_1: '1 Main St',
        work_city: 'Boston',
        home_address_2: 'Apt 3',
        linked_in_url: 'https://linkedin.test/john',
        unsubscribed: true,
        bounced: false,
        // Wall time read in the viewer's zone (DECISIONS: input datetimes).
        last_emailed_at: '2014/05/19 08:54:00 -0400',
        user_id: account.admin.id,
        user: { id: account.admin.id, first_name: 'Ada', last_name: expect.any(String), full_name: expect.stringMatching(/^Ada /) },
        company_id: null,
        company_name: null,
        company: null,
        deal_ids: [],
        viewed_at: null,
        possible_notify_user_ids: [account.admin.id],
      });
      expect(res.body.created_at).toMatch(V3_DATETIME);
      expect(res.body.updated_at).toMatch(/-0[45]00$/);
    });

    it('creates from a JSON body, splitting full_name on the first space', async () => {
      const p = await createPerson(key, { full_name: '  Mary   Ann Jones ' });
      expect(p).toMatchObject({ first_name: 'Mary', last_name: 'Ann Jones', full_name: 'Mary Ann Jones', type: 'Contact' });
      const single = await createPerson(key, { full_name: 'Madonna' });
      expect(single).toMatchObject({ first_name: null, last_name: 'Madonna', full_name: 'Madonna' });
      // A changed full_name wins over the stale parts a client sends back with it.
      const changed = await api(key).put(`/people/${p.id}.json`, { person: { ...p, full_name: 'Maria Jones' } });
      expect(changed.body).toMatchObject({ first_name: 'Maria', last_name: 'Jones' });
      // An unchanged full_name sent back with a changed first_name keeps the change.
      const kept = await api(key).put(`/people/${p.id}.json`, { person: { ...changed.body, first_name: 'Marie' } });
      expect(kept.body).toMatchObject({ first_name: 'Marie', last_name: 'Jones', full_name: 'Marie Jones' });
    });

    it('honours created_at and updated_at on create (imports)', async () => {
      const p = await createPerson(key, { last_name: 'Imported', created_at: '2012-03-04 05:06:07' });
      expect(p.created_at).toBe('2012/03/04 05:06:07 -0500');
      expect(p.updated_at).toBe('2012/03/04 05:06:07 -0500');
      const q = await createPerson(key, { last_name: 'Imported2', created_at: '2012-03-04', updated_at: '2013-01-01T00:00:00Z' });
      expect(q.created_at).toBe('2012/03/04 00:00:00 -0500');
      expect(q.updated_at).toBe('2012/12/31 19:00:00 -0500');
    });

    it('finds or creates the company named by company_name', async () => {
      const acme = await api(key).post('/companies.json', { company: { name: 'Acme Inc' } });
      expect(acme.status).toBe(200);
      const p = await createPerson(key, { last_name: 'Worker', company_name: 'ACME inc' });
      expect(p).toMatchObject({ company_id: acme.body.id, company_name: 'Acme Inc', company: { id: acme.body.id, name: 'Acme Inc' } });

      const q = await createPerson(key, { last_name: 'Founder', company_name: 'Brand New Co' });
      expect(q.company_id).toEqual(expect.any(Number));
      expect(q.company_id).not.toBe(acme.body.id);
      expect(q.company).toEqual({ id: q.company_id, name: 'Brand New Co' });
      const r = await createPerson(key, { last_name: 'Second', company_name: 'brand new co' });
      expect(r.company_id).toBe(q.company_id);
      const [{ n }] = await sql<{ n: string }>(`select count(*) as n from companies where account_id = ? and lower(name) = 'brand new co'`, [
        account.accountId,
      ]);
      expect(Number(n)).toBe(1);

      // company_id switches; a PUT echoing the stale company_name keeps the new id.
      const moved = await api(key).put(`/people/${p.id}.json`, { person: { ...p, company_id: q.company_id } });
      expect(moved.body).toMatchObject({ company_id: q.company_id, company_name: 'Brand New Co' });
      // A changed company_name wins over an echoed company_id.
      const renamed = await api(key).put(`/people/${p.id}.json`, { person: { ...moved.body, company_name: 'Acme Inc' } });
      expect(renamed.body.company_id).toBe(acme.body.id);
      // Clearing.
      const cleared = await api(key).put(`/people/${p.id}.json`, formEncode({ person: { company_id: '' } }));
      expect(cleared.body).toMatchObject({ company_id: null, company: null, company_name: null });
    });

    it('refuses a company, owner, lead status or lead source that is not of the account or of the right list', async () => {
      const other = await server.createAccount();
      const foreignCompany = await api(other.admin.apiKey).post('/companies.json', { company: { name: 'Foreign' } });
      const res = await api(key).post('/people.json', {
        person: { last_name: 'X', company_id: foreignCompany.body.id, user_id: other.admin.id, lead_status_id: lists.sources[0].id, lead_source_id: 99999999 },
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        expect.arrayContaining([
          { field: 'company_id', humanized_field: 'Company', msg: 'does not exist' },
          { field: 'user_id', humanized_field: 'User', msg: 'does not exist' },
          { field: 'lead_status_id', humanized_field: 'Lead status', msg: 'does not exist' },
          { field: 'lead_source_id', humanized_field: 'Lead source', msg: 'does not exist' },
        ]),
      );
      expect(res.body).toHaveLength(4);
    });

    it('replaces the tag set, ignoring unknown ids and items of other lists', async () => {
      const p = await createPerson(key, { last_name: 'Tagged', predefined_contacts_tag_ids: [lists.tags[0].id, lists.tags[1].id] });
      expect(p.predefined_contacts_tag_ids).toEqual([lists.tags[0].id, lists.tags[1].id]);
      const res = await api(key).put(
        `/people/${p.id}.json`,
        formEncode({ person: { predefined_contacts_tag_ids: [String(lists.tags[2].id), '424242', String(lists.categories[0].id)] } }),
      );
      expect(res.status).toBe(200);
      expect(res.body.predefined_contacts_tag_ids).toEqual([lists.tags[2].id]);
      expect(res.body.predefined_contacts_tags).toEqual([lists.tags[2]]);
      // Rails idiom: an empty form array clears the set.
      const cleared = await api(key).put(`/people/${p.id}.json`, 'person[predefined_contacts_tag_ids][]=');
      expect(cleared.body.predefined_contacts_tag_ids).toEqual([]);
      // deal_ids is accepted (and ignored until deals exist).
      const deals = await api(key).put(`/people/${p.id}.json`, { person: { deal_ids: [1, 2] } });
      expect(deals.status).toBe(200);
      expect(deals.body.deal_ids).toEqual([]);
    });

    it('shows, updates and deletes; 404 empty when missing', async () => {
      const p = await createPerson(key, { first_name: 'Del', last_name: 'Me' });
      const shown = await api(key).get(`/people/${p.id}.json`);
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(p);
      const noSuffix = await api(key).get(`/people/${p.id}`);
      expect(noSuffix.body.id).toBe(p.id);

      const updated = await api(key).put(`/people/${p.id}.json`, formEncode({ person: { position: 'Boss', email: 'del@example.test', bounced: '1' } }));
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id: p.id, position: 'Boss', email: 'del@example.test', bounced: true, first_name: 'Del' });

      const deleted = await api(key).del(`/people/${p.id}.json`);
      expect(deleted.status).toBe(200);
      expect(deleted.text).toBe('');
      for (const res of [
        await api(key).get(`/people/${p.id}.json`),
        await api(key).put(`/people/${p.id}.json`, { person: { last_name: 'Z' } }),
        await api(key).del(`/people/${p.id}.json`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.text).toBe('');
      }
      expect((await api(key).get('/people/99999999999.json')).status).toBe(404);
      expect((await api(key).get('/people/abc.json')).status).toBe(404);
    });

    it('ignores read-only attributes sent back on PUT', async () => {
      const other = await createPerson(key, { last_name: 'Other', created_at: '2001-01-01 00:00' });
      const p = await createPerson(key, { first_name: 'Echo', last_name: 'Back' });
      const echoed = {
        ...p,
        id: other.id,
        created_at: other.created_at,
        first_name: 'Echoed',
        user: { id: 12345, full_name: 'Not Me' },
        possible_notify_user_ids: [1, 2, 3],
        image_mobile_url: 'http://ignored.test/x.png',
        company: { id: 777, name: 'Nope' },
        predefined_contacts_tags: [{ id: 5, name: 'x' }],
      };
      const res = await api(key).put(`/people/${p.id}.json`, { person: echoed });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: p.id,
        first_name: 'Echoed',
        created_at: p.created_at,
        user_id: account.admin.id,
        user: p.user,
        possible_notify_user_ids: p.possible_notify_user_ids,
        image_mobile_url: null,
        company: null,
      });
      const again = await api(key).get(`/people/${other.id}.json`);
      expect(again.body).toEqual(other);
    });

    it('answers 422 with the v3 array for a blank last name', async () => {
      const res = await api(key).post('/people.json', formEncode({ person: { first_name: 'No', last_name: '' } }));
      expect(res.status).toBe(422);
      expect(res.body).toEqual([{ field: 'last_name', humanized_field: 'Last name', msg: "can't be blank" }]);
      const missing = await api(key).post('/people.json', { person: { first_name: 'No' } });
      expect(missing.body).toEqual([{ field: 'last_name', humanized_field: 'Last name', msg: "can't be blank" }]);
      const p = await createPerson(key, { last_name: 'Keep' });
      const cleared = await api(key).put(`/people/${p.id}.json`, { person: { last_name: null } });
      expect(cleared.status).toBe(422);
      expect(cleared.body).toEqual([{ field: 'last_name', humanized_field: 'Last name', msg: "can't be blank" }]);
    });

    it('answers 422 naming the field for an unparseable datetime or a too-long text', async () => {
      const res = await api(key).post('/people.json', { person: { last_name: 'Bad', created_at: 'yesterday-ish' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual([{ field: 'created_at', humanized_field: 'Created at', msg: expect.stringContaining('datetime') }]);
      const cond = await api(key).get('/people.json', { 'conditions[person_created][from_date]': 'nope' });
      expect(cond.status).toBe(422);
      expect(cond.body[0].field).toBe('conditions[person_created][from_date]');
      const long = await api(key).post('/people.json', { person: { last_name: 'x'.repeat(101) } });
      expect(long.status).toBe(422);
      expect(long.body[0]).toMatchObject({ field: 'last_name', msg: expect.stringContaining('too long') });
    });

    it('check_for_duplicates rejects a visible Contact with the same last name and email', async () => {
      await createPerson(key, { first_name: 'Dupe', last_name: 'Twin', email: 'Twin@Example.test' });
      const res = await api(key).post('/people.json', formEncode({ person: { last_name: 'TWIN', email: 'twin@example.TEST' }, check_for_duplicates: 'true' }));
      expect(res.status).toBe(422);
      expect(res.body).toEqual([{ field: 'base', humanized_field: 'Base', msg: expect.stringContaining('Dupe Twin') }]);
      // Without the flag (default false), or with another email, it is created.
      await createPerson(key, { last_name: 'Twin', email: 'twin@example.test' });
      await createPerson(key, { last_name: 'Twin', email: 'other@example.test' }, { check_for_duplicates: true });
      // Leads are not duplicates of a new contact.
      await createPerson(key, { last_name: 'Leady', email: 'lead@example.test', type: 'Lead' });
      await createPerson(key, { last_name: 'Leady', email: 'lead@example.test' }, { check_for_duplicates: true });
      // A contact the viewer cannot see does not count.
      const own = await account.addUser({ visibility: Visibility.OWN });
      await createPerson(own.apiKey, { last_name: 'Twin', email: 'twin@example.test' }, { check_for_duplicates: 'true' });
    });

    it('todo_template_id is refused until todo templates exist', async () => {
      const res = await api(key).post('/people.json', { person: { last_name: 'Todo' }, todo_template_id: 5 });
      expect(res.status).toBe(422);
      expect(res.body).toEqual([{ field: 'todo_template_id', humanized_field: 'Todo template', msg: 'does not exist' }]);
      const p = await createPerson(key, { last_name: 'Todo' });
      const upd = await api(key).put(`/people/${p.id}.json`, { person: { first_name: 'T' } }, { todo_template_id: 7, todo_template_user_id: 99999999 });
      expect(upd.status).toBe(422);
      expect(upd.body.map((e: any) => e.field).sort()).toEqual(['todo_template_id', 'todo_template_user_id']);
    });

    it('records assignment and reassignment mails', async () => {
      const sales = await account.addUser({ firstName: 'Sal' });
      const outbox = async (personId: number) =>
        sql<{ kind: string; recipient_id: number }>(
          `select kind, recipient_id from outbox_messages where subject_type = 'Person' and subject_id = ? order by id`,
          [personId],
        );

      const assigned = await createPerson(key, { last_name: 'Assigned', user_id: sales.id });
      expect(assigned.user_id).toBe(sales.id);
      expect(await outbox(assigned.id)).toEqual([{ kind: 'person_assignment', recipient_id: sales.id }]);

      const quiet = await createPerson(key, { last_name: 'Quiet', user_id: sales.id }, { deliver_assignment_email: 'false' });
      expect(await outbox(quiet.id)).toEqual([]);
      const mine = await createPerson(key, { last_name: 'Mine' });
      expect(await outbox(mine.id)).toEqual([]);

      await api(key).put(`/people/${mine.id}.json`, { person: { user_id: sales.id } });
      expect(await outbox(mine.id)).toEqual([{ kind: 'person_reassignment', recipient_id: sales.id }]);
      await api(key).put(`/people/${mine.id}.json`, { person: { user_id: sales.id, first_name: 'Same owner' } });
      expect(await outbox(mine.id)).toHaveLength(1);
      await api(key).put(`/people/${quiet.id}.json`, { person: { user_id: account.admin.id } }, { deliver_reassignment_email: false });
      const third = await account.addUser();
      await api(key).put(`/people/${quiet.id}.json`, { person: { user_id: third.id } }, { deliver_reassignment_email: 'false' });
      expect(await outbox(quiet.id)).toEqual([]);
    });

    it('converts a Lead into a Contact, setting converted_at', async () => {
      const lead = await createPerson(key, { last_name: 'Convert', type: 'Lead' });
      const [before] = await sql<{ converted_at: string | null }>('select converted_at from people where id = ?', [lead.id]);
      expect(before.converted_at).toBeNull();
      const res = await api(key).put(`/people/${lead.id}.json`, { person: { type: 'Contact' } });
      expect(res.body.type).toBe('Contact');
      const [after] = await sql<{ converted_at: string | null }>('select converted_at from people where id = ?', [lead.id]);
      expect(Date.now() - new Date(after.converted_at!).getTime()).toBeLessThan(60_000);
      const bad = await api(key).put(`/people/${lead.id}.json`, { person: { type: 'Customer' } });
      expect(bad.status).toBe(422);
      expect(bad.body[0].field).toBe('type');
    });
  });

  describe('names and company sent with what they name (v3 §2.4)', () => {
    let key: string;

    beforeAll(async () => {
      key = (await server.createAccount({ timeZone: 'America/New_York' })).admin.apiKey;
    });

    async function create(path: string, root: string, attributes: Record<string, unknown>): Promise<any> {
      const res = await api(key).post(path, { [root]: attributes });
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ id: expect.any(Number) }) });
      return res.body;
    }

    it('a create copying a record keeps first and last names that contain spaces', async () => {
      const p = await create('/people.json', 'person', { first_name: 'Mary Ann', last_name: 'Smith', full_name: 'Mary Ann Smith' });
      expect(p).toMatchObject({ first_name: 'Mary Ann', last_name: 'Smith', full_name: 'Mary Ann Smith' });
      // full_name alone still splits on the first space; a different full_name still wins.
      expect(await create('/people.json', 'person', { full_name: 'Mary Ann Smith' })).toMatchObject({ first_name: 'Mary', last_name: 'Ann Smith' });
      expect(await create('/people.json', 'person', { first_name: 'A', last_name: 'B', full_name: 'Carl Dean' })).toMatchObject({
        first_name: 'Carl',
        last_name: 'Dean',
      });
    });

    it('company_name equal to the name of the company_id sent uses that company, not a namesake', async () => {
      const first = await create('/companies.json', 'company', { name: 'Twin Name' });
      const second = await create('/companies.json', 'company', { name: 'Twin Name' });
      const copied = await create('/people.json', 'person', { last_name: 'Copy', company_id: second.id, company_name: 'Twin Name' });
      expect(copied).toMatchObject({ company_id: second.id, company: { id: second.id, name: 'Twin Name' } });
      // An update changing both to the other twin lands on the id sent.
      const moved = await api(key).put(`/people/${copied.id}.json`, { person: { ...copied, company_id: first.id, company_name: 'twin name' } });
      expect(moved.body.company_id).toBe(first.id);
      // A name of no company sent still finds or creates by name.
      const renamed = await api(key).put(`/people/${copied.id}.json`, { person: { ...moved.body, company_name: 'Third Co' } });
      expect(renamed.body.company).toEqual({ id: expect.any(Number), name: 'Third Co' });
      expect([first.id, second.id]).not.toContain(renamed.body.company_id);
    });
  });

  describe('visibility and tenancy', () => {
    it('answers 404 for people of other owners to an own user, and 404 across accounts', async () => {
      const account = await server.createAccount();
      const own = await account.addUser({ visibility: Visibility.OWN });
      const admins = await createPerson(account.admin.apiKey, { last_name: 'AdminsOwn' });
      const owns = await createPerson(own.apiKey, { last_name: 'OwnUsers' });
      expect(owns.user_id).toBe(own.id);
      const forOwn = await createPerson(account.admin.apiKey, { last_name: 'GivenToOwn', user_id: own.id });

      const ownApi = api(own.apiKey);
      for (const res of [
        await ownApi.get(`/people/${admins.id}.json`),
        await ownApi.put(`/people/${admins.id}.json`, { person: { first_name: 'Hack' } }),
        await ownApi.del(`/people/${admins.id}.json`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.text).toBe('');
      }
      expect((await api(account.admin.apiKey).get(`/people/${admins.id}.json`)).body.first_name).toBeNull();
      const list = await ownApi.get('/people.json');
      expect(ids(list).sort()).toEqual([owns.id, forOwn.id].sort());
      expect(list.body.pagination.total).toBe(2);
      expect((await api(account.admin.apiKey).get('/people.json')).body.pagination.total).toBe(3);

      const stranger = await server.createAccount();
      for (const res of [
        await api(stranger.admin.apiKey).get(`/people/${admins.id}.json`),
        await api(stranger.admin.apiKey).put(`/people/${admins.id}.json`, { person: { last_name: 'X' } }),
        await api(stranger.admin.apiKey).del(`/people/${admins.id}.json`),
      ]) {
        expect(res.status).toBe(404);
      }
      expect((await api(stranger.admin.apiKey).get('/people.json')).body.entries).toEqual([]);
      expect((await api(account.admin.apiKey).get(`/people/${admins.id}.json`)).status).toBe(200);
    });
  });

  describe('list conditions, sort, paging, attrs', () => {
    let account: TestAccount;
    let key: string;
    let lists: Lists;
    let user2: { id: number; apiKey: string };
    const p: Record<string, any> = {};

    beforeAll(async () => {
      account = await server.createAccount();
      key = account.admin.apiKey;
      lists = await listsOf(account.accountId);
      user2 = await account.addUser({ firstName: 'Second' });
      p.alice = await createPerson(key, {
        first_name: 'Alice',
        last_name: 'Anderson',
        email: 'alice@alpha.test',
        work_city: 'Springfield',
        work_state: 'Illinois',
        work_postal_code: '62701',
        position: 'Chief Executive',
        phone: '555-0100',
        company_name: 'Alpha Corp',
        lead_source_id: lists.sources[0].id,
        lead_status_id: lists.statuses[0].id,
      });
      p.bob = await createPerson(key, {
        first_name: 'Bob',
        last_name: 'Brown',
        email: 'bob@beta.test',
        home_email: 'bobby@home.test',
        work_city: 'Shelbyville',
        work_state: 'Kentucky',
        work_postal_code: '40065',
        position: 'Sales Rep',
        mobile: '555-0200',
        company_name: 'Beta LLC',
        lead_source_id: lists.sources[1].id,
        lead_status_id: lists.statuses[1].id,
        type: 'Lead',
        user_id: user2.id,
      });
      p.carol = await createPerson(key, { first_name: 'Carol', last_name: 'Under_Score', created_at: '2015-06-01 12:00', email2: 'carol@gamma.test' });
      p.dan = await createPerson(key, { first_name: 'Dan', last_name: 'Lead-Convert', type: 'Lead' });
      await api(key).put(`/people/${p.dan.id}.json`, { person: { type: 'Contact' } });
    });

    const expectIds = async (query: Record<string, string | number | boolean>, expected: number[]) => {
      const res = await api(key).get('/people.json', query);
      expect(res.status).toBe(200);
      expect(ids(res).sort()).toEqual([...expected].sort());
    };

    it('filters by every v3 condition', async () => {
      await expectIds({ 'conditions[person_id]': `${p.alice.id},${p.carol.id}` }, [p.alice.id, p.carol.id]);
      await expectIds({ 'conditions[person_id][]': p.bob.id }, [p.bob.id]);
      await expectIds({ 'conditions[person_name]': 'LICE AND' }, [p.alice.id]);
      // Wildcards match literally.
      await expectIds({ 'conditions[person_name]': '_' }, [p.carol.id]);
      await expectIds({ 'conditions[person_name]': '%' }, []);
      await expectIds({ 'conditions[person_full_name]': 'bob br' }, [p.bob.id]);
      await expectIds({ 'conditions[person_owner]': user2.id }, [p.bob.id]);
      await expectIds({ 'conditions[person_city]': 'field' }, [p.alice.id]);
      await expectIds({ 'conditions[person_state]': 'KENT' }, [p.bob.id]);
      await expectIds({ 'conditions[person_zip]': '627' }, [p.alice.id]);
      await expectIds({ 'conditions[person_position]': 'sales' }, [p.bob.id]);
      await expectIds({ 'conditions[person_company_name]': 'lph' }, [p.alice.id]);
      await expectIds({ 'conditions[lead_source]': lists.sources[0].id }, [p.alice.id]);
      await expectIds({ 'conditions[person_status]': `${lists.statuses[0].id},${lists.statuses[1].id}` }, [p.alice.id, p.bob.id]);
      await expectIds({ 'conditions[person_email]': 'BOBBY@' }, [p.bob.id]);
      await expectIds({ 'conditions[person_email]': 'gamma' }, [p.carol.id]);
      await expectIds({ 'conditions[person_phone]': '0200' }, [p.bob.id]);
      await expectIds({ 'conditions[person_phone]': '555-0' }, [p.alice.id, p.bob.id]);
      await expectIds({ 'conditions[person_created][from_date]': '2015-05-01', 'conditions[person_created][to_date]': '2015-06-01' }, [p.carol.id]);
      await expectIds({ 'conditions[person_modified][to_date]': '2016/01/01' }, [p.carol.id]);
      await expectIds({ 'conditions[person_created][from_date]': '2016-01-01' }, [p.alice.id, p.bob.id, p.dan.id]);
      await expectIds({ 'conditions[person_converted][from_date]': '2020-01-01' }, [p.dan.id]);
      await expectIds({ 'conditions[person_simple_search]': 'beta' }, [p.bob.id]);
      await expectIds({ 'conditions[person_simple_search]': 'alice' }, [p.alice.id]);
      await expectIds({ 'conditions[person_simple_search]': 'under' }, [p.carol.id]);
      await expectIds({ 'conditions[person_simple_search]': 'alice@alpha' }, [p.alice.id]);
      await expectIds({ 'conditions[person_type]': 'Lead' }, [p.bob.id]);
      await expectIds({ 'conditions[person_type]': 'contact' }, [p.alice.id, p.carol.id, p.dan.id]);
      await expectIds({ company_id: p.alice.company_id }, [p.alice.id]);
      await expectIds({ 'conditions[company_id]': p.bob.company_id }, [p.bob.id]);
      // Conditions combine with AND; blank ones filter nothing; unknown ones are ignored.
      await expectIds(
        { 'conditions[person_type]': 'Contact', 'conditions[person_simple_search]': 'a', 'conditions[person_city]': '', 'conditions[nope]': 'x' },
        [p.alice.id, p.carol.id, p.dan.id],
      );
      const bad = await api(key).get('/people.json', { 'conditions[person_type]': 'Customer' });
      expect(bad.status).toBe(422);
      expect(bad.body[0].field).toBe('conditions[person_type]');
    });

    it('sorts by whitelisted columns, last name then first name by default', async () => {
      const order = async (query: Record<string, string>) => ids(await api(key).get('/people.json', query));
      expect(await order({})).toEqual([p.alice.id, p.bob.id, p.dan.id, p.carol.id]);
      expect(await order({ sort: 'first_name' })).toEqual([p.alice.id, p.bob.id, p.carol.id, p.dan.id]);
      expect(await order({ sort: '-people.first_name' })).toEqual([p.dan.id, p.carol.id, p.bob.id, p.alice.id]);
      expect(await order({ sort: 'people.created_at' })).toEqual([p.carol.id, p.alice.id, p.bob.id, p.dan.id]);
      expect(await order({ sort: '-type,last_name' })).toEqual([p.bob.id, p.alice.id, p.dan.id, p.carol.id]);
      expect(await order({ sort: 'company_name,id' })).toEqual([p.alice.id, p.bob.id, p.carol.id, p.dan.id]);
      const bad = await api(key).get('/people.json', { sort: 'people.password' });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual([{ field: 'sort', humanized_field: 'Sort', msg: expect.stringContaining('people.password') }]);
    });

    it('answers attrs only', async () => {
      const res = await api(key).get('/people.json', { attrs: 'id,last_name,unknown', 'conditions[person_id]': p.alice.id });
      expect(res.body.entries).toEqual([{ id: p.alice.id, last_name: 'Anderson' }]);
      const one = await api(key).get(`/people/${p.bob.id}.json`, { attrs: 'user,company' });
      expect(one.body).toEqual({ user: expect.objectContaining({ id: user2.id, first_name: 'Second' }), company: { id: p.bob.company_id, name: 'Beta LLC' } });
    });

    it('pages 30 by default, at most 100, with pages in the envelope', async () => {
      const bulk = await server.createAccount();
      await sql(
        `insert into people (account_id, owner_id, last_name, first_name, tag_ids, custom_fields, created_at, updated_at)
         select ?, ?, 'Bulk' || lpad(g::text, 3, '0'), 'B', '[]', '{}', now(), now() from generate_series(1, 135) g`,
        [bulk.accountId, bulk.admin.id],
      );
      const first = await api(bulk.admin.apiKey).get('/people.json');
      expect(first.body.entries).toHaveLength(30);
      expect(first.body.pagination).toEqual({ page: 1, per_page: 30, total: 135, pages: 5, page_var: 'page' });
      expect(first.body.entries[0].last_name).toBe('Bulk001');
      const fifth = await api(bulk.admin.apiKey).get('/people.json', { page: 5 });
      expect(fifth.body.entries.map((e: any) => e.last_name)).toEqual([
        'Bulk121',
        'Bulk122',
        'Bulk123',
        'Bulk124',
        'Bulk125',
        'Bulk126',
        'Bulk127',
        'Bulk128',
        'Bulk129',
        'Bulk130',
        'Bulk131',
        'Bulk132',
        'Bulk133',
        'Bulk134',
        'Bulk135',
      ]);
      const big = await api(bulk.admin.apiKey).get('/people.json', { per_page: 500, page: 2 });
      expect(big.body.entries).toHaveLength(35);
      expect(big.body.pagination).toEqual({ page: 2, per_page: 100, total: 135, pages: 2, page_var: 'page' });
      const past = await api(bulk.admin.apiKey).get('/people.json', { page: 9 });
      expect(past.body).toEqual({ entries: [], pagination: { page: 9, per_page: 30, total: 135, pages: 5, page_var: 'page' } });
    });
  });

  describe('cost', () => {
    it('lists 100 people with every relation in at most 7 SQL statements', async () => {
      const account = await server.createAccount();
      const lists = await listsOf(account.accountId);
      const field = await customField(account.accountId, CustomFieldKind.NUMERIC, 'Score');
      const users = [account.admin.id, (await account.addUser()).id, (await account.addUser()).id];
      const companies: number[] = [];
      for (const name of ['C1', 'C2', 'C3', 'C4']) companies.push((await api(account.admin.apiKey).post('/companies.json', { company: { name } })).body.id);
      await sql(
        `insert into people (account_id, owner_id, company_id, lead_status_id, lead_source_id, last_name, tag_ids, custom_fields, created_at, updated_at)
         select ?, (array[?, ?, ?]::int[])[1 + g % 3], (array[?, ?, ?, ?]::int[])[1 + g % 4], ?, ?, 'P' || g, ?::jsonb, jsonb_build_object(?::text, g), now(), now()
         from generate_series(1, 100) g`,
        [
          account.accountId,
          ...users,
          ...companies,
          lists.statuses[0].id,
          lists.sources[0].id,
          JSON.stringify([lists.tags[0].id, lists.tags[1].id]),
          `custom_label_${field}`,
        ],
      );
      const { result: res, statements } = await countStatements(() => api(account.admin.apiKey).get('/people.json', { per_page: 100 }));
      expect(res.status).toBe(200);
      expect(res.body.entries).toHaveLength(100);
      const e = res.body.entries.find((x: any) => x.last_name === 'P5');
      expect(e).toMatchObject({
        user_id: users[2],
        user: expect.objectContaining({ id: users[2] }),
        company: { id: companies[1], name: 'C2' },
        company_name: 'C2',
        lead_status: lists.statuses[0],
        lead_source: lists.sources[0],
        predefined_contacts_tags: [lists.tags[0], lists.tags[1]],
        custom_fields: { [`custom_label_${field}`]: '5.0' }, // numeric as a decimal string (DECISIONS: Responses)
        possible_notify_user_ids: users,
      });
      // The counter saw the request's own statements (auth and the page itself)...
      expect(statements.some((s) => /api_key_hash/.test(s))).toBe(true);
      expect(statements.some((s) => /from "people" p/.test(s) && /\blimit\b/i.test(s))).toBe(true);
      // ...auth, page, its total (counted on a second connection while the page is read),
      // users, companies, list items, custom field definitions, and the deals each person takes
      // part in (v3 deal_ids, real since deals exist).
      expect(statements.length).toBeGreaterThanOrEqual(5);
      expect(statements.length <= 8 ? 'at most 8' : statements).toBe('at most 8');
    });
  });

  describe('indexes', () => {
    it("like-match conditions are written on the migration's trigram-indexed expressions", async () => {
      const account = await server.createAccount();
      await createPerson(account.admin.apiKey, { first_name: 'Index', last_name: 'Probe' });
      // Each index's expression as PostgreSQL normalises it, e.g. `(work_city)::text` or the name concatenation.
      const indexExpression = async (name: string): Promise<string> => {
        const [{ def }] = await sql<{ def: string }>('select pg_get_indexdef(?::regclass) as def', [name]);
        const inner = /USING gin \((.*) gin_trgm_ops\)$/.exec(def)![1];
        // A column index shows as `(work_city)::text` in a plan; an expression index is wrapped in one more pair of parentheses.
        return /^"?\w+"?$/.test(inner) ? `(${inner})::text` : inner.slice(1, -1);
      };
      const connection = server.orm.em.getConnection() as unknown as { execute: (...args: unknown[]) => Promise<unknown> };
      const cases: Array<[string, string[]]> = [
        ['person_name', ['people_name_trgm']],
        ['person_full_name', ['people_name_trgm']],
        ['person_email', ['people_emails_trgm']],
        ['person_phone', ['people_phones_trgm']],
        ['person_city', ['people_work_city_trgm']],
        ['person_state', ['people_work_state_trgm']],
        ['person_zip', ['people_work_postal_code_trgm']],
        ['person_position', ['people_position_trgm']],
        ['person_simple_search', ['people_name_trgm', 'people_emails_trgm']],
      ];
      for (const [condition, indexes] of cases) {
        const spy = jest.spyOn(connection, 'execute');
        let listed: [string, unknown[]] | undefined;
        try {
          const res = await api(account.admin.apiKey).get('/people.json', { [`conditions[${condition}]`]: 'probe' });
          expect(res.status).toBe(200);
          listed = spy.mock.calls.map((c) => [String(c[0]), c[1] as unknown[]] as [string, unknown[]]).find(([q]) => q.includes('from "people" p'));
        } finally {
          spy.mockRestore();
        }
        // The planner's rendering of the statement the service really ran shows the expression it filters on.
        const plan = await sql<{ 'QUERY PLAN': string }>(`explain ${listed![0]}`, listed![1]);
        const text = plan.map((r) => r['QUERY PLAN']).join('\n');
        for (const index of indexes) {
          const expression = await indexExpression(index);
          expect({ condition, index, matches: text.includes(`${expression} ~~* '%probe%'`) }).toEqual({ condition, index, matches: true });
        }
      }
    });
  });

  describe('companies: nested people and associations (v3 §4.6)', () => {
    it('lists a company’s people and includes them on show with associations=people', async () => {
      const account = await server.createAccount();
      const key = account.admin.apiKey;
      const own = await account.addUser({ visibility: Visibility.OWN });
      const company = (await api(own.apiKey).post('/companies.json', { company: { name: 'Shared Co' } })).body;
      const other = (await api(key).post('/companies.json', { company: { name: 'Other Co' } })).body;
      const mine = await createPerson(key, { first_name: 'Own', last_name: 'Person', company_id: company.id, user_id: own.id });
      const admins = await createPerson(key, { first_name: 'Admin', last_name: 'Person', company_id: company.id });
      const elsewhere = await createPerson(key, { last_name: 'Elsewhere', company_id: other.id });

      const nested = await api(key).get(`/companies/${company.id}/people.json`);
      expect(nested.status).toBe(200);
      expect(ids(nested)).toEqual([admins.id, mine.id]);
      expect(nested.body.pagination).toEqual({ page: 1, per_page: 30, total: 2, pages: 1, page_var: 'page' });
      expect(ids(await api(key).get(`/companies/${company.id}/people`, { 'conditions[person_name]': 'own' }))).toEqual([mine.id]);
      expect(ids(await api(key).get(`/companies/${other.id}/people.json`))).toEqual([elsewhere.id]);
      expect(ids(await api(own.apiKey).get(`/companies/${company.id}/people.json`))).toEqual([mine.id]);

      const plain = await api(key).get(`/companies/${company.id}.json`);
      expect(plain.status).toBe(200);
      expect(plain.body).not.toHaveProperty('people');
      const withPeople = await api(key).get(`/companies/${company.id}.json`, { associations: 'notes,people,bogus' });
      expect(withPeople.body.people).toEqual([
        { id: admins.id, first_name: 'Admin', last_name: 'Person', full_name: 'Admin Person' },
        { id: mine.id, first_name: 'Own', last_name: 'Person', full_name: 'Own Person' },
      ]);
      const unknownOnly = await api(key).get(`/companies/${company.id}.json`, { associations: 'bogus' });
      expect(unknownOnly.status).toBe(200);
      expect(unknownOnly.body).not.toHaveProperty('people');
      // Visibility applies inside the association too.
      const asOwn = await api(own.apiKey).get(`/companies/${company.id}.json`, { associations: 'people' });
      expect(asOwn.body.people.map((x: any) => x.id)).toEqual([mine.id]);
    });
  });

  describe('GraphQL', () => {
    it('lists people and answers user errors on createPerson', async () => {
      const account = await server.createAccount();
      const key = account.admin.apiKey;
      const created = await server.graphql(
        key,
        `mutation { createPerson(input: { lastName: "", fullName: "Grace Brewster Hopper", type: LEAD, companyName: "Navy" }) { person { id databaseId firstName lastName type companyName company { name } dealIds } userErrors { field } } }`,
      );
      expect(created.body.errors).toBeUndefined();
      expect(created.body.data.createPerson.userErrors).toEqual([]);
      const person = created.body.data.createPerson.person;
      expect(person).toMatchObject({
        firstName: 'Grace',
        lastName: 'Brewster Hopper',
        type: 'LEAD',
        companyName: 'Navy',
        company: { name: 'Navy' },
        dealIds: [],
      });

      const list = await server.graphql(
        key,
        `query($f: PersonFilter) { people(filter: $f, orderBy: [{ field: LAST_NAME, direction: DESC }], first: 10) { nodes { id fullName owner { databaseId } } totalCount } }`,
        { f: { name: { contains: 'hopper' }, type: { eq: 'LEAD' } } },
      );
      expect(list.body.errors).toBeUndefined();
      expect(list.body.data.people).toEqual({
        nodes: [{ id: person.id, fullName: 'Grace Brewster Hopper', owner: { databaseId: account.admin.id } }],
        totalCount: 1,
      });

      // Datetimes are ISO-8601 on every read path (list and show come from hand-written SQL).
      const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
      const read = await server.graphql(
        key,
        `{ person(id: ${person.databaseId}) { createdAt updatedAt convertedAt owner { createdAt } } people { nodes { createdAt updatedAt } } }`,
      );
      expect(read.body.errors).toBeUndefined();
      expect(read.body.data.person).toEqual({
        createdAt: expect.stringMatching(iso),
        updatedAt: expect.stringMatching(iso),
        convertedAt: null,
        owner: { createdAt: expect.stringMatching(iso) },
      });
      expect(read.body.data.people.nodes[0]).toEqual({ createdAt: read.body.data.person.createdAt, updatedAt: read.body.data.person.updatedAt });

      const invalid = await server.graphql(
        key,
        `mutation { createPerson(input: { firstName: "No", lastName: " " }) { person { id } userErrors { field code message } } }`,
      );
      expect(invalid.body.errors).toBeUndefined();
      expect(invalid.body.data.createPerson).toEqual({
        person: null,
        userErrors: [{ field: ['input', 'lastName'], code: 'BLANK', message: "can't be blank" }],
      });

      const tmpl = await server.graphql(
        key,
        `mutation { createPerson(input: { lastName: "T" }, options: { todoTemplateId: 3 }) { person { id } userErrors { field code message } } }`,
      );
      expect(tmpl.body.data.createPerson.userErrors).toEqual([{ field: ['options', 'todoTemplateId'], code: 'NOT_FOUND', message: 'does not exist' }]);
    });
  });
});
