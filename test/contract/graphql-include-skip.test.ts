import { openServerWithAccount, type TestServer } from '../support/test-server';

/**
 * Documents using @include/@skip run on graphql-js instead of graphql-jit (which mishandles a
 * fragment spread twice, once conditionally): their fields are kept or dropped as the variables say.
 */
describe('@include and @skip on /graphql', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    ({ server, key } = await openServerWithAccount());
    await server.v3(key).post('/companies.json', { company: { name: 'Acme' } });
    await server.v3(key).post('/people.json', { person: { last_name: 'Included', company_name: 'Acme' } });
  }, 60_000);
  afterAll(() => server.close());

  it('@include and @skip with variables work on /graphql', async () => {
    const query = `query($x: Boolean!, $y: Boolean = false) {
      people { nodes { lastName company @include(if: $x) { name } owner @skip(if: $x) { databaseId } ...P @include(if: $y) } }
      account @skip(if: $y) { databaseId }
    } fragment P on Person { tags { id } }`;
    const shown = await server.graphql(key, query, { x: true });
    expect(shown.status).toBe(200);
    expect(shown.body.errors).toBeUndefined();
    expect(shown.body.data.people.nodes).toEqual([{ lastName: 'Included', company: { name: 'Acme' } }]);
    expect(shown.body.data.account).toEqual({ databaseId: expect.any(Number) });
    const hidden = await server.graphql(key, query, { x: false, y: true });
    expect(hidden.body.errors).toBeUndefined();
    expect(hidden.body.data).toEqual({ people: { nodes: [{ lastName: 'Included', owner: { databaseId: expect.any(Number) }, tags: [] }] } });
    // A fragment spread twice, once conditionally: its fields stay (graphql-jit alone dropped them).
    const twice = await server.graphql(key, 'query($x: Boolean!) { people { nodes { ...N @include(if: $x) ...N } } } fragment N on Person { lastName }', {
      x: false,
    });
    expect(twice.body).toEqual({ data: { people: { nodes: [{ lastName: 'Included' }] } }, extensions: { cost: expect.objectContaining({ requested: 1 }) } });
  });
});
