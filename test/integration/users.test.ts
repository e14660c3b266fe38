import { hashKey } from '../../src/common/keys';
import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * v3 §4.11 users and profile: the shape this service answers (the spec shows none); issue 22 §4
 * adds the recorded account_id, avatar_thumb_url and is_account_admin (never the recorded api_key).
 */
const USER_KEYS = [
  'id',
  'account_id',
  'first_name',
  'last_name',
  'full_name',
  'email',
  'avatar_thumb_url',
  'time_zone',
  'is_admin',
  'is_account_admin',
  'visibility',
  'created_at',
  'updated_at',
];
const V3_DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;
const offsetOf = (v3: string) => v3.slice(-5);

describe('users, profile and account (v3 §4.11; DECISIONS: GET /account.json)', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: string;
  let member: { id: number; apiKey: string };
  /** Every response text seen, checked for credentials at the end. */
  const seen: TestResponse[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York' });
    admin = account.admin.apiKey;
    member = await account.addUser({ firstName: 'Mia', lastName: 'Member', timeZone: 'Europe/Berlin', visibility: Visibility.OWN, isAdmin: false });
  }, 60_000);
  afterAll(() => server.close());

  const get = async (key: string, path: string, query?: Record<string, string | number>) => {
    const res = await server.request('GET', `/api/v3${path}`, { apiKey: key, query });
    seen.push(res);
    return res;
  };
  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.graphql(key, query, variables);
    seen.push(res);
    return res.body;
  };

  describe('GET /users.json', () => {
    it('lists the users of the account in the v3 envelope, 100 a page by default', async () => {
      const res = await get(admin, '/users.json');
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 100, total: 2, pages: 1, page_var: 'page' });
      expect(res.body.entries.map((u: any) => u.id)).toEqual([account.admin.id, member.id]);
      for (const u of res.body.entries) expect(Object.keys(u)).toEqual(USER_KEYS);
      const [a, m] = res.body.entries;
      expect(a).toMatchObject({ first_name: 'Ada', is_admin: true, visibility: 'all', email: expect.stringMatching(/^admin-/) });
      expect(a.full_name).toBe(`${a.first_name} ${a.last_name}`);
      expect(m).toEqual({
        id: member.id,
        account_id: account.accountId,
        first_name: 'Mia',
        last_name: 'Member',
        full_name: 'Mia Member',
        email: expect.stringMatching(/@example\.test$/),
        avatar_thumb_url: null,
        time_zone: 'Europe/Berlin',
        is_admin: false,
        is_account_admin: false,
        visibility: 'own',
        created_at: expect.stringMatching(V3_DATETIME),
        updated_at: expect.stringMatching(V3_DATETIME),
      });
    });

    it("time_zone is the user's own, else the account's", async () => {
      const res = await get(member.apiKey, '/users');
      const zones = Object.fromEntries(res.body.entries.map((u: any) => [u.id, u.time_zone]));
      expect(zones).toEqual({ [account.admin.id]: 'America/New_York', [member.id]: 'Europe/Berlin' });
    });

    it("datetimes are v3 datetimes in the viewer's zone", async () => {
      const asAdmin = await get(admin, '/users.json');
      for (const u of asAdmin.body.entries) {
        expect(u.created_at).toMatch(V3_DATETIME);
        expect(['-0500', '-0400']).toContain(offsetOf(u.created_at));
        expect(['-0500', '-0400']).toContain(offsetOf(u.updated_at));
      }
      const asMember = await get(member.apiKey, '/users.json');
      for (const u of asMember.body.entries) expect(['+0100', '+0200']).toContain(offsetOf(u.created_at));

      // The same instant, shown in two zones.
      const [{ created_at: utc }] = await server.orm.em.fork().getConnection().execute('select created_at from users where id = ?', [account.admin.id]);
      const expected = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'America/New_York',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).formatToParts(new Date(utc));
      const part = (t: string) => expected.find((p) => p.type === t)!.value;
      expect(asAdmin.body.entries[0].created_at.slice(0, 19)).toBe(
        `${part('year')}/${part('month')}/${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`,
      );
    });

    it('pages: per_page above 100 is clamped to 100', async () => {
      const one = await get(admin, '/users.json', { per_page: 1, page: 2 });
      expect(one.body.pagination).toEqual({ page: 2, per_page: 1, total: 2, pages: 2, page_var: 'page' });
      expect(one.body.entries.map((u: any) => u.id)).toEqual([member.id]);
      const clamped = await get(admin, '/users.json', { per_page: 250 });
      expect(clamped.body.pagination.per_page).toBe(100);
    });

    it('attrs selects keys', async () => {
      const res = await get(admin, '/users.json', { attrs: 'id,email' });
      for (const u of res.body.entries) expect(Object.keys(u).sort()).toEqual(['email', 'id']);
    });
  });

  describe('GET /users/:id.json', () => {
    it('shows a user of the account', async () => {
      const res = await get(member.apiKey, `/users/${account.admin.id}.json`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(USER_KEYS);
      expect(res.body).toMatchObject({ id: account.admin.id, is_admin: true, time_zone: 'America/New_York' });
      expect(['+0100', '+0200']).toContain(offsetOf(res.body.created_at));
    });

    it('a user of another account, a missing id or a malformed id is 404 with an empty body', async () => {
      const other = await server.createAccount();
      for (const path of [`/users/${other.admin.id}.json`, '/users/2147483647.json', '/users/abc.json', '/users/0']) {
        const res = await get(admin, path);
        expect({ path, status: res.status, text: res.text }).toEqual({ path, status: 404, text: '' });
      }
      // ...and the other way round.
      expect((await get(other.admin.apiKey, `/users/${member.id}`)).status).toBe(404);
    });
  });

  describe('GET /profile.json', () => {
    it('is the viewer, in the users shape', async () => {
      const asMember = await get(member.apiKey, '/profile.json');
      expect(asMember.status).toBe(200);
      expect(Object.keys(asMember.body)).toEqual(USER_KEYS);
      expect(asMember.body).toMatchObject({ id: member.id, full_name: 'Mia Member', time_zone: 'Europe/Berlin', visibility: 'own', is_admin: false });

      const asAdmin = await get(admin, '/profile');
      expect(asAdmin.body).toMatchObject({ id: account.admin.id, time_zone: 'America/New_York', is_admin: true });
      expect(['-0500', '-0400']).toContain(offsetOf(asAdmin.body.created_at));
    });

    it('accepts the path variants and attrs; needs a key', async () => {
      for (const path of ['/profile/', '//profile.json']) expect((await get(admin, path)).body.id).toBe(account.admin.id);
      expect((await get(admin, '/profile.json', { attrs: 'id,time_zone' })).body).toEqual({ id: account.admin.id, time_zone: 'America/New_York' });
      const anonymous = await server.request('GET', '/api/v3/profile.json');
      expect({ status: anonymous.status, body: anonymous.body }).toEqual({ status: 401, body: { error: 'Unknown api_key' } });
    });
  });

  describe('GET /account.json', () => {
    it("is the viewer's account: id, name, currency, time_zone", async () => {
      for (const key of [admin, member.apiKey]) {
        const res = await get(key, '/account.json');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          id: account.accountId,
          name: expect.stringMatching(/^Account /),
          currency: { code: 'USD', name: 'US Dollar', symbol: '$' },
          time_zone: 'America/New_York',
        });
      }
      const euro = await server.createAccount({ currency: 'EUR' });
      const res = await get(euro.admin.apiKey, '/account');
      expect(res.body).toMatchObject({ id: euro.accountId, currency: { code: 'EUR', name: 'Euro', symbol: '€' }, time_zone: 'UTC' });
    });
  });

  describe('credentials', () => {
    it('the GraphQL User type has no key, hash or password field', async () => {
      const body = await gql(admin, '{ user: __type(name: "User") { fields { name } } account: __type(name: "Account") { fields { name } } }');
      const userFields = body.data.user.fields.map((f: any) => f.name);
      expect(userFields).toEqual(expect.arrayContaining(['id', 'email', 'fullName', 'timeZone', 'isAdmin', 'visibility']));
      for (const name of [...userFields, ...body.data.account.fields.map((f: any) => f.name)]) expect(name).not.toMatch(/key|hash|password|secret|token/i);
    });

    it('GraphQL users, user and viewer answer without credentials', async () => {
      const body = await gql(
        member.apiKey,
        'query($id: Int!) { users { nodes { id: databaseId timeZone } totalCount } user(id: $id) { id: databaseId email } viewer { id: databaseId timeZone } account { id: databaseId timeZone currency { code } } }',
        { id: account.admin.id },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data.viewer).toEqual({ id: member.id, timeZone: 'Europe/Berlin' });
      expect(body.data.users.nodes).toEqual([
        { id: account.admin.id, timeZone: 'America/New_York' },
        { id: member.id, timeZone: 'Europe/Berlin' },
      ]);
      expect(body.data.account).toEqual({ id: account.accountId, timeZone: 'America/New_York', currency: { code: 'USD' } });
    });

    it('no response above carries an api key or its hash', () => {
      expect(seen.length).toBeGreaterThan(15);
      const secrets = [admin, member.apiKey, hashKey(admin), hashKey(member.apiKey)];
      for (const res of seen) {
        for (const secret of secrets) expect(res.text).not.toContain(secret);
        expect(res.text).not.toMatch(/api_?key|key_?hash|password/i);
      }
    });
  });
});
