import type { GraphQLSchema } from 'graphql';
import { FACADE_MODULES } from '../modules';
import { deriveAdminLists, type DerivedAdminLists } from './derived-admin-lists';
import { withOperation } from './derived-operations';
import type { RouteDeclaration, RouteSpec } from './route-spec';

/** THE ROUTE TABLE, as the facade's modules declare it (rest-facade/modules.ts): one entry per v3 route, `op` only where written by hand. */
export const V3_ROUTE_DECLARATIONS: readonly RouteDeclaration[] = FACADE_MODULES.flatMap((m) => m.routes);

/** The route table, each route with the name of its operation (routes/derived-operations.ts). */
export const V3_ROUTES: readonly RouteSpec[] = V3_ROUTE_DECLARATIONS.map(withOperation);

const derived = new WeakMap<GraphQLSchema, DerivedAdminLists>();

/**
 * The admin lists the core declares without a v3 table here, derived from the schema
 * (derived-admin-lists.ts): once per schema, so that routes, resources and operations share
 * the same resource objects.
 */
export function adminListsOf(schema: GraphQLSchema): DerivedAdminLists {
  let lists = derived.get(schema);
  if (!lists) derived.set(schema, (lists = deriveAdminLists(schema, V3_ROUTE_DECLARATIONS)));
  return lists;
}

/** Every v3 route the facade serves on this schema, as declared: the table's, then those derived at boot. */
export function v3RouteDeclarations(schema: GraphQLSchema): readonly RouteDeclaration[] {
  return [...V3_ROUTE_DECLARATIONS, ...adminListsOf(schema).routes];
}

const served = new WeakMap<GraphQLSchema, readonly RouteSpec[]>();

/** Every v3 route the facade serves on this schema, each with the name of its operation. */
export function v3Routes(schema: GraphQLSchema): readonly RouteSpec[] {
  let routes = served.get(schema);
  if (!routes) served.set(schema, (routes = [...V3_ROUTES, ...adminListsOf(schema).routes.map(withOperation)]));
  return routes;
}
