import { getNamedType, isEnumType, type GraphQLSchema } from 'graphql';
import { derivedListItemResource } from '../resources/list-item';
import { pascalCase, snakeCase } from '../../src/kit/v3/names';
import type { V3Resource } from '../resources/resource-spec';
import { listItems } from './admin.routes';
import type { RouteDeclaration } from './route-spec';

/**
 * DECISIONS (Admin surface): every admin list is served over v3. The nine lists the recordings
 * show have hand tables (resources/list-item.ts) and routes (admin.routes.ts), whose names the
 * recordings fix. A list the core declares later
 * (src/modules/lists/admin-lists.ts) gets its v3 face by convention, derived at boot from the
 * schema alone (the facade imports nothing of the core's modules): `/admin/<snake_case of its
 * query>` with the five routes of every admin list, root key its kind (`deal_priority`), the keys
 * of a positioned list (id, name, position, created_at, updated_at, and hex_color where its items
 * keep a colour), and its five operations derived as the hand lists' are (derived-operations.ts).
 */

/** The extension the core marks each list's query with (ADMIN_LIST_EXTENSION): its ListKind value and whether its items keep a colour. */
const ADMIN_LIST = 'adminList';

/** One admin list, as the schema shows it. */
export interface SchemaAdminList {
  /** The query of its items (`dealPriorities`). */
  readonly query: string;
  /** Its ListKind value (`DEAL_PRIORITY`). */
  readonly kind: string;
  readonly coloured: boolean;
}

/** The v3 face derived for the lists without a hand one. */
export interface DerivedAdminLists {
  readonly resources: readonly V3Resource[];
  readonly routes: readonly RouteDeclaration[];
  /** Their fragments, appended to the static documents (rest-facade/index.ts operationsSource); their operations derive as every route's do (derived-operations.ts). */
  readonly source: string;
}

/**
 * The admin lists in the schema: the queries returning ListItemConnection that the core marks with
 * their list (listItems, which takes the list as an argument, carries no mark), each checked
 * against the ListKind enum.
 */
export function adminListsIn(schema: GraphQLSchema): { lists: SchemaAdminList[]; problems: string[] } {
  const kinds = schema.getType('ListKind');
  const lists: SchemaAdminList[] = [];
  const problems: string[] = [];
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    if (getNamedType(field.type).name !== 'ListItemConnection') continue;
    const mark = field.extensions?.[ADMIN_LIST] as { kind?: unknown; coloured?: unknown } | undefined;
    if (!mark) continue;
    const kind = typeof mark.kind === 'string' ? mark.kind : '';
    if (!isEnumType(kinds) || !kinds.getValue(kind)) problems.push(`Query.${field.name}: lists ListKind.${kind || '?'}, which the ListKind enum does not have`);
    else lists.push({ query: field.name, kind, coloured: mark.coloured === true });
  }
  return { lists, problems };
}

/**
 * The derived v3 face of each list of the schema that no hand route lists (the hand routes name
 * their list's query as their result). A derived path or root key another route already has stops
 * the boot, naming both, as an unknown list kind does.
 */
export function deriveAdminLists(schema: GraphQLSchema, handRoutes: readonly RouteDeclaration[]): DerivedAdminLists {
  const { lists, problems } = adminListsIn(schema);
  const handQueries = new Set(handRoutes.filter((r) => r.kind === 'list' && r.resource.type === 'ListItem').map((r) => r.result));
  const paths = firstRoutes(handRoutes, (r) => r.path);
  const roots = firstRoutes(handRoutes, (r) => r.resource.root);
  const resources: V3Resource[] = [];
  const routes: RouteDeclaration[] = [];
  const source: string[] = [];
  for (const list of lists.filter((l) => !handQueries.has(l.query))) {
    const path = snakeCase(list.query);
    const root = list.kind.toLowerCase();
    const where = `ListKind.${list.kind} (Query.${list.query})`;
    const takenPath = paths.get(`/admin/${path}`);
    if (takenPath) problems.push(`${where}: derives the v3 path /admin/${path}, which ${takenPath} already serves`);
    const takenRoot = roots.get(root);
    if (takenRoot) problems.push(`${where}: derives the v3 root key ${root}, which ${takenRoot} already uses`);
    const resource = derivedListItemResource(root, `${pascalCase(root)}V3`, list.coloured);
    resources.push(resource);
    routes.push(...listItems(path, resource, list.query, list.kind));
    source.push(resource.fragmentSource);
  }
  if (problems.length > 0) throw new Error(`The v3 facade cannot derive these admin lists (src/modules/lists/admin-lists.ts):\n${problems.join('\n')}`);
  return { resources, routes, source: source.join('\n') };
}

/** The first route (`GET /admin/deal_stages`) of each path or root key, to name in a clash. */
function firstRoutes(routes: readonly RouteDeclaration[], key: (route: RouteDeclaration) => string): Map<string, string> {
  const first = new Map<string, string>();
  for (const r of routes) if (!first.has(key(r))) first.set(key(r), `${r.method} ${r.path}`);
  return first;
}
