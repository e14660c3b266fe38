import { createContext } from '../../src/context/context';
import { tableOf } from '../../src/db/list-query';
import { Company } from '../../src/modules/companies/company.entity';
import { User } from '../../src/modules/users/user.entity';
import { accountUsers } from '../../src/modules/users/user.loaders';
import { viewerForUser } from '../../src/modules/users/user.viewer';
import { openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/** The generic by-id loader: one statement per batch, tenancy inside, settled values, no credentials. */
describe('per-context loaders', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    ({ server, account } = await openServerWithAccount());
  }, 60_000);
  afterAll(() => server.close());

  async function context() {
    return createContext(server.orm, (await viewerForUser(server.orm.em.fork(), account.admin.id))!, 'loaders-test');
  }

  it('never selects the key hash: columns come from the metadata without hidden or lazy ones', async () => {
    const ctx = await context();
    const { table, columns, accountColumn } = tableOf(ctx.em, User);
    expect(table).toBe('users');
    expect(accountColumn).toBe('account_id');
    expect(columns).toEqual(expect.arrayContaining(['"id"', '"email"', '"visibility"']));
    expect(columns.join(' ')).not.toMatch(/api_key_hash/);
    const users = await accountUsers(ctx).all.load();
    expect(users.get(account.admin.id)!.apiKeyHash).toBeUndefined();
  });

  it('loads a batch in one statement, in key order, scoped to the account, and answers settled ones synchronously', async () => {
    const key = account.admin.apiKey;
    const a = (await server.v3(key).post('/companies.json', { company: { name: 'Loader A' } })).body.id;
    const b = (await server.v3(key).post('/companies.json', { company: { name: 'Loader B' } })).body.id;
    const elsewhere = await server.createAccount();
    const foreign = (await server.v3(elsewhere.admin.apiKey).post('/companies.json', { company: { name: 'Foreign' } })).body.id;

    const ctx = await context();
    const loader = ctx.loaders.byId(Company);
    expect(ctx.loaders.byId(Company)).toBe(loader);
    expect(loader.settled(a)).toBeUndefined();
    const connection = ctx.em.getConnection() as unknown as { executeQuery: (...args: unknown[]) => Promise<unknown> };
    const spy = jest.spyOn(connection, 'executeQuery');
    try {
      const [one, two, other, many] = await Promise.all([loader.load(b), loader.load(a), loader.load(foreign), loader.loadMany([a, foreign, b])]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect([one?.name, two?.name, other]).toEqual(['Loader B', 'Loader A', null]);
      expect(many.map((c) => c.name)).toEqual(['Loader A', 'Loader B']);
    } finally {
      spy.mockRestore();
    }
    expect(loader.settled(a)?.name).toBe('Loader A');
    expect(loader.settled(foreign)).toBeNull();
    expect(loader.settled(null)).toBeNull();
    expect(loader.settledMany([b, foreign])?.map((c) => c.id)).toEqual([b]);
    // A write clears what was cached.
    ctx.loaders.clear();
    expect(loader.settled(a)).toBeUndefined();
  });
});
