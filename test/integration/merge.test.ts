import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 26 §4 merges: the survivor takes the merged records' notes, deals, calendar entries,
 * documents' links, tags and blank fields; the merged records are deleted; the change records say
 * destroy for each merged one and update for the survivor; refused whole for hidden records.
 */

const MERGE_PEOPLE = `mutation($into: Int!, $from: [Int!]!) {
  mergePeople(intoId: $into, fromIds: $from) {
    person { databaseId firstName lastName email phone tagIds mergedIds }
    mergedDatabaseIds
    userErrors { field code message }
  }
}`;
const MERGE_COMPANIES = `mutation($into: Int!, $from: [Int!]!) {
  mergeCompanies(intoId: $into, fromIds: $from) { company { databaseId name website mergedIds } mergedDatabaseIds userErrors { field code message } }
}`;

describe('mergePeople and mergeCompanies', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let own: { id: number; apiKey: string };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    admin = account.admin.apiKey;
    own = await account.addUser({ isAdmin: false, visibility: Visibility.OWN });
  }, 60_000);
  afterAll(() => server.close());

  const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) => {
    const res = await server.graphql(key, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const createPerson = async (input: Record<string, unknown>, key = admin): Promise<number> => {
    const data = await gql(key, 'mutation($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } userErrors { message } } }', {
      input,
    });
    return data.createPerson.person.databaseId;
  };
  const createCompany = async (input: Record<string, unknown>, key = admin): Promise<number> => {
    const data = await gql(key, 'mutation($input: CompanyCreateInput!) { createCompany(input: $input) { company { databaseId } userErrors { message } } }', {
      input,
    });
    return data.createCompany.company.databaseId;
  };
  const createNote = async (input: Record<string, unknown>): Promise<number> => {
    const data = await gql(admin, 'mutation($input: NoteCreateInput!) { createNote(input: $input) { note { databaseId } userErrors { message } } }', { input });
    return data.createNote.note.databaseId;
  };
  const createDeal = async (input: Record<string, unknown>): Promise<number> => {
    const data = await gql(admin, 'mutation($input: DealCreateInput!) { createDeal(input: $input) { deal { databaseId } userErrors { message } } }', { input });
    return data.createDeal.deal.databaseId;
  };
  const createTask = async (input: Record<string, unknown>): Promise<number> => {
    const data = await gql(
      admin,
      'mutation($input: CalendarEntryCreateInput!) { createCalendarEntry(input: $input) { calendarEntry { databaseId } userErrors { message } } }',
      { input: { kind: 'TASK', name: 'Call', dueDate: '2026-12-01', ...input } },
    );
    return data.createCalendarEntry.calendarEntry.databaseId;
  };
  const maxChange = async () => Number((await server.sql('select coalesce(max(id), 0) as m from record_changes'))[0].m);
  const changesSince = (since: number, model: string) =>
    server.sql<{ action: string; record_id: number; changes: Record<string, [unknown, unknown]> | null }>(
      'select action, record_id, changes from record_changes where id > ? and account_id = ? and model = ? order by record_id',
      [since, account.accountId, model],
    );

  it('moves notes, deals, calendar entries and tags to the survivor, fills its blank fields, deletes the merged people', async () => {
    const tags = await gql(
      admin,
      'mutation { a: createListItem(kind: CONTACT_TAG, input: { name: "Vip" }) { listItem { databaseId } } b: createListItem(kind: CONTACT_TAG, input: { name: "Cold" }) { listItem { databaseId } } }',
    );
    const [vip, cold] = [tags.a.listItem.databaseId as number, tags.b.listItem.databaseId as number];
    const into = await createPerson({ lastName: 'Lovelace', firstName: 'Ada', tagIds: [vip] });
    const from1 = await createPerson({ lastName: 'Lovelace', email: 'ada@example.test', phone: '555', tagIds: [vip, cold] });
    const from2 = await createPerson({ lastName: 'Byron', firstName: 'Augusta', email: 'other@example.test' });
    const note1 = await createNote({ content: 'About from1', personId: from1 });
    const note2 = await createNote({ content: 'About from2', personId: from2 });
    const sharedDeal = await createDeal({ name: 'Engine', personIds: [into, from1], primaryContactId: from1 });
    const dealOf2 = await createDeal({ name: 'Loom', personIds: [from2] });
    const task = await createTask({ associationType: 'PERSON', associationId: from2 });
    const since = await maxChange();

    const data = await gql(admin, MERGE_PEOPLE, { into, from: [from1, from2] });
    expect(data.mergePeople).toEqual({
      person: {
        databaseId: into,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.test',
        phone: '555',
        tagIds: [vip, cold],
        mergedIds: [from1, from2],
      },
      mergedDatabaseIds: [from1, from2],
      userErrors: [],
    });

    expect(await server.sql('select id from people where id in (?, ?)', [from1, from2])).toEqual([]);
    expect(await server.sql('select id, person_id from notes where id in (?, ?) order by id', [note1, note2])).toEqual([
      { id: note1, person_id: into },
      { id: note2, person_id: into },
    ]);
    expect(await server.sql('select deal_id, person_id from deal_people where deal_id in (?, ?) order by deal_id, person_id', [sharedDeal, dealOf2])).toEqual([
      { deal_id: sharedDeal, person_id: into },
      { deal_id: dealOf2, person_id: into },
    ]);
    expect((await server.sql('select primary_contact_id from deals where id = ?', [sharedDeal]))[0].primary_contact_id).toBe(into);
    expect((await server.sql('select person_id from calendar_entries where id = ?', [task]))[0].person_id).toBe(into);
    const viaGraphql = await gql(admin, 'query($id: Int!) { person(id: $id) { notes { nodes { databaseId } } deals { nodes { databaseId } } } }', { id: into });
    expect(viaGraphql.person.notes.nodes.map((n: { databaseId: number }) => n.databaseId).sort()).toEqual([note1, note2].sort());
    expect(viaGraphql.person.deals.nodes.map((n: { databaseId: number }) => n.databaseId).sort()).toEqual([sharedDeal, dealOf2].sort());

    const people = await changesSince(since, 'person');
    expect(people.map((c) => [c.record_id, c.action])).toEqual([
      [into, 'update'],
      [from1, 'destroy'],
      [from2, 'destroy'],
    ]);
    expect(people[0].changes).toMatchObject({ email: [null, 'ada@example.test'], phone: [null, '555'], merged_ids: [[], [from1, from2]] });
    expect((await changesSince(since, 'note')).map((c) => [c.record_id, c.action])).toEqual([
      [note1, 'update'],
      [note2, 'update'],
    ]);
  });

  it('records the survivor as updated even when none of its own fields changes', async () => {
    const into = await createPerson({ lastName: 'Full', email: 'full@example.test' });
    const from = await createPerson({ lastName: 'Other' });
    const since = await maxChange();
    await gql(admin, MERGE_PEOPLE, { into, from: [from] });
    expect((await changesSince(since, 'person')).map((c) => [c.record_id, c.action, c.changes])).toEqual([
      [into, 'update', { merged_ids: [[], [from]] }],
      [from, 'destroy', null],
    ]);
  });

  it('refuses, writing nothing, when any person is hidden or missing (without saying which), or into is among from', async () => {
    const mine = await createPerson({ lastName: 'Mine' }, own.apiKey);
    const alsoMine = await createPerson({ lastName: 'Also mine' }, own.apiKey);
    const hidden = await createPerson({ lastName: 'Hidden' });
    const noteOfHidden = await createNote({ content: 'Secret', personId: hidden });
    const since = await maxChange();

    for (const [into, from] of [
      [mine, [hidden]],
      [hidden, [mine]],
      [mine, [alsoMine, 99999999]],
    ] as const) {
      const data = await gql(own.apiKey, MERGE_PEOPLE, { into, from });
      expect(data.mergePeople).toEqual({
        person: null,
        mergedDatabaseIds: [],
        userErrors: [{ field: null, code: 'NOT_FOUND', message: 'every person must exist and be one you may see: one of intoId and fromIds is not' }],
      });
    }
    const self = await gql(own.apiKey, MERGE_PEOPLE, { into: mine, from: [alsoMine, mine] });
    expect(self.mergePeople.userErrors).toEqual([expect.objectContaining({ field: ['fromIds'], code: 'INVALID' })]);
    const empty = await gql(own.apiKey, MERGE_PEOPLE, { into: mine, from: [] });
    expect(empty.mergePeople.userErrors).toEqual([expect.objectContaining({ field: ['fromIds'], code: 'BLANK' })]);
    const many = await server.graphql(own.apiKey, MERGE_PEOPLE, { into: mine, from: Array.from({ length: 21 }, (_, i) => i + 1) });
    expect(many.body.errors[0]).toMatchObject({ message: 'fromIds: at most 20 people merged in one call (got 21)', extensions: { code: 'BAD_USER_INPUT' } });

    expect(await server.sql('select id from people where id in (?, ?, ?) order by id', [mine, alsoMine, hidden])).toHaveLength(3);
    expect((await server.sql('select person_id from notes where id = ?', [noteOfHidden]))[0].person_id).toBe(hidden);
    expect(await changesSince(since, 'person')).toEqual([]);
  });

  it('merges companies: their people, deals and notes go to the survivor', async () => {
    const into = await createCompany({ name: 'Acme' });
    const from = await createCompany({ name: 'ACME Ltd', website: 'acme.test' });
    const person = await createPerson({ lastName: 'Worker', companyId: from });
    const deal = await createDeal({ name: 'Rockets', companyId: from });
    const note = await createNote({ content: 'About ACME', companyId: from });
    const since = await maxChange();

    const data = await gql(admin, MERGE_COMPANIES, { into, from: [from] });
    expect(data.mergeCompanies).toEqual({
      company: { databaseId: into, name: 'Acme', website: 'acme.test', mergedIds: [from] },
      mergedDatabaseIds: [from],
      userErrors: [],
    });
    expect((await server.sql('select company_id from people where id = ?', [person]))[0].company_id).toBe(into);
    expect((await server.sql('select company_id from deals where id = ?', [deal]))[0].company_id).toBe(into);
    expect((await server.sql('select company_id from notes where id = ?', [note]))[0].company_id).toBe(into);
    expect(await server.sql('select id from companies where id = ?', [from])).toEqual([]);
    expect((await changesSince(since, 'company')).map((c) => [c.record_id, c.action])).toEqual([
      [into, 'update'],
      [from, 'destroy'],
    ]);

    const hidden = await createCompany({ name: 'Hidden Co' });
    const mine = await createCompany({ name: 'Mine Co' }, own.apiKey);
    const refused = await gql(own.apiKey, MERGE_COMPANIES, { into: mine, from: [hidden] });
    expect(refused.mergeCompanies.userErrors).toEqual([expect.objectContaining({ field: null, code: 'NOT_FOUND' })]);
    expect(await server.sql('select id from companies where id = ?', [hidden])).toHaveLength(1);
  });
});
