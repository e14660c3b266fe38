import { countStatements } from '../support/sql-counter';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** A page of calendar entries with owner, category, priority, association, company and base entry costs a fixed number of statements, whatever its size. */
describe('SQL statements per calendar entries page', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    const a = account.accountId;
    const u = account.admin.id;
    const sql = (text: string, params: unknown[] = []) => server.sql(text, params);
    await sql(
      `insert into companies (account_id, owner_id, name, created_at, updated_at) select ?, ?, 'Co ' || g, now(), now() from generate_series(1, 10) g`,
      [a, u],
    );
    await sql(
      `insert into people (account_id, owner_id, first_name, last_name, created_at, updated_at) select ?, ?, 'F', 'P ' || g, now(), now() from generate_series(1, 10) g`,
      [a, u],
    );
    await sql(`insert into deals (account_id, owner_id, name, created_at, updated_at) select ?, ?, 'D ' || g, now(), now() from generate_series(1, 10) g`, [
      a,
      u,
    ]);
    await sql(
      `insert into list_items (account_id, kind, name, position, created_at, updated_at) select ?, k, k || ' ' || g, g, now(), now() from generate_series(1, 3) g, unnest(array['event_category', 'calendar_entry_priority']) k`,
      [a],
    );
    // A base entry, then 120 entries about a deal, a person or a company in turn, each an occurrence of the base.
    await sql(
      `insert into calendar_entries (account_id, kind, owner_id, name, time_zone, start_time, end_time, part_of_recurring_series, created_at, updated_at) values (?, 'event', ?, 'Base', 'UTC', now(), now(), true, now(), now())`,
      [a, u],
    );
    await sql(
      `insert into calendar_entries (account_id, kind, owner_id, name, time_zone, due_date, all_day, category_id, calendar_entry_priority_id, association_type, deal_id, person_id, company_id, base_entry_id, part_of_recurring_series, created_at, updated_at)
       select ?, 'task', ?, 'Task ' || g, 'UTC', current_date + g, true,
              (select id from list_items where account_id = ? and kind = 'event_category' order by id offset g % 3 limit 1),
              (select id from list_items where account_id = ? and kind = 'calendar_entry_priority' order by id offset g % 3 limit 1),
              (array['Deal', 'Person', 'Company'])[g % 3 + 1],
              case when g % 3 = 0 then (select id from deals where account_id = ? order by id offset g % 10 limit 1) end,
              case when g % 3 = 1 then (select id from people where account_id = ? order by id offset g % 10 limit 1) end,
              (select id from companies where account_id = ? order by id offset g % 10 limit 1),
              (select id from calendar_entries where account_id = ? and name = 'Base'), true, now(), now()
       from generate_series(1, 120) g`,
      [a, u, a, a, a, a, a, a],
    );
  }, 60_000);
  afterAll(() => server.close());

  const query = `query($n: Int) { calendarEntries(first: $n, filter: { kind: { eq: TASK } }) { nodes { databaseId owner { fullName } category { name } calendarEntryPriority { name } company { name }
    association { __typename ... on Deal { name } ... on Person { lastName } ... on Company { name } } baseEntry { name } } } }`;

  it('GraphQL and v3: the same count for 5 and 100 entries', async () => {
    const small = await countStatements(() => server.graphql(account.admin.apiKey, query, { n: 5 }));
    const large = await countStatements(() => server.graphql(account.admin.apiKey, query, { n: 100 }));
    expect(large.result.body.errors).toBeUndefined();
    const nodes = large.result.body.data.calendarEntries.nodes;
    expect(nodes).toHaveLength(100);
    expect(new Set(nodes.map((n: { association: { __typename: string } }) => n.association.__typename))).toEqual(new Set(['Deal', 'Person', 'Company']));
    expect(nodes[0]).toMatchObject({
      owner: { fullName: expect.any(String) },
      category: { name: expect.any(String) },
      calendarEntryPriority: { name: expect.any(String) },
      company: { name: expect.any(String) },
      baseEntry: { name: 'Base' },
    });
    expect(large.statements.length).toBe(small.statements.length);
    // Auth, the page, users, list items, companies, deals and their shares, people, base entries and their visibility.
    expect(large.statements.length <= 10 ? 'at most 10' : large.statements).toBe('at most 10');
    const v3small = await countStatements(() => server.v3(account.admin.apiKey).get('/calendar_entries.json', { per_page: 5 }));
    const v3large = await countStatements(() => server.v3(account.admin.apiKey).get('/calendar_entries.json', { per_page: 100 }));
    expect(v3large.result.body.entries).toHaveLength(100);
    expect(v3large.result.body.entries[0]).toMatchObject({ owner: { full_name: expect.any(String) }, category: { name: expect.any(String) } });
    expect(v3large.statements.length).toBe(v3small.statements.length);
    // Issue 22: v3 shows `association` and `associated_company` (as recorded), read by the same batches as GraphQL's.
    expect(new Set(v3large.result.body.entries.map((e: { association: { id: number } | null }) => typeof e.association?.id))).toEqual(new Set(['number']));
    expect(v3large.result.body.entries[0].associated_company).toEqual({ id: expect.any(Number), name: expect.stringMatching(/^Co /) });
    expect(v3large.statements.length <= 10 ? 'at most 10' : v3large.statements).toBe('at most 10');
  });
});
