import { openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/**
 * DECISIONS (Conditions the spec leaves unshown): `user_id` is a plain owner filter, as a query
 * parameter (`/people.json?user_id=1`: the older official Ruby client's `user.people`) and inside
 * conditions (`conditions[user_id]=1`).
 */
describe('people: user_id owner filter', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let mine: number;
  let theirs: number;
  let otherUser: number;

  beforeAll(async () => {
    ({ server, account, key } = await openServerWithAccount());
    const other = await account.addUser();
    otherUser = other.id;
    const v3 = server.v3(key);
    mine = (await v3.post('/people.json', { person: { last_name: 'Mine' } })).body.id;
    theirs = (await v3.post('/people.json', { person: { last_name: 'Theirs', user_id: other.id } })).body.id;
  });
  afterAll(() => server.close());

  const ids = (body: any) => body.entries.map((p: { id: number }) => p.id).sort();

  it('narrows the list to the owner given as a plain query parameter', async () => {
    const v3 = server.v3(key);
    expect(ids((await v3.get('/people.json', { user_id: account.admin.id })).body)).toEqual([mine]);
    expect(ids((await v3.get('/people.json', { user_id: otherUser })).body)).toEqual([theirs]);
    expect(ids((await v3.get('/people.json')).body)).toEqual([mine, theirs].sort());
  });

  it('narrows the list inside conditions as well', async () => {
    const res = await server.v3(key).get('/people.json', { 'conditions[user_id]': otherUser });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([theirs]);
  });

  it('names a malformed owner id', async () => {
    const res = await server.v3(key).get('/people.json', { user_id: 'abc' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual([expect.objectContaining({ field: 'user_id' })]);
  });
});
