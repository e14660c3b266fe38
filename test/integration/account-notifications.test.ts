import { Visibility } from '../../src/modules/users/user.entity';
import { fixtures } from '../support/fixtures';
import { formEncode, startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Account notifications (issue 12 §4; v3 §2.9, §3, §4.9; DECISIONS: Status codes and bodies,
 * States, Paging): every v3 route and its error shapes (400 {"error"} naming the parameter, 404
 * {"error"}, a delete answering the deleted notification), the read_at/seen rule, who sees and
 * changes which notification (its user; the account's admins), tenancy, and the GraphQL queries
 * and mutations. Nothing is written when the input is refused.
 */

/** v3 §2.9, in the spec's order. */
const KEYS = ['id', 'user_id', 'account_id', 'text', 'read_at', 'seen', 'created_at', 'updated_at', 'hide_popup'];
/** A v3 datetime in the account's zone (America/New_York: -0400 in summer, -0500 in winter). */
const V3_TIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} -0[45]00$/;

const NOTIFICATION = 'databaseId id userId accountId text readAt seen hidePopup createdAt updatedAt user { databaseId fullName }';
const CREATE = `mutation($input: AccountNotificationCreateInput!) { createAccountNotification(input: $input) { accountNotification { ${NOTIFICATION} } userErrors { field code message } } }`;
const UPDATE = `mutation($id: Int!, $input: AccountNotificationUpdateInput!) { updateAccountNotification(id: $id, input: $input) { accountNotification { ${NOTIFICATION} } userErrors { field code message } } }`;
const DELETE = `mutation($id: Int!) { deleteAccountNotification(id: $id) { deletedId deletedDatabaseId accountNotification { ${NOTIFICATION} } userErrors { field code message } } }`;

describe('account notifications', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: { id: number; apiKey: string };
  /** Not an admin, though they see every record of the account: still only their own notifications. */
  let member: { id: number; apiKey: string };
  /** Not an admin, sees only their own records. */
  let own: { id: number; apiKey: string };
  /** An admin whose own visibility is `own`: admins read the whole account's notifications anyway. */
  let adminOwn: { id: number; apiKey: string };
  let foreign: { accountId: number; admin: { id: number; apiKey: string } };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount({ timeZone: 'America/New_York' });
    admin = account.admin;
    member = await account.addUser({ isAdmin: false, visibility: Visibility.ALL });
    own = await account.addUser({ isAdmin: false, visibility: Visibility.OWN });
    adminOwn = await account.addUser({ isAdmin: true, visibility: Visibility.OWN });
    foreign = await server.createAccount();
  }, 60_000);
  afterAll(() => server.close());

  const v3 = (key: string) => server.v3(key);
  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.graphql(key, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  /** A notification for `userId` (the key's user when absent), made through GraphQL. */
  const notify = (key: string, attrs: Record<string, unknown> = {}) => fixtures.accountNotification(server, key, attrs);
  const row = async (id: number) =>
    (await server.sql('select user_id, account_id, text, read_at, seen, hide_popup, created_at, updated_at from account_notifications where id = ?', [id]))[0];
  const count = async () => Number((await server.sql('select count(*)::int as n from account_notifications where account_id = ?', [account.accountId]))[0].n);
  const ids = (res: { body: any }) => (res.body.entries as Array<{ id: number }>).map((e) => e.id);

  describe('POST /account_notifications.json', () => {
    it('creates an unread, unseen notification for the viewer and answers it whole, in the v3 §2.9 shape', async () => {
      const res = await v3(member.apiKey).post('/account_notifications.json', { account_notification: { text: 'Your export is ready', hide_popup: true } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(KEYS);
      expect(res.body).toEqual({
        id: expect.any(Number),
        user_id: member.id,
        account_id: account.accountId,
        text: 'Your export is ready',
        read_at: null,
        seen: false,
        created_at: expect.stringMatching(V3_TIME),
        updated_at: expect.stringMatching(V3_TIME),
        hide_popup: true,
      });
      expect(await row(res.body.id)).toMatchObject({
        user_id: member.id,
        account_id: account.accountId,
        text: 'Your export is ready',
        read_at: null,
        seen: false,
        hide_popup: true,
      });
    });

    it('accepts only text, user_id and hide_popup: read_at, seen, account_id, id and timestamps are ignored; hide_popup defaults to false', async () => {
      const res = await v3(member.apiKey).post('/account_notifications.json', {
        account_notification: {
          text: 'Only three',
          read_at: '2014-05-19 08:54',
          seen: true,
          account_id: foreign.accountId,
          id: 1,
          created_at: '2001-01-01 00:00',
          updated_at: '2001-01-01 00:00',
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user_id: member.id, account_id: account.accountId, text: 'Only three', read_at: null, seen: false, hide_popup: false });
      expect(res.body.id).not.toBe(1);
      expect(res.body.created_at.startsWith('2001')).toBe(false);
      expect(await row(res.body.id)).toMatchObject({ account_id: account.accountId, read_at: null, seen: false, hide_popup: false });
    });

    it('takes form parameters (account_notification[...]) and a user_id of any user of the account, whom it notifies', async () => {
      const body = formEncode({ account_notification: { text: 'For you', user_id: String(member.id), hide_popup: '0' } });
      const res = await server.request('POST', '/api/v3/account_notifications.json', { apiKey: own.apiKey, body });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user_id: member.id, text: 'For you', hide_popup: false });
      // It is the member's: they and the admins see it, its author (not an admin) does not.
      expect((await v3(member.apiKey).get(`/account_notifications/${res.body.id}.json`)).status).toBe(200);
      expect((await v3(admin.apiKey).get(`/account_notifications/${res.body.id}.json`)).status).toBe(200);
      expect((await v3(own.apiKey).get(`/account_notifications/${res.body.id}.json`)).status).toBe(404);
    });

    it('a blank user_id means the viewer; attributes at the top level of a JSON body are read too', async () => {
      const res = await v3(own.apiKey).post('/account_notifications.json', { text: 'Top level', user_id: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user_id: own.id, text: 'Top level' });
    });

    it('missing or bad parameters are a 400 {"error"} naming the parameter, and nothing is written', async () => {
      const before = await count();
      const cases: Array<[unknown, string]> = [
        [undefined, "Text can't be blank"],
        [{}, "Text can't be blank"],
        [{ account_notification: {} }, "Text can't be blank"],
        [{ account_notification: { text: '' } }, "Text can't be blank"],
        [{ account_notification: { text: '   ' } }, "Text can't be blank"],
        [{ account_notification: { text: null, hide_popup: true } }, "Text can't be blank"],
        [{ account_notification: { text: 'x'.repeat(5001) } }, 'Text is too long (maximum is 5000 characters)'],
        [{ account_notification: { text: 'Hi', user_id: foreign.admin.id } }, 'User does not exist'],
        [{ account_notification: { text: 'Hi', user_id: 2_000_000_000 } }, 'User does not exist'],
        [{ account_notification: { text: 'Hi', user_id: 'abc' } }, 'User must be an integer'],
        [{ account_notification: { text: 'Hi', hide_popup: 'maybe' } }, 'Hide popup must be true or false'],
        [{ account_notification: { text: { nested: true } } }, 'Text must be text, not an object'],
        [{ account_notification: 'text' }, 'Account notification must be an object of attributes'],
      ];
      for (const [body, error] of cases) {
        const res = await v3(admin.apiKey).post('/account_notifications.json', body);
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error } });
      }
      expect(await count()).toBe(before);
    });
  });

  describe('GET /account_notifications/:id.json', () => {
    it('shows a notification to its user and to every admin (whatever their visibility), in the v3 shape', async () => {
      const id = await notify(member.apiKey, { text: 'Shown' });
      for (const key of [member.apiKey, admin.apiKey, adminOwn.apiKey]) {
        const res = await v3(key).get(`/account_notifications/${id}.json`);
        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual(KEYS);
        expect(res.body).toMatchObject({ id, user_id: member.id, account_id: account.accountId, text: 'Shown', read_at: null, seen: false, hide_popup: false });
      }
    });

    it('a missing, malformed, colleague\'s (to a non-admin) or other account\'s notification is a 404 {"error"}', async () => {
      const colleagues = await notify(admin.apiKey);
      const foreigns = await notify(foreign.admin.apiKey);
      const cases: Array<[string, string | number]> = [
        [admin.apiKey, 2_000_000_000],
        [admin.apiKey, 'abc'],
        [admin.apiKey, 0],
        [member.apiKey, colleagues],
        [own.apiKey, colleagues],
        [admin.apiKey, foreigns],
      ];
      for (const [key, id] of cases) {
        const res = await v3(key).get(`/account_notifications/${id}.json`);
        expect({ id, status: res.status, error: typeof res.body?.error }).toEqual({ id, status: 404, error: 'string' });
      }
    });

    it('attrs=a,b answers only those keys', async () => {
      const id = await notify(member.apiKey);
      const res = await v3(member.apiKey).get(`/account_notifications/${id}.json`, { attrs: 'seen,text' });
      expect(Object.keys(res.body)).toEqual(['text', 'seen']);
    });
  });

  describe('GET /account_notifications.json', () => {
    let listing: TestAccount;
    let boss: string;
    let alice: { id: number; apiKey: string };
    let bob: { id: number; apiKey: string };
    const made: Record<string, number[]> = { boss: [], alice: [], bob: [] };

    beforeAll(async () => {
      listing = await server.createAccount();
      boss = listing.admin.apiKey;
      alice = await listing.addUser({ isAdmin: false, visibility: Visibility.ALL });
      bob = await listing.addUser({ isAdmin: false, visibility: Visibility.OWN });
      made.boss.push(await notify(boss));
      made.alice.push(await notify(alice.apiKey), await notify(alice.apiKey));
      made.bob.push(await notify(bob.apiKey));
      made.alice.push(await notify(boss, { userId: alice.id }));
      await notify(foreign.admin.apiKey);
    });

    it('a user lists their own notifications only, newest first, in the envelope (100 a page by default)', async () => {
      const res = await v3(alice.apiKey).get('/account_notifications.json');
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 100, total: 3, pages: 1, page_var: 'page' });
      expect(ids(res)).toEqual([...made.alice].reverse());
      for (const entry of res.body.entries) expect(Object.keys(entry)).toEqual(KEYS);
      expect(ids(await v3(bob.apiKey).get('/account_notifications.json'))).toEqual(made.bob);
    });

    it("an admin lists the whole account's, and narrows them with conditions[user_id] (or a plain user_id)", async () => {
      const all = await v3(boss).get('/account_notifications.json');
      expect(new Set(ids(all))).toEqual(new Set([...made.boss, ...made.alice, ...made.bob]));
      expect(all.body.pagination.total).toBe(5);
      expect(ids(await v3(boss).get('/account_notifications.json', { 'conditions[user_id]': alice.id }))).toEqual([...made.alice].reverse());
      expect(ids(await v3(boss).get('/account_notifications.json', { user_id: bob.id }))).toEqual(made.bob);
      expect(new Set(ids(await v3(boss).get('/account_notifications.json', { 'conditions[user_id]': `${bob.id},${listing.admin.id}` })))).toEqual(
        new Set([...made.bob, ...made.boss]),
      );
      // Another account's user has none here.
      expect(ids(await v3(boss).get('/account_notifications.json', { 'conditions[user_id]': foreign.admin.id }))).toEqual([]);
    });

    it("a user asking for a colleague's gets an empty list, not theirs", async () => {
      const res = await v3(alice.apiKey).get('/account_notifications.json', { 'conditions[user_id]': bob.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ entries: [], pagination: { page: 1, per_page: 100, total: 0, pages: 1, page_var: 'page' } });
    });

    it('pages: per_page clamped to 100, page past the end empty', async () => {
      expect((await v3(boss).get('/account_notifications.json', { per_page: 500 })).body.pagination.per_page).toBe(100);
      const second = await v3(boss).get('/account_notifications.json', { per_page: 2, page: 2 });
      expect(second.body.entries).toHaveLength(2);
      expect(second.body.pagination).toEqual({ page: 2, per_page: 2, total: 5, pages: 3, page_var: 'page' });
    });

    it('a malformed user_id condition is a 400 {"error"} naming it', async () => {
      const res = await v3(boss).get('/account_notifications.json', { 'conditions[user_id]': 'abc' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringMatching(/^Conditions\[user id\] must be an integer$/) });
      const plain = await v3(boss).get('/account_notifications.json', { user_id: '1.5' });
      expect(plain.status).toBe(400);
      expect(plain.body).toEqual({ error: 'User must be an integer' });
    });
  });

  describe('PUT /account_notifications/:id.json (v3 §3: read_at drives seen unless seen is given)', () => {
    const put = (key: string, id: number, body: unknown) => v3(key).put(`/account_notifications/${id}.json`, body);

    it('read_at set: read and seen; read_at null: unread and unseen', async () => {
      const id = await notify(member.apiKey, { text: 'Mark me' });
      const read = await put(member.apiKey, id, { account_notification: { read_at: '2014-05-19 08:54:59 -0400' } });
      expect(read.status).toBe(200);
      expect(Object.keys(read.body)).toEqual(KEYS);
      expect(read.body).toMatchObject({ id, user_id: member.id, text: 'Mark me', read_at: '2014/05/19 08:54:59 -0400', seen: true });
      expect(new Date((await row(id)).read_at).toISOString()).toBe('2014-05-19T12:54:59.000Z');
      const unread = await put(member.apiKey, id, { account_notification: { read_at: null } });
      expect(unread.status).toBe(200);
      expect(unread.body).toMatchObject({ read_at: null, seen: false });
      expect(await row(id)).toMatchObject({ read_at: null, seen: false });
    });

    it("a read_at without an offset is read in the viewer's zone; a form's empty read_at marks it unread", async () => {
      const id = await notify(member.apiKey);
      const read = await put(member.apiKey, id, { account_notification: { read_at: '2014-12-01 09:30' } });
      expect(read.body).toMatchObject({ read_at: '2014/12/01 09:30:00 -0500', seen: true });
      const body = formEncode({ account_notification: { read_at: '' } });
      const unread = await server.request('PUT', `/api/v3/account_notifications/${id}.json`, { apiKey: member.apiKey, body });
      expect(unread.status).toBe(200);
      expect(unread.body).toMatchObject({ read_at: null, seen: false });
    });

    it('seen, when given, wins over what read_at implies', async () => {
      const id = await notify(member.apiKey);
      expect((await put(member.apiKey, id, { account_notification: { read_at: '2014-05-19 08:54', seen: false } })).body).toMatchObject({
        read_at: '2014/05/19 08:54:00 -0400',
        seen: false,
      });
      expect((await put(member.apiKey, id, { account_notification: { read_at: null, seen: 'true' } })).body).toMatchObject({ read_at: null, seen: true });
      // A blank seen is not given: read_at decides again.
      expect((await put(member.apiKey, id, { account_notification: { read_at: '2014-05-20 10:00', seen: '' } })).body).toMatchObject({ seen: true });
    });

    it('accepts only read_at and seen: text, user_id, hide_popup and the rest are ignored; updated_at moves', async () => {
      const id = await notify(member.apiKey, { text: 'Keep me', hidePopup: true });
      const before = await row(id);
      const res = await put(member.apiKey, id, {
        account_notification: {
          read_at: '2014-05-19 08:54',
          text: 'changed',
          user_id: own.id,
          hide_popup: false,
          account_id: foreign.accountId,
          created_at: '2001-01-01',
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ text: 'Keep me', user_id: member.id, hide_popup: true, account_id: account.accountId, seen: true });
      const after = await row(id);
      expect(after).toMatchObject({ text: 'Keep me', user_id: member.id, hide_popup: true, account_id: account.accountId });
      expect(after.created_at).toEqual(before.created_at);
      expect(new Date(after.updated_at).getTime()).toBeGreaterThan(new Date(before.updated_at).getTime());
    });

    it('without read_at, or with a bad one, is a 400 {"error"} naming it, and nothing changes', async () => {
      const id = await notify(member.apiKey);
      const before = await row(id);
      const cases: Array<[unknown, RegExp]> = [
        [undefined, /^Read at is required/],
        [{}, /^Read at is required/],
        [{ account_notification: {} }, /^Read at is required/],
        [{ account_notification: { seen: true } }, /^Read at is required/],
        [{ account_notification: { text: 'only text' } }, /^Read at is required/],
        [{ account_notification: { read_at: 'yesterday' } }, /^Read at /],
        [{ account_notification: { read_at: '2014-13-45' } }, /^Read at /],
        [{ account_notification: { read_at: '2014-05-19', seen: 'perhaps' } }, /^Seen must be true or false$/],
        [{ account_notification: 'read' }, /^Account notification must be an object of attributes$/],
      ];
      for (const [body, error] of cases) {
        const res = await put(member.apiKey, id, body);
        expect({ body, status: res.status, error: res.body?.error }).toEqual({ body, status: 400, error: expect.stringMatching(error) });
      }
      expect(await row(id)).toEqual(before);
    });

    it('a missing record is a 404 {"error"} before any parameter is checked', async () => {
      for (const body of [{ account_notification: { read_at: '2014-05-19' } }, { account_notification: {} }]) {
        const res = await put(member.apiKey, 2_000_000_000, body);
        expect({ status: res.status, error: typeof res.body?.error }).toEqual({ status: 404, error: 'string' });
      }
    });

    it("a user cannot mark a colleague's (404, unchanged); an admin marks anyone's in the account; another account's is a 404", async () => {
      const admins = await notify(admin.apiKey);
      for (const key of [member.apiKey, own.apiKey]) {
        const res = await put(key, admins, { account_notification: { read_at: '2014-05-19 08:54' } });
        expect({ status: res.status, error: typeof res.body?.error }).toEqual({ status: 404, error: 'string' });
      }
      expect(await row(admins)).toMatchObject({ read_at: null, seen: false });
      const members = await notify(member.apiKey);
      const byAdmin = await put(adminOwn.apiKey, members, { account_notification: { read_at: '2014-05-19 08:54' } });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body).toMatchObject({ id: members, user_id: member.id, seen: true });
      const foreigns = await notify(foreign.admin.apiKey);
      expect((await put(admin.apiKey, foreigns, { account_notification: { read_at: '2014-05-19 08:54' } })).status).toBe(404);
      expect(await row(foreigns)).toMatchObject({ read_at: null, seen: false });
    });
  });

  describe('DELETE /account_notifications/:id.json', () => {
    it('answers 200 with the deleted notification as it was; it is gone afterwards (404 {"error"})', async () => {
      const id = await notify(member.apiKey, { text: 'Bye', hidePopup: true });
      await v3(member.apiKey).put(`/account_notifications/${id}.json`, { account_notification: { read_at: '2014-05-19 08:54' } });
      const shown = (await v3(member.apiKey).get(`/account_notifications/${id}.json`)).body;
      const res = await v3(member.apiKey).del(`/account_notifications/${id}.json`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(KEYS);
      expect(res.body).toEqual(shown);
      expect(res.body).toMatchObject({ id, text: 'Bye', read_at: '2014/05/19 08:54:00 -0400', seen: true, hide_popup: true });
      expect(await row(id)).toBeUndefined();
      for (const again of [
        await v3(member.apiKey).get(`/account_notifications/${id}.json`),
        await v3(member.apiKey).del(`/account_notifications/${id}.json`),
      ]) {
        expect({ status: again.status, error: typeof again.body?.error }).toEqual({ status: 404, error: 'string' });
      }
    });

    it("a user cannot delete a colleague's (404, still there); an admin deletes anyone's in the account; another account's is a 404", async () => {
      const admins = await notify(admin.apiKey);
      const res = await v3(member.apiKey).del(`/account_notifications/${admins}.json`);
      expect({ status: res.status, error: typeof res.body?.error }).toEqual({ status: 404, error: 'string' });
      expect(await row(admins)).toBeDefined();
      const members = await notify(member.apiKey);
      const byAdmin = await v3(admin.apiKey).del(`/account_notifications/${members}.json`);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body).toMatchObject({ id: members, user_id: member.id });
      expect(await row(members)).toBeUndefined();
      const foreigns = await notify(foreign.admin.apiKey);
      expect((await v3(admin.apiKey).del(`/account_notifications/${foreigns}.json`)).status).toBe(404);
      expect(await row(foreigns)).toBeDefined();
    });
  });

  describe('GraphQL', () => {
    it('creates for the viewer or a user of the account, with the user relation', async () => {
      const { createAccountNotification: mine } = await gql(own.apiKey, CREATE, { input: { text: 'GraphQL hello' } });
      expect(mine.userErrors).toEqual([]);
      expect(mine.accountNotification).toEqual({
        databaseId: expect.any(Number),
        id: expect.any(String),
        userId: own.id,
        accountId: account.accountId,
        text: 'GraphQL hello',
        readAt: null,
        seen: false,
        hidePopup: false,
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
        user: { databaseId: own.id, fullName: 'Uma User' },
      });
      const { createAccountNotification: theirs } = await gql(own.apiKey, CREATE, { input: { text: 'For the member', userId: member.id, hidePopup: true } });
      expect(theirs.accountNotification).toMatchObject({ userId: member.id, hidePopup: true, user: { databaseId: member.id } });
    });

    it('refuses a blank text, a long one or a user of another account with userErrors, and writes nothing', async () => {
      const before = await count();
      const cases: Array<[Record<string, unknown>, unknown[]]> = [
        [{ text: '' }, [{ field: ['input', 'text'], code: 'BLANK', message: "can't be blank" }]],
        [{ text: ' \u0000 ' }, [{ field: ['input', 'text'], code: 'BLANK', message: "can't be blank" }]],
        [{ text: 'y'.repeat(5001) }, [{ field: ['input', 'text'], code: 'TOO_LONG', message: 'is too long (maximum is 5000 characters)' }]],
        [{ text: 'Hi', userId: foreign.admin.id }, [{ field: ['input', 'userId'], code: 'NOT_FOUND', message: 'does not exist' }]],
        [
          { text: '', userId: -4 },
          [
            { field: ['input', 'text'], code: 'BLANK', message: "can't be blank" },
            { field: ['input', 'userId'], code: 'NOT_FOUND', message: 'does not exist' },
          ],
        ],
      ];
      for (const [input, userErrors] of cases) {
        const { createAccountNotification } = await gql(admin.apiKey, CREATE, { input });
        expect({ input, ...createAccountNotification }).toEqual({ input, accountNotification: null, userErrors });
      }
      expect(await count()).toBe(before);
    });

    it('accountNotifications filters by userId, seen, readAt and text, orders, and counts, within what the viewer may see', async () => {
      const team = await server.createAccount();
      const carol = await team.addUser({ isAdmin: false });
      const a = await notify(team.admin.apiKey, { text: 'alpha' });
      const b = await notify(carol.apiKey, { text: 'beta' });
      const c = await notify(team.admin.apiKey, { text: 'gamma', userId: carol.id });
      await gql(carol.apiKey, UPDATE, { id: b, input: { readAt: '2014-05-19T12:00:00Z' } });
      const list = async (key: string, args: string) =>
        (await gql(key, `{ accountNotifications${args} { nodes { databaseId } totalCount } }`)).accountNotifications;
      const byIds = (nodes: Array<{ databaseId: number }>) => nodes.map((n) => n.databaseId);

      expect(await list(team.admin.apiKey, '')).toEqual({ nodes: [{ databaseId: c }, { databaseId: b }, { databaseId: a }], totalCount: 3 });
      expect(await list(carol.apiKey, '')).toEqual({ nodes: [{ databaseId: c }, { databaseId: b }], totalCount: 2 });
      expect(byIds((await list(team.admin.apiKey, `(filter: {userId: {eq: ${carol.id}}})`)).nodes)).toEqual([c, b]);
      expect(byIds((await list(team.admin.apiKey, '(filter: {seen: {eq: true}})')).nodes)).toEqual([b]);
      expect(byIds((await list(team.admin.apiKey, '(filter: {readAt: {isNull: true}})')).nodes)).toEqual([c, a]);
      expect(byIds((await list(team.admin.apiKey, '(filter: {or: [{text: {contains: "ALP"}}, {text: {eq: "gamma"}}]})')).nodes)).toEqual([c, a]);
      expect(byIds((await list(team.admin.apiKey, '(orderBy: [{field: ID, direction: ASC}])')).nodes)).toEqual([a, b, c]);
      expect(byIds((await list(team.admin.apiKey, '(orderBy: [{field: READ_AT, direction: ASC}, {field: ID, direction: DESC}])')).nodes)).toEqual([b, c, a]);
      // A colleague's, asked for by a user: none.
      expect(await list(carol.apiKey, `(filter: {userId: {eq: ${team.admin.id}}})`)).toEqual({ nodes: [], totalCount: 0 });
      // Cursors page through the same order.
      const first = (await gql(team.admin.apiKey, '{ accountNotifications(first: 2) { nodes { databaseId } pageInfo { hasNextPage endCursor } } }'))
        .accountNotifications;
      expect(byIds(first.nodes)).toEqual([c, b]);
      const next = (
        await gql(
          team.admin.apiKey,
          `{ accountNotifications(first: 2, after: ${JSON.stringify(first.pageInfo.endCursor)}) { nodes { databaseId } pageInfo { hasNextPage } } }`,
        )
      ).accountNotifications;
      expect(next).toEqual({ nodes: [{ databaseId: a }], pageInfo: { hasNextPage: false } });
    });

    it('accountNotification(id:) and node(id:) are null for what the viewer may not see', async () => {
      const members = await notify(member.apiKey);
      const foreigns = await notify(foreign.admin.apiKey);
      const query = `query($a: Int!, $b: Int!) { mine: accountNotification(id: $a) { databaseId } foreign: accountNotification(id: $b) { databaseId } }`;
      expect(await gql(member.apiKey, query, { a: members, b: foreigns })).toEqual({ mine: { databaseId: members }, foreign: null });
      expect(await gql(own.apiKey, query, { a: members, b: foreigns })).toEqual({ mine: null, foreign: null });
      expect(await gql(adminOwn.apiKey, query, { a: members, b: foreigns })).toEqual({ mine: { databaseId: members }, foreign: null });
      const { accountNotification } = await gql(member.apiKey, `{ accountNotification(id: ${members}) { id } }`);
      const node = `query($id: ID!) { node(id: $id) { ... on AccountNotification { databaseId } } }`;
      expect(await gql(admin.apiKey, node, { id: accountNotification.id })).toEqual({ node: { databaseId: members } });
      expect(await gql(own.apiKey, node, { id: accountNotification.id })).toEqual({ node: null });
    });

    it('updateAccountNotification: readAt drives seen unless given; readAt left out is a BLANK user error; a hidden one NOT_FOUND', async () => {
      const id = await notify(member.apiKey);
      const update = async (key: string, input: Record<string, unknown>, target = id) =>
        (await gql(key, UPDATE, { id: target, input })).updateAccountNotification;
      expect((await update(member.apiKey, { readAt: '2014-05-19T12:00:00Z' })).accountNotification).toMatchObject({
        readAt: '2014-05-19T12:00:00.000Z',
        seen: true,
      });
      expect((await update(member.apiKey, { readAt: '2014-05-19T12:00:00Z', seen: false })).accountNotification).toMatchObject({ seen: false });
      expect((await update(member.apiKey, { readAt: null })).accountNotification).toMatchObject({ readAt: null, seen: false });
      expect((await update(member.apiKey, { readAt: null, seen: true })).accountNotification).toMatchObject({ readAt: null, seen: true });
      const before = await row(id);
      expect(await update(member.apiKey, { seen: false })).toEqual({
        accountNotification: null,
        userErrors: [{ field: ['input', 'readAt'], code: 'BLANK', message: 'is required (a time marks the notification read, null marks it unread)' }],
      });
      expect(await update(member.apiKey, { readAt: '0000-01-01T00:00:00Z' })).toMatchObject({
        accountNotification: null,
        userErrors: [{ field: ['input', 'readAt'], code: 'OUT_OF_RANGE' }],
      });
      expect(await row(id)).toEqual(before);
      expect(await update(own.apiKey, { readAt: null })).toEqual({
        accountNotification: null,
        userErrors: [{ field: ['id'], code: 'NOT_FOUND', message: expect.any(String) }],
      });
      expect(await update(admin.apiKey, { readAt: '2014-05-19T12:00:00Z' })).toMatchObject({
        accountNotification: { databaseId: id, seen: true },
        userErrors: [],
      });
    });

    it('deleteAccountNotification answers the deleted notification and its ids; a hidden one is a NOT_FOUND user error', async () => {
      const id = await notify(member.apiKey, { text: 'Delete me' });
      const hidden = await gql(own.apiKey, DELETE, { id });
      expect(hidden.deleteAccountNotification).toEqual({
        deletedId: null,
        deletedDatabaseId: null,
        accountNotification: null,
        userErrors: [{ field: ['id'], code: 'NOT_FOUND', message: expect.any(String) }],
      });
      const { accountNotification: shown } = await gql(member.apiKey, `{ accountNotification(id: ${id}) { ${NOTIFICATION} } }`);
      const { deleteAccountNotification } = await gql(member.apiKey, DELETE, { id });
      expect(deleteAccountNotification).toEqual({ deletedId: shown.id, deletedDatabaseId: id, accountNotification: shown, userErrors: [] });
      expect(await row(id)).toBeUndefined();
    });
  });
});
