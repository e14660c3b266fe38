import { randomBytes } from 'node:crypto';
import { FixedClock } from '../../src/common/clock';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 14 §4: applying a todo template to a person or deal makes one task per item: due
 * `due_date` days later in the owner's zone (none when null), in the item's event category,
 * owned by `todo_template_user_id` (default: the record's owner), about the record; once per
 * request; a template of the other type is a 422 and writes nothing. Applications recorded as
 * pending before the calendar existed became their tasks in a migration (tested on its SQL here).
 */
describe('todo templates make tasks', () => {
  // 23:30 in New York on 2026-11-24 is already the 25th in UTC: "days later" counts from the owner's day.
  const clock = new FixedClock('2026-11-25T04:30:00Z');
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let rita: { id: number; apiKey: string };
  let category: { id: number; name: string };
  let peopleTemplate: number;
  let dealsTemplate: number;
  const unique = (s: string) => `${s} ${randomBytes(3).toString('hex')}`;

  const tasksOf = (type: 'person' | 'deal', id: number) =>
    server.sql<{
      name: string;
      due_date: string | null;
      owner_id: number;
      category_id: number | null;
      kind: string;
      association_type: string;
      all_day: boolean;
    }>(
      `select name, to_char(due_date, 'YYYY-MM-DD') as due_date, owner_id, category_id, kind, association_type, all_day from calendar_entries where ${type}_id = ? order by id`,
      [id],
    );

  beforeAll(async () => {
    server = await startTestServer({}, { clock });
    account = await server.createAccount({ timeZone: 'America/New_York' });
    key = account.admin.apiKey;
    rita = await account.addUser({ firstName: 'Rita', lastName: 'Owner' });
    const v3 = server.v3(key);
    category = (await v3.post('/admin/event_categories.json', { event_category: { name: unique('Call') } })).body;
    peopleTemplate = (await v3.post('/admin/todo_templates.json', { todo_template: { name: unique('Onboard'), template_type: 'people' } })).body.id;
    dealsTemplate = (await v3.post('/admin/todo_templates.json', { todo_template: { name: unique('Close'), template_type: 'deals' } })).body.id;
    for (const [template, description, due, categoryId] of [
      [peopleTemplate, 'Call them', 2, category.id],
      [peopleTemplate, 'Send the brochure', null, null],
      [dealsTemplate, 'Send a quote', 0, null],
    ] as const) {
      const res = await v3.post('/admin/todo_template_items.json', {
        todo_template_item: { description, todo_template_id: template, event_category_id: categoryId, due_date: due },
      });
      expect(res.status).toBe(200);
    }
  }, 60_000);

  afterAll(() => server?.close());

  it('a person created with a template gets one task per item, owned by the record owner, due days later in their zone', async () => {
    const person = await server.v3(key).post('/people.json', { person: { last_name: 'Templated', user_id: rita.id }, todo_template_id: peopleTemplate });
    expect(person.status).toBe(200);
    expect(await tasksOf('person', person.body.id)).toEqual([
      { name: 'Call them', due_date: '2026-11-26', owner_id: rita.id, category_id: category.id, kind: 'task', association_type: 'Person', all_day: true },
      { name: 'Send the brochure', due_date: null, owner_id: rita.id, category_id: null, kind: 'task', association_type: 'Person', all_day: true },
    ]);
    // The tasks are calendar entries like any other: listed for the person, over v3.
    const listed = await server.v3(key).get(`/people/${person.body.id}/calendar_entries.json`);
    expect(listed.body.entries.map((e: { name: string }) => e.name).sort()).toEqual(['Call them', 'Send the brochure']);
  });

  it('todo_template_user_id owns the tasks; an update applies the template once however it is sent', async () => {
    const deal = (await server.v3(key).post('/deals.json', { deal: { name: 'Big one' } })).body;
    // The flag in the query string and the body top level: one application.
    const res = await server
      .v3(key)
      .put(
        `/deals/${deal.id}.json`,
        { deal: { name: 'Big one' }, todo_template_id: dealsTemplate, todo_template_user_id: rita.id },
        { todo_template_id: dealsTemplate },
      );
    expect(res.status).toBe(200);
    expect(await tasksOf('deal', deal.id)).toEqual([
      { name: 'Send a quote', due_date: '2026-11-24', owner_id: rita.id, category_id: null, kind: 'task', association_type: 'Deal', all_day: true },
    ]);
    // A second request applies it again: once per request, not once per record.
    await server.v3(key).put(`/deals/${deal.id}.json`, { deal: { name: 'Big one' }, todo_template_id: dealsTemplate });
    expect((await tasksOf('deal', deal.id)).map((t) => t.owner_id)).toEqual([rita.id, account.admin.id]);
  });

  it('GraphQL applies it too, and a template of the other type is a user error that writes nothing', async () => {
    const before = (await server.sql<{ n: number }>('select count(*)::int as n from calendar_entries'))[0].n;
    const wrong = await server.graphql(
      key,
      'mutation($t: Int!) { createDeal(input: { name: "Wrong" }, options: { todoTemplateId: $t }) { deal { databaseId } userErrors { field code } } }',
      { t: peopleTemplate },
    );
    expect(wrong.body.errors).toBeUndefined();
    expect(wrong.body.data.createDeal).toEqual({ deal: null, userErrors: [expect.objectContaining({ field: ['options', 'todoTemplateId'] })] });
    expect((await server.sql<{ n: number }>('select count(*)::int as n from calendar_entries'))[0].n).toBe(before);
    expect(await server.sql(`select id from deals where name = 'Wrong'`)).toEqual([]);
    const v3Wrong = await server.v3(key).post('/people.json', { person: { last_name: 'Wrong type' }, todo_template_id: dealsTemplate });
    expect(v3Wrong).toMatchObject({ status: 422, body: [expect.objectContaining({ field: 'todo_template_id' })] });
    expect((await server.sql<{ n: number }>('select count(*)::int as n from calendar_entries'))[0].n).toBe(before);

    const ok = await server.graphql(
      key,
      'mutation($t: Int!) { createPerson(input: { lastName: "Graph" }, options: { todoTemplateId: $t }) { person { databaseId } userErrors { field } } }',
      { t: peopleTemplate },
    );
    expect(ok.body.data.createPerson.userErrors).toEqual([]);
    expect((await tasksOf('person', ok.body.data.createPerson.person.databaseId)).map((t) => [t.name, t.owner_id])).toEqual([
      ['Call them', account.admin.id],
      ['Send the brochure', account.admin.id],
    ]);
  });

  it('applications left pending before the calendar existed become their tasks, once', async () => {
    const person = (await server.v3(key).post('/people.json', { person: { last_name: 'Waiting', user_id: rita.id } })).body;
    const [app] = await server.sql<{ id: number }>(
      `insert into todo_template_applications (account_id, template_id, record_type, record_id, user_id, status, created_at) values (?, ?, 'Person', ?, null, 'pending', '2026-11-20T12:00:00Z') returning id`,
      [account.accountId, peopleTemplate, person.id],
    );
    const { Migration20261130000002TodoTemplatePending } = await import('../../migrations/20261130000002-todo-template-pending');
    const migration = new Migration20261130000002TodoTemplatePending(server.orm.em.getDriver(), server.orm.config);
    await migration.up();
    for (const sql of migration.getQueries()) await server.sql(typeof sql === 'string' ? sql : sql.toString());
    expect(await tasksOf('person', person.id)).toEqual([
      expect.objectContaining({ name: 'Call them', due_date: '2026-11-22', owner_id: rita.id, category_id: category.id }),
      expect.objectContaining({ name: 'Send the brochure', due_date: null, owner_id: rita.id }),
    ]);
    expect((await server.sql('select status from todo_template_applications where id = ?', [app.id]))[0]).toEqual({ status: 'applied' });
    // Run again: nothing pending, nothing made.
    for (const sql of migration.getQueries()) await server.sql(typeof sql === 'string' ? sql : sql.toString());
    expect(await tasksOf('person', person.id)).toHaveLength(2);
  });
});
