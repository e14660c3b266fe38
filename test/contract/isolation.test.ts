import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { Visibility } from '../../src/modules/users/user.entity';
import { FIXTURES, fixtures, listedIds, missingFixtures, parentRoute, routePath, sampleRoute } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { SERVED_ROUTES } from '../support/v3-routes';

/**
 * Tenancy and visibility on every route (issue 2 §6), driven by the route table itself, with the
 * records (and, for nested lists, a real parent) made by the shared fixtures: a route added later
 * without a fixture fails this suite, so no route escapes the check.
 *
 * Who sees what: a record of another account, never; an owned record (companies, people), its
 * owner, the account's admins whatever their own visibility, and `all` users; account-wide
 * records (users, admin lists), every member of the account.
 */

interface Member {
  readonly name: string;
  readonly apiKey: string;
  readonly account: 'a' | 'b';
  readonly seesEverything: boolean;
  readonly isAdmin: boolean;
}

/** Two accounts: in A an admin, an `own` user and an admin whose visibility is `own`; in B an admin. */
async function world(server: TestServer): Promise<{ admin: Member; own: Member; adminOwn: Member; foreign: Member }> {
  const a = await server.createAccount();
  const b = await server.createAccount();
  const own = await a.addUser({ visibility: Visibility.OWN });
  const adminOwn = await a.addUser({ visibility: Visibility.OWN, isAdmin: true });
  return {
    admin: { name: 'admin', apiKey: a.admin.apiKey, account: 'a', seesEverything: true, isAdmin: true },
    own: { name: 'own user', apiKey: own.apiKey, account: 'a', seesEverything: false, isAdmin: false },
    adminOwn: { name: 'admin with own visibility', apiKey: adminOwn.apiKey, account: 'a', seesEverything: true, isAdmin: true },
    foreign: { name: 'other account admin', apiKey: b.admin.apiKey, account: 'b', seesEverything: true, isAdmin: true },
  };
}

/** Whether `viewer` may see a record of `root` made by `creator`. */
function visible(viewer: Member, creator: Member, root: string): boolean {
  if (viewer.account !== creator.account) return false;
  return !FIXTURES[root].owned || viewer.seesEverything || viewer === creator;
}

/** Members who can create records of `root` (admin lists are written by admins only). */
function creatorsOf(w: Awaited<ReturnType<typeof world>>, route: RouteSpec): Member[] {
  const parent = parentRoute(route, SERVED_ROUTES);
  const owned = FIXTURES[route.resource.root].owned || (parent !== null && FIXTURES[parent.resource.root].owned);
  return owned ? [w.admin, w.own, w.foreign] : [w.admin, w.foreign];
}

const viewersOf = (w: Awaited<ReturnType<typeof world>>) => [w.admin, w.own, w.adminOwn];

/**
 * DECISIONS (Admin surface): account-wide records (admin lists) are written by admins only; any
 * other user's write is a 403, whatever the record (so it tells nothing of other accounts).
 */
const forbidden = (viewer: Member, route: RouteSpec) =>
  (route.kind !== 'show' || FIXTURES[route.resource.root].adminsOnly === true) && !FIXTURES[route.resource.root].owned && !viewer.isAdmin;

