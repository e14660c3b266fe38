import type { GraphQLSchema } from 'graphql';
import { FACADE_MODULES } from '../modules';
import { deriveAdminLists, type DerivedAdminLists } from './derived-admin-lists';
import type { RouteSpec } from './route-spec';

/** THE ROUTE TABLE: one entry per v3 route, from the facade's modules (rest-facade/modules.ts). */
export const V3_ROUTES: readonly RouteSpec[] = FACADE_MODULES.flatMap((m) => m.routes);

const derived = new WeakMap<GraphQLSchema, DerivedAdminLists>();

/**
 * The admin lists the core declares without a v3 table here, derived from the schema
 * (derived-admin-lists.ts): once per schema, so that routes, resources and operations share
 * the same resource objects.
 */
export function adminListsOf(schema: GraphQLSchema): DerivedAdminLists {
  let lists = derived.get(schema);
  if (!lists) derived.set(schema, (lists = deriveAdminLists(schema, V3_ROUTES)));
  return lists;
}

/** Every v3 route the facade serves on this schema: the table's, then those derived at boot. */
export function v3Routes(schema: GraphQLSchema): readonly RouteSpec[] {
  return [...V3_ROUTES, ...adminListsOf(schema).routes];
}
