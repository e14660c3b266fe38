import { seedCustomField } from '../support/custom-fields';
import { countStatements } from '../support/sql-counter';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * House style §6: a list of 100 records with all convenience objects costs a handful of queries,
 * whatever the page size (counted at the driver, see support/sql-counter).
 */

describe('SQL statements per v3 list request', () => {
  let server: TestServer;
  let account: TestAccount;
  let userIds: number[];

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York' });
    userIds = [account.admin.id];
    for (let i = 0; i < 4; i++) userIds.push((await account.addUser({ firstName: `Owner${i}`, lastName: 'Count' })).id);
    const em = server.orm.em.fork();
    const text = await seedCustomField(server, account.accountId, 'company', 'text', 'Code');
    const tier = await seedCustomField(server, account.accountId, 'company', 'dropdown', 'Tier', ['A', 'B']);
    const tags = await seedCustomField(server, account.accountId, 'company', 'multi_select', 'Tags', ['x', 'y']);
    await seedCustomField(server, account.accountId, 'person', 'text', 'Not for companies');
    await em.getConnection().execute(
      `insert into companies (account_id, owner_id, name, city, custom_fields, created_at, updated_at)
       select ?, (?::int[])[1 + g % 5], 'Counted ' || lpad(g::text, 3, '0'), 'City ' || g,
              jsonb_build_object(?::text, 'code-' || g, ?::text, (?::int[])[1 + g % 2], ?::text, jsonb_build_array(?::int)), now(), now()
         from generate_series(1, 100) g`,
      [account.accountId, `{${userIds.join(',')}}`, text.label, tier.label, `{${tier.entries.join(',')}}`, tags.label, tags.entries[0]],
    );
    // Warm the server on another account, so one-time work (pools, metadata) is not what is measured.
    const other = await server.createAccount();
    await server.request('GET', '/api/v3/companies.json', { apiKey: other.admin.apiKey });
  }, 60_000);
  afterAll(() => server.close());

  it('GET /api/v3/companies.json?per_page=100 with 100 companies of 5 owners costs at most 6 statements', async () => {
    const { result: res, statements } = await countStatements(() =>
      server.request('GET', '/api/v3/companies.json', { apiKey: account.admin.apiKey, query: { per_page: 100 } }),
    );

    // The response really carries what the statements had to fetch.
    expect(res.status).toBe(200);
    expect(res.body.entries).toHaveLength(100);
    expect(res.body.pagination).toEqual(expect.objectContaining({ total: 100, per_page: 100 }));
    expect(new Set(res.body.entries.map((c: any) => c.owner.id))).toEqual(new Set(userIds));
    for (const c of res.body.entries) {
      expect(c.owner.full_name).toEqual(expect.any(String));
      expect(Object.keys(c.custom_fields)).toHaveLength(3);
      expect(c.possible_notify_user_ids.length).toBeGreaterThan(0);
    }

    // The counter saw the request's own statements (auth and the list itself)...
    expect(statements.some((s) => /from "companies"/.test(s) && /\blimit\b/i.test(s))).toBe(true);
    expect(statements.some((s) => /api_key_hash/.test(s))).toBe(true);
    // ...each string is one statement...
    for (const s of statements) expect(s.replace(/;\s*$/, '')).not.toMatch(/;\s*\S/);
    // ...and there are few of them (on failure the statements are shown).
    expect(statements.length <= 6 ? 'at most 6' : statements).toBe('at most 6');
  });

  it('the count does not grow with the page size', async () => {
    const small = await countStatements(() => server.request('GET', '/api/v3/companies.json', { apiKey: account.admin.apiKey, query: { per_page: 5 } }));
    const large = await countStatements(() => server.request('GET', '/api/v3/companies.json', { apiKey: account.admin.apiKey, query: { per_page: 100 } }));
    expect(small.result.body.entries).toHaveLength(5);
    expect(large.result.body.entries).toHaveLength(100);
    expect(large.statements.length).toBe(small.statements.length);
  });
});
