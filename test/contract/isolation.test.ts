import { V3_ROUTES } from '../../rest-facade';
import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Tenancy and visibility on every route (issue 2 §6), driven by the route table itself: a route
 * added later without a factory here fails this suite, so no route escapes the check.
 */
type Factory = (server: TestServer, apiKey: string) => Promise<number>;

async function viaGraphQL(server: TestServer, apiKey: string, mutation: string, field: string): Promise<number> {
  const res = await server.graphql(apiKey, mutation);
  if (res.status !== 200 || res.body.errors) throw new Error(`${field} failed: ${res.text}`);
  return res.body.data[field].id;
}

/** Records owned by the key's user, per resource root key. */
const FACTORIES: Record<string, Factory> = {
  company: (s, key) => viaGraphQL(s, key, 'mutation { createCompany(input: {name: "Secret Co"}) { id } }', 'createCompany'),
  person: (s, key) => viaGraphQL(s, key, 'mutation { createPerson(input: {firstName: "Sec", lastName: "Ret"}) { id } }', 'createPerson'),
};

/** Resources that are not owned records (users of an account are visible to all its members). */
const ACCOUNT_WIDE = new Set(['user']);

function pathFor(path: string, id: number, parentId: number): string {
  return `/api/v3${path.replace(':id', String(id)).replace(/:[a-zA-Z]+/g, String(parentId))}.json`;
}

describe('isolation on every v3 route', () => {
  let server: TestServer;
  let a: TestAccount;
  let b: TestAccount;
  let ownUser: { id: number; apiKey: string };

  beforeAll(async () => {
    server = await startTestServer();
    a = await server.createAccount();
    b = await server.createAccount();
    ownUser = await a.addUser({ visibility: Visibility.OWN });
  }, 60_000);
  afterAll(() => server.close());

  const recordRoutes = V3_ROUTES.filter((r) => r.path.includes(':id') && ['show', 'update', 'delete'].includes(r.kind));

  it('has a factory for every resource with record routes', () => {
    const missing = recordRoutes.map((r) => r.resource.root).filter((root) => !FACTORIES[root] && !ACCOUNT_WIDE.has(root));
    expect([...new Set(missing)]).toEqual([]);
  });

  for (const route of recordRoutes) {
    const root = route.resource.root;
    if (ACCOUNT_WIDE.has(root)) continue;
    it(`${route.method} ${route.path}: another account's record is a 404, and an own user's view of a colleague's record too`, async () => {
      const factory = FACTORIES[root];
      const foreign = await factory(server, b.admin.apiKey);
      const colleagues = await factory(server, a.admin.apiKey);
      const body = route.kind === 'update' ? { [root]: { name: 'hijack', last_name: 'hijack' } } : undefined;
      for (const [key, id] of [
        [a.admin.apiKey, foreign],
        [ownUser.apiKey, colleagues],
      ] as const) {
        const res = await server.request(route.method, pathFor(route.path, id, id), { apiKey: key, body });
        expect({ status: res.status, text: res.text }).toEqual({ status: 404, text: route.errorShape === 'error-object' ? expect.any(String) : '' });
      }
      // Still there, unchanged, for its owner.
      const show = V3_ROUTES.find((r) => r.kind === 'show' && r.resource.root === root)!;
      const own = await server.request('GET', pathFor(show.path, foreign, foreign), { apiKey: b.admin.apiKey });
      expect(own.status).toBe(200);
      expect(own.text).not.toContain('hijack');
    });
  }

  const listRoutes = V3_ROUTES.filter((r) => r.kind === 'list');
  it('lists never show another account’s records, nor colleagues’ records to an own user', async () => {
    const planted: string[] = [];
    for (const root of Object.keys(FACTORIES)) {
      planted.push(`${root}:${await FACTORIES[root](server, b.admin.apiKey)}`);
      planted.push(`${root}:${await FACTORIES[root](server, a.admin.apiKey)}`);
    }
    for (const route of listRoutes) {
      for (const key of [a.admin.apiKey, ownUser.apiKey]) {
        const res = await server.request('GET', pathFor(route.path, 1, 1), { apiKey: key, query: { per_page: 100 } });
        if (res.status === 404) continue; // nested list under a parent this viewer cannot see
        expect(res.status).toBe(200);
        const ids = (res.body.entries as Array<{ id: number }>).map((e) => `${route.resource.root}:${e.id}`);
        const foreign = planted.filter((p, i) => i % 2 === 0);
        expect(ids.filter((id) => foreign.includes(id))).toEqual([]);
        if (key === ownUser.apiKey && !ACCOUNT_WIDE.has(route.resource.root)) {
          const colleagues = planted.filter((p, i) => i % 2 === 1);
          expect(ids.filter((id) => colleagues.includes(id))).toEqual([]);
        }
      }
    }
  });

  it('GraphQL applies the same rules', async () => {
    const foreign = await FACTORIES.company(server, b.admin.apiKey);
    const colleagues = await FACTORIES.company(server, a.admin.apiKey);
    for (const [key, id] of [
      [a.admin.apiKey, foreign],
      [ownUser.apiKey, colleagues],
    ] as const) {
      const show = await server.graphql(key, `{ company(id: ${id}) { id name } }`);
      expect(show.body.errors[0].extensions.code).toBe('NOT_FOUND');
      const update = await server.graphql(key, `mutation { updateCompany(id: ${id}, input: {name: "x"}) { id } }`);
      expect(update.body.errors[0].extensions.code).toBe('NOT_FOUND');
      const del = await server.graphql(key, `mutation { deleteCompany(id: ${id}) }`);
      expect(del.body.errors[0].extensions.code).toBe('NOT_FOUND');
      const list = await server.graphql(key, `{ companies(filter: {ids: [${id}]}) { entries { id } pagination { total } } }`);
      expect(list.body.data.companies).toEqual({ entries: [], pagination: { total: 0 } });
    }
    const person = await FACTORIES.person(server, b.admin.apiKey);
    const p = await server.graphql(a.admin.apiKey, `{ person(id: ${person}) { id } }`);
    expect(p.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('users of another account are not visible', async () => {
    const res = await server.request('GET', `/api/v3/users/${b.admin.id}.json`, { apiKey: a.admin.apiKey });
    expect(res.status).toBe(404);
    const list = await server.request('GET', '/api/v3/users.json', { apiKey: a.admin.apiKey });
    expect((list.body.entries as Array<{ id: number }>).map((u) => u.id)).not.toContain(b.admin.id);
  });
});
