import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { RouteSpec } from './route-spec';
import { sortTableFor } from './sort-table';

export interface CompiledRoute {
  readonly route: RouteSpec;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  /** v3 sort key → sort enum value, derived from the schema at boot; null: not sortable. */
  readonly sort: Readonly<Record<string, string>> | null;
}

export type RouteTable = readonly CompiledRoute[];

/** Matchers and sort tables, once at boot; the schema and the operations give the sort enums. */
export function compileRoutes(routes: readonly RouteSpec[], schema: GraphQLSchema, operations: DocumentNode): RouteTable {
  const seen = new Set<string>();
  return routes.map((route) => {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`Duplicate v3 route ${key}`);
    seen.add(key);
    const names: string[] = [];
    // A dot is a dot (`/calendar_entries.ics`), not any character.
    const source = route.path.replace(/\./g, '\\.').replace(/:([a-zA-Z]+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, pattern: new RegExp(`^${source}$`), names, sort: sortTableFor(route, schema, operations) };
  });
}

/**
 * DECISIONS: each route answers with or without `.json`, with a trailing slash and with doubled
 * slashes (the official JavaScript client omits the suffix).
 */
export function normalizePath(path: string): string {
  let p = path.replace(/\/{2,}/g, '/');
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  if (p.endsWith('.json')) p = p.slice(0, -5);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p || '/';
}

/** A malformed escape (`%E0%A4%A`) stays as sent: not an id, so a 404 like any bad id (never a 500). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function matchRoute(
  table: RouteTable,
  method: string,
  path: string,
): { route: RouteSpec; params: Record<string, string>; sort: CompiledRoute['sort'] } | null {
  const normalized = normalizePath(path);
  for (const compiled of table) {
    if (compiled.route.method !== method) continue;
    const m = compiled.pattern.exec(normalized);
    if (!m) continue;
    const params: Record<string, string> = {};
    compiled.names.forEach((name, i) => (params[name] = decodeSegment(m[i + 1])));
    return { route: compiled.route, params, sort: compiled.sort };
  }
  return null;
}