describe('isolation on every v3 route', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.close());

  it('has a fixture for every route (a nested route: for its parent and its children too)', () => {
    expect(missingFixtures(SERVED_ROUTES)).toEqual([]);
  });

  const recordRoutes = SERVED_ROUTES.filter((r) => r.path.includes(':id') && ['show', 'update', 'delete'].includes(r.kind));
  for (const route of recordRoutes) {
    const root = route.resource.root;
    it(`${route.method} ${route.path}: another account's record is a 404, a colleague's too for an own user; admins see it whatever their visibility`, async () => {
      const w = await world(server);
      // A new value per attempt: admin list names are unique in their list.
      let attempt = 0;
      // `read_at`: v3 §4.9 requires it of a notification's update (every other resource ignores it).
      const body = () => (route.kind === 'update' ? { [root]: { name: `hijack ${++attempt}`, last_name: 'hijack', read_at: '2014-05-19 08:54' } } : undefined);
      const show = SERVED_ROUTES.find((r) => r.kind === 'show' && r.resource.root === root)!;
      const outcomes: string[] = [];
      const expected: string[] = [];
      for (const creator of creatorsOf(w, route)) {
        for (const viewer of viewersOf(w)) {
          // A fresh record per pair: a visible delete removes it.
          const { id } = await sampleRoute(server, creator.apiKey, route, SERVED_ROUTES);
          const res = await server.request(route.method, routePath(route, id), { apiKey: viewer.apiKey, body: body() });
          const label = `${viewer.name} on ${creator.name}'s record`;
          const sees = visible(viewer, creator, root) && !forbidden(viewer, route);
          // DECISIONS (Status codes and bodies): account notifications answer 404 {"error"} (`error-object`).
          const missing = route.errorShape === 'error-object' ? '404 {error}' : '404 (empty)';
          expected.push(`${label}: ${forbidden(viewer, route) ? '403 {error}' : sees ? 200 : missing}`);
          outcomes.push(
            `${label}: ${res.status}${res.status === 404 && res.text === '' ? ' (empty)' : ''}${(res.status === 403 || res.status === 404) && typeof res.body?.error === 'string' ? ' {error}' : ''}`,
          );
          if (sees && route.kind === 'show') expect(res.body.id).toBe(id);
          if (!sees) {
            // Still there, unchanged, for its creator.
            const own = await server.request('GET', routePath(show, id), { apiKey: creator.apiKey });
            expect(own.status).toBe(200);
            expect(own.text).not.toContain('hijack');
          }
        }
      }
      expect(outcomes).toEqual(expected);
    });
  }

  for (const route of SERVED_ROUTES.filter((r) => r.kind === 'list')) {
    const root = route.resource.root;
    // A comment list's parent is its note (`/notes/:noteId/comments`, the association id ignored).
    const parent =
      parentRoute(route, SERVED_ROUTES) ??
      (route.path.includes(':noteId') ? (SERVED_ROUTES.find((r) => r.kind === 'show' && r.path === '/notes/:id') ?? null) : null);
    it(`GET ${route.path}: lists only what the viewer may see${parent ? ', under a parent the viewer may see (else 404)' : ''}`, async () => {
      const w = await world(server);
      const samples = await Promise.all(
        creatorsOf(w, route).map(async (creator) => ({ creator, ...(await sampleRoute(server, creator.apiKey, route, SERVED_ROUTES)) })),
      );
      const outcomes: string[] = [];
      const expected: string[] = [];
      for (const viewer of viewersOf(w)) {
        for (const sample of samples) {
          const label = `${viewer.name} on ${sample.creator.name}'s ${root}`;
          const res = await server.request('GET', sample.path, { apiKey: viewer.apiKey, query: route.paging ? { per_page: route.paging.max } : {} });
          if (parent && !visible(viewer, sample.creator, parent.resource.root)) {
            expected.push(`${label}: 404 (empty)`);
            outcomes.push(`${label}: ${res.status}${res.status === 404 && res.text === '' ? ' (empty)' : ''}`);
            continue;
          }
          // Records only administrators read (webhook endpoints): anyone else's list is a 403.
          if (FIXTURES[root].adminsOnly && !viewer.isAdmin) {
            expected.push(`${label}: 403`);
            outcomes.push(`${label}: ${res.status}`);
            continue;
          }
          const ids = res.status === 200 ? listedIds(route, res) : [];
          expected.push(`${label}: 200 ${visible(viewer, sample.creator, root) ? 'listed' : 'not listed'}`);
          outcomes.push(`${label}: ${res.status} ${ids.includes(sample.id) ? 'listed' : 'not listed'}`);
          // Never anything of the other account, whatever the path.
          const foreign = samples.filter((s) => s.creator.account !== viewer.account).map((s) => s.id);
          expect(ids.filter((id) => foreign.includes(id))).toEqual([]);
        }
      }
      expect(outcomes).toEqual(expected);
    });
  }

  it('GraphQL applies the same rules, admins with own visibility included', async () => {
    const w = await world(server);
    for (const creator of [w.admin, w.own, w.foreign]) {
      for (const viewer of viewersOf(w)) {
        const sees = visible(viewer, creator, 'company');
        const company = await fixtures.company(server, creator.apiKey);
        const person = await fixtures.person(server, creator.apiKey);
        // A record the viewer may not see is null on lookup and a NOT_FOUND user error on writes.
        const show = await server.graphql(viewer.apiKey, `{ company(id: ${company}) { databaseId } person(id: ${person}) { databaseId } }`);
        expect(show.body.data).toEqual(sees ? { company: { databaseId: company }, person: { databaseId: person } } : { company: null, person: null });
        const list = await server.graphql(
          viewer.apiKey,
          `{ companies(filter: {databaseId: {in: [${company}]}}) { nodes { databaseId } totalCount } people(filter: {databaseId: {in: [${person}]}}) { nodes { databaseId } } }`,
        );
        expect(list.body.data).toEqual(
          sees
            ? { companies: { nodes: [{ databaseId: company }], totalCount: 1 }, people: { nodes: [{ databaseId: person }] } }
            : { companies: { nodes: [], totalCount: 0 }, people: { nodes: [] } },
        );
        const update = await server.graphql(
          viewer.apiKey,
          `mutation { updateCompany(id: ${company}, input: {name: "x"}) { company { databaseId } userErrors { field code } } }`,
        );
        expect(update.body.data.updateCompany).toEqual(
          sees ? { company: { databaseId: company }, userErrors: [] } : { company: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] },
        );
        for (const [field, id] of [
          ['deleteCompany', company],
          ['deletePerson', person],
        ] as const) {
          const del = await server.graphql(viewer.apiKey, `mutation { ${field}(id: ${id}) { deletedDatabaseId userErrors { field code } } }`);
          expect(del.body.data[field]).toEqual(
            sees ? { deletedDatabaseId: id, userErrors: [] } : { deletedDatabaseId: null, userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] },
          );
        }
      }
    }
  });

  it('users of another account are not visible', async () => {
    const a = await server.createAccount();
    const b = await server.createAccount();
    const res = await server.request('GET', `/api/v3/users/${b.admin.id}.json`, { apiKey: a.admin.apiKey });
    expect(res.status).toBe(404);
    const list = await server.request('GET', '/api/v3/users.json', { apiKey: a.admin.apiKey });
    expect((list.body.entries as Array<{ id: number }>).map((u) => u.id)).not.toContain(b.admin.id);
  });
});
