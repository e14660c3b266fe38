import { getNamedType, isObjectType } from 'graphql';
import { ChangeModel } from '../../src/modules/changes/change.types';
import { createSchema } from '../../src/app/schema';
import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { FIXTURES, sampleRoute, updateInputFor } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { SERVED_ROUTES } from '../support/v3-routes';

/**
 * No write path escapes the change records (issue 24 §1): every v3 write route of the route table
 * and every create, update and delete mutation of the schema whose record is tracked writes
 * exactly one change row for its record, with its action and origin, in its transaction. Both
 * lists come from the route table and the schema: a resource added later is covered by adding
 * nothing (its model in ChangeModel and its fixture).
 */

const MODELS = new Set<string>(Object.values(ChangeModel));
/** `CalendarEntry` → `calendar_entry`. */
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const ACTION = { create: 'create', update: 'update', delete: 'destroy' } as const;

const schema = createSchema();
const writeRoutes = SERVED_ROUTES.filter((r) => (r.kind === 'create' || r.kind === 'update' || r.kind === 'delete') && MODELS.has(snake(r.resource.type)));

/** The tracked mutations of the schema: `createDeal`, `updateDeal`, `deleteDeal`... of a ChangeModel's type. */
const mutations = Object.keys(schema.getMutationType()!.getFields())
  .map((name) => /^(create|update|delete)([A-Z]\w*)$/.exec(name))
  .filter((m): m is RegExpExecArray => m !== null && MODELS.has(snake(m[2])))
  .map((m) => ({ name: m[0], verb: m[1] as keyof typeof ACTION, type: m[2], model: snake(m[2]) }));

describe('every write records exactly its change', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  const newest = async () => Number((await server.sql('select coalesce(max(id), 0)::int as id from record_changes'))[0].id);
  const since = (after: number) =>
    server.sql<{ model: string; action: string; record_id: number; origin: string }>(
      'select model, action, record_id, origin from record_changes where id > ? order by id',
      [after],
    );

  it('covers every tracked resource', () => {
    expect(new Set(writeRoutes.map((r) => snake(r.resource.type)))).toEqual(new Set([...MODELS]));
    expect(new Set(mutations.map((m) => m.model))).toEqual(new Set([...MODELS]));
  });

  describe.each(writeRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_, route: RouteSpec) => {
    it('writes one change row for its record, with its action, from v3', async () => {
      const sample = await sampleRoute(server, key, route, SERVED_ROUTES);
      const attrs = FIXTURES[route.resource.root].v3Attrs;
      const body = route.kind === 'create' || route.kind === 'update' ? { [route.resource.root]: attrs ? attrs() : {} } : undefined;
      const before = await newest();
      const res = await server.request(route.method, sample.path, { apiKey: key, body });
      expect(res.status).toBe(200);
      const id = route.kind === 'create' ? (res.body.id as number) : sample.id;
      const model = snake(route.resource.type);
      const rows = await since(before);
      expect(rows.filter((r) => r.model === model && r.record_id === id)).toEqual([
        { model, action: ACTION[route.kind as keyof typeof ACTION], record_id: id, origin: 'v3' },
      ]);
      // Whatever else the write did for the user (a company made from company_name, a series' entries) is recorded as the same request's.
      expect(rows.filter((r) => r.origin !== 'v3')).toEqual([]);
    });
  });

  describe.each(mutations.map((m) => [m.name, m] as const))('%s', (_, mutation) => {
    it('writes one change row for its record, with its action, from GraphQL', async () => {
      const fixture = FIXTURES[mutation.model];
      expect(fixture).toBeDefined();
      let id: number;
      const before = await newest();
      if (mutation.verb === 'create') id = await fixture.create(server, key);
      else {
        id = await fixture.create(server, key);
        const after = await newest();
        const field = schema.getMutationType()!.getFields()[mutation.name];
        const payload = getNamedType(field.type);
        const selection = isObjectType(payload) && payload.getFields().userErrors ? '{ userErrors { field message } }' : '';
        const args = field.args.some((a) => a.name === 'input') ? `(id: ${id}, input: $input)` : `(id: ${id})`;
        const res = await server.graphql(
          key,
          `mutation${args.includes('$input') ? `($input: ${mutation.type}UpdateInput!)` : ''} { ${mutation.name}${args} ${selection} }`,
          {
            input: updateInputFor(schema, mutation.name),
          },
        );
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data[mutation.name].userErrors ?? []).toEqual([]);
        const rows = (await since(after)).filter((r) => r.model === mutation.model && r.record_id === id);
        expect(rows).toEqual([{ model: mutation.model, action: ACTION[mutation.verb], record_id: id, origin: 'graphql' }]);
        return;
      }
      const rows = (await since(before)).filter((r) => r.model === mutation.model && r.record_id === id);
      expect(rows).toEqual([{ model: mutation.model, action: 'create', record_id: id, origin: 'graphql' }]);
    });
  });
});
