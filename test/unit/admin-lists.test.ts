import 'reflect-metadata';
import { extendSchema, getNamedType, isEnumType, Kind, parse, validate, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { operationsSource, V3_ROUTES, v3Routes } from '../../rest-facade';
import { checkFacade } from '../../rest-facade/agreement';
import { v3Resources } from '../../rest-facade/resources';
import { compileRoutes } from '../../rest-facade/routes/match';
import { withOperation } from '../../rest-facade/routes/derived-operations';
import { adminListsIn, deriveAdminLists } from '../../rest-facade/routes/derived-admin-lists';
import { operationOf } from '../../rest-facade/routes/sort-table';
import { createSchema } from '../../src/app/schema';
import { ADMIN_LISTS, memberOf, type AdminListDeclaration } from '../../src/modules/lists/admin-lists';
import { COLOURED_LISTS, ListKind } from '../../src/modules/lists/list-item.entity';

/**
 * An admin list is one declaration (src/modules/lists/admin-lists.ts) and a migration (issue 23):
 * the declarations reach the schema and the v3 routes, and a list declared without a hand v3 table
 * gets its routes, table and operations derived from the schema at boot.
 */
const DECLARED: readonly AdminListDeclaration[] = ADMIN_LISTS;

describe('admin lists: one declaration each', () => {
  const schema = createSchema();
  const operations = parse(operationsSource(schema));

  /** The `kind:` an operation's root field names (`listItem(id: $id, kind: LEAD_STATUS)`). */
  const kindArgument = (op: string): string | undefined => {
    const root = (operationOf(operations, op) as OperationDefinitionNode).selectionSet.selections[0];
    const arg = root.kind === Kind.FIELD ? root.arguments?.find((a) => a.name.value === 'kind') : undefined;
    return arg?.value.kind === Kind.ENUM ? arg.value.value : undefined;
  };

  it('ListKind is the declared kinds, by their upper case, each described as declared', () => {
    expect(ListKind).toEqual(Object.fromEntries(DECLARED.map((l) => [memberOf(l.kind), l.kind])));
    const kinds = schema.getType('ListKind');
    expect(isEnumType(kinds) && kinds.getValues().map((v) => [v.name, v.value, v.description])).toEqual(DECLARED.map((l) => [memberOf(l.kind), l.kind, l.doc]));
    expect([...COLOURED_LISTS]).toEqual(DECLARED.filter((l) => l.coloured).map((l) => l.kind));
  });

  it.each(DECLARED.map((l) => [l.query, l] as const))('%s lists its items, marked with its kind for the facade', (_query, list) => {
    const field = schema.getQueryType()!.getFields()[list.query];
    expect(String(field.type)).toBe('ListItemConnection!');
    expect(field.args.map((a) => a.name).sort()).toEqual(['after', 'before', 'first', 'last', 'orderBy', 'page', 'perPage']);
    expect(field.description).toMatch(new RegExp(`^${(list.queryDoc ?? list.doc).replace(/[.()]/g, '\\$&')} Every user of the account may read it\\.`));
    expect(field.extensions).toMatchObject({ adminList: { kind: memberOf(list.kind), coloured: list.coloured === true } });
  });

  it('the facade reads exactly the declared lists from the schema', () => {
    expect(adminListsIn(schema)).toEqual({
      lists: expect.arrayContaining(DECLARED.map((l) => ({ query: l.query, kind: memberOf(l.kind), coloured: l.coloured === true }))),
      problems: [],
    });
    expect(adminListsIn(schema).lists).toHaveLength(DECLARED.length);
  });

  it.each(DECLARED.filter((l) => l.v3).map((l) => [l.v3!.path, l] as const))(
    '/admin/%s: the hand routes list its query, show and write its kind, under its root key',
    (path, list) => {
      const routes = V3_ROUTES.filter((r) => r.path === `/admin/${path}` || r.path === `/admin/${path}/:id`);
      expect(routes.map((r) => `${r.method} ${r.kind}`)).toEqual(['GET list', 'GET show', 'POST create', 'PUT update', 'DELETE delete']);
      expect(routes.find((r) => r.kind === 'list')!.result).toBe(list.query);
      for (const route of routes) {
        expect({ op: route.op, root: route.resource.root }).toEqual({ op: route.op, root: list.v3!.root });
        if (route.kind !== 'list') expect({ op: route.op, kind: kindArgument(route.op) }).toEqual({ op: route.op, kind: memberOf(list.kind) });
      }
    },
  );

  it('every hand list of ListItem is a declared list; a list declared without one is derived', () => {
    const declared = new Set(DECLARED.map((l) => l.query));
    const hand = V3_ROUTES.filter((r) => r.kind === 'list' && r.resource.type === 'ListItem').map((r) => r.result);
    expect(hand.filter((q) => !declared.has(q))).toEqual([]);
    const derived = v3Routes(schema).slice(V3_ROUTES.length);
    expect(derived.filter((r) => r.kind === 'list').map((r) => r.result)).toEqual(DECLARED.filter((l) => !l.v3).map((l) => l.query));
  });
});

describe('the v3 face of an admin list without a hand table, derived from the schema', () => {
  const base = createSchema();

  /** The schema with one more list, as the core would build it from one more declaration. */
  function withList(kind: string, query: string, mark: Record<string, unknown>): GraphQLSchema {
    const schema = extendSchema(
      base,
      parse(`
        extend enum ListKind { ${kind} }
        extend type Query { ${query}(after: String, before: String, first: Int, last: Int, page: Int, perPage: Int): ListItemConnection! }
      `),
    );
    // The core's mark, which SDL cannot write (ADMIN_LIST_EXTENSION in src/modules/lists/admin-lists.ts).
    schema.getQueryType()!.getFields()[query].extensions = { adminList: mark };
    return schema;
  }

  const schema = withList('PROJECT_PHASE', 'projectPhases', { kind: 'PROJECT_PHASE', coloured: false });
  const derived = deriveAdminLists(schema, V3_ROUTES);
  // The lists the core declares without a hand table are derived too (checked above): the extra list alone here.
  const phases = derived.routes.filter((r) => r.resource.root === 'project_phase').map(withOperation);
  const source = operationsSource(schema);
  const resourceOf = (lists: typeof derived) => lists.resources.find((r) => r.root === 'project_phase')!;

  it('serves /admin/<snake_case of the query> with the five routes of every admin list, root key the kind', () => {
    expect(phases.map((r) => [r.method, r.path, r.op, r.kind, r.result])).toEqual([
      ['GET', '/admin/project_phases', 'ListProjectPhases', 'list', 'projectPhases'],
      ['GET', '/admin/project_phases/:id', 'ShowProjectPhase', 'show', 'listItem'],
      ['POST', '/admin/project_phases', 'CreateProjectPhase', 'create', 'createListItem.listItem'],
      ['PUT', '/admin/project_phases/:id', 'UpdateProjectPhase', 'update', 'updateListItem.listItem'],
      ['DELETE', '/admin/project_phases/:id', 'DeleteProjectPhase', 'delete', 'deleteListItem'],
    ]);
    expect(phases[0]).toMatchObject({ paging: { default: 200, max: 200 }, errorShape: 'array' });
    expect(phases[4]).toMatchObject({ deleteBody: 'empty' });
    expect(new Set(phases.map((r) => r.resource))).toEqual(new Set([resourceOf(derived)]));
  });

  it('shows id, name, position and the timestamps; name and position are written, name required', () => {
    const resource = resourceOf(derived);
    expect(resource).toMatchObject({ root: 'project_phase', type: 'ListItem', fragment: 'ProjectPhaseV3', requiredOnCreate: ['name'] });
    expect(resource.keys).toEqual(['id', 'name', 'position', 'created_at', 'updated_at']);
    expect(Object.keys(resource.writable)).toEqual(['name', 'position']);
    expect(resource.fragmentSource).toBe('fragment ProjectPhaseV3 on ListItem { id: databaseId name position created_at: createdAt updated_at: updatedAt }');
  });

  it('derives the operations, which name the kind, validate against the schema and agree with the table', () => {
    expect(source).toContain('query ListProjectPhases($page: Int, $perPage: Int) { projectPhases(page: $page, perPage: $perPage) {');
    expect(source).toContain('query ShowProjectPhase($id: Int!) { listItem(id: $id, kind: PROJECT_PHASE) { ...ProjectPhaseV3 } }');
    expect(source).toContain('createListItem(input: $input, kind: PROJECT_PHASE)');
    expect(source).toContain('updateListItem(id: $id, input: $input, kind: PROJECT_PHASE)');
    expect(source).toContain('deleteListItem(id: $id, kind: PROJECT_PHASE)');
    const document = parse(source);
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
    const routes = v3Routes(schema);
    expect(routes.filter((r) => r.resource.root === 'project_phase')).toHaveLength(5);
    expect(checkFacade(schema, document, routes, v3Resources(schema))).toEqual([]);
    expect(() => compileRoutes(routes, schema, document)).not.toThrow();
  });

  it('a list whose items keep a colour shows hex_color after its name', () => {
    const coloured = deriveAdminLists(withList('PROJECT_PHASE', 'projectPhases', { kind: 'PROJECT_PHASE', coloured: true }), V3_ROUTES);
    expect(resourceOf(coloured).keys).toEqual(['id', 'name', 'hex_color', 'position', 'created_at', 'updated_at']);
    expect(Object.keys(resourceOf(coloured).writable)).toEqual(['name', 'hex_color', 'position']);
  });

  it('derives the lists declared without a hand table, and no hand list again', () => {
    const declared = DECLARED.filter((l) => !l.v3).map((l) => l.kind);
    expect(derived.resources.map((r) => r.root)).toEqual([...declared, 'project_phase']);
    expect(deriveAdminLists(base, V3_ROUTES).resources.map((r) => r.root)).toEqual(declared);
  });

  it('stops the boot on a mark the schema does not back, or a path or root key another route has, naming them', () => {
    expect(() => deriveAdminLists(withList('PROJECT_PHASE', 'projectPhases', { kind: 'PROJECT_PHASES' }), V3_ROUTES)).toThrow(
      'Query.projectPhases: lists ListKind.PROJECT_PHASES, which the ListKind enum does not have',
    );
    expect(() => deriveAdminLists(withList('DEAL_STAGE', 'dealStageNames', { kind: 'DEAL_STAGE' }), V3_ROUTES)).toThrow(
      'ListKind.DEAL_STAGE (Query.dealStageNames): derives the v3 root key deal_stage, which GET /admin/deal_stages already uses',
    );
    expect(() => deriveAdminLists(withList('PREDEFINED_TAG', 'predefinedContactsTags', { kind: 'PREDEFINED_TAG' }), V3_ROUTES)).toThrow(
      'ListKind.PREDEFINED_TAG (Query.predefinedContactsTags): derives the v3 path /admin/predefined_contacts_tags, which GET /admin/predefined_contacts_tags already serves',
    );
  });

  it('reads a list only from a query of ListItemConnection', () => {
    const other = extendSchema(base, parse('extend enum ListKind { PROJECT_PHASE } extend type Query { projectPhaseCount: Int }'));
    other.getQueryType()!.getFields().projectPhaseCount.extensions = { adminList: { kind: 'PROJECT_PHASE' } };
    expect(getNamedType(other.getQueryType()!.getFields().projectPhaseCount.type).name).toBe('Int');
    expect(adminListsIn(other).lists.map((l) => l.query)).not.toContain('projectPhaseCount');
  });
});
