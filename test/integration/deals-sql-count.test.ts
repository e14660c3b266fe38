import { countStatements } from '../support/sql-counter';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/** House style §6 for deals: a page of 200 with every convenience object costs a fixed number of statements. */
describe('SQL statements per deals page', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    const users = [account.admin.id];
    for (let i = 0; i < 3; i++) users.push((await account.addUser({ firstName: `Rep${i}`, lastName: 'Count' })).id);
    const sql = (text: string, params: unknown[] = []) => server.orm.em.fork().getConnection().execute(text, params);
    const a = account.accountId;
    await sql(
      `insert into companies (account_id, owner_id, name, created_at, updated_at) select ?, ?, 'Co ' || g, now(), now() from generate_series(1, 20) g`,
      [a, users[0]],
    );
    await sql(
      `insert into people (account_id, owner_id, last_name, created_at, updated_at) select ?, ?, 'P ' || g, now(), now() from generate_series(1, 40) g`,
      [a, users[0]],
    );
    await sql(
      `insert into list_items (account_id, kind, name, position, created_at, updated_at) select ?, k, k || ' ' || g, g, now(), now() from generate_series(1, 3) g, unnest(array['lead_source', 'deal_loss_reason']) k`,
      [a],
    );
    await sql(
      `insert into deals (account_id, owner_id, company_id, primary_contact_id, stage_id, source_id, loss_reason_id, name, value, probability, created_at, updated_at)
       select ?, (?::int[])[1 + g % 4],
              (select id from companies where account_id = ? order by id offset g % 20 limit 1),
              (select id from people where account_id = ? order by id offset g % 40 limit 1),
              (select id from deal_stages where account_id = ? order by id offset g % 3 limit 1),
              (select id from list_items where account_id = ? and kind = 'lead_source' order by id offset g % 3 limit 1),
              (select id from list_items where account_id = ? and kind = 'deal_loss_reason' order by id offset g % 3 limit 1),
              'Deal ' || lpad(g::text, 3, '0'), g * 10.5, 50, now(), now()
         from generate_series(1, 200) g`,
      [a, `{${users.join(',')}}`, a, a, a, a, a],
    );
    await sql(
      `insert into deal_people (deal_id, person_id) select d.id, p.id from deals d join people p on p.account_id = d.account_id and p.id % 7 = d.id % 7 where d.account_id = ?`,
      [a],
    );
    await sql(`insert into deal_collaborators (deal_id, user_id) select d.id, ? from deals d where d.account_id = ? and d.id % 3 = 0`, [users[1], a]);
    const other = await server.createAccount();
    await server.request('GET', '/api/v3/deals.json', { apiKey: other.admin.apiKey });
  }, 60_000);
  afterAll(() => server.close());

  const list = (perPage: number) =>
    countStatements(() => server.request('GET', '/api/v3/deals.json', { apiKey: account.admin.apiKey, query: { per_page: perPage } }));

  it('GET /deals.json?per_page=200 with every convenience object: a fixed count, whatever the page size', async () => {
    const large = await list(200);
    expect(large.result.status).toBe(200);
    expect(large.result.body.entries).toHaveLength(200);
    for (const d of large.result.body.entries) {
      expect(d.user.full_name).toEqual(expect.any(String));
      expect(d.company.name).toMatch(/^Co /);
      expect(d.primary_contact.last_name).toMatch(/^P /);
      expect(d.deal_stage.percent).toEqual(expect.any(Number));
      expect(d.source).toEqual({ id: expect.any(Number), name: expect.any(String) });
      expect(d.deal_loss_reason).toEqual({ id: expect.any(Number), name: expect.any(String) });
      expect(d.people.length).toBe(d.person_ids.length);
    }
    expect(large.result.body.entries.some((d: { collaborators: unknown[] }) => d.collaborators.length > 0)).toBe(true);
    const small = await list(5);
    expect(small.result.body.entries).toHaveLength(5);
    expect(large.statements.length).toBe(small.statements.length);
    expect(large.statements.length <= 12 ? 'at most 12' : large.statements).toBe('at most 12');
  });
});
