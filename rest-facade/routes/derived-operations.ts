import { getNamedType, isNonNullType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { pascalCase } from '../../src/kit/v3/names';
import type { RouteDeclaration, RouteSpec } from './route-spec';

/**
 * v3 routes run GraphQL operations. A route of the usual shape needs none written: its operation is
 * derived from the route and the schema by convention, the way the admin lists' are. A route with
 * a quirk (a show with `associations`, a list with totals, notes with their comments) names its
 * own operation, written in operations/*.graphql, as `op`.
 *
 * - name: `List<Path>` (`ListCompanies`) for a list, `<Parent><Path>` (`CompanyDeals`) for a list
 *   nested under a parent, `Show<Path>` (`ShowProfile`) for a singleton, `<Kind><Root>`
 *   (`ShowCompany`, `DeleteLeadStatus`) for the others;
 * - root field: the first segment of `result`, on Query for a list or a show, on Mutation otherwise;
 * - variables: the root field's arguments the pipeline can fill: `id` and the path's other
 *   parameters, `filter` when the route filters, `orderBy` when it sorts, `page`, `perPage`, `searchId` when
 *   the route takes it, `input`, the flags' first segments (`options`), and every required argument;
 *   `args` passes enum values (`kind: LEAD_STATUS`);
 * - selection: the resource's fragment, under `nodes` with `totalCount` for a list, under the
 *   payload's field (`createCompany.company`) with `userErrors` for a mutation; a delete whose
 *   result is its payload selects the ids it names (`deletedDatabaseId`, `affectedDatabaseIds`) and `userErrors`;
 * - a nested list also reads its parent (`parent: company(id: $id) { databaseId }`), so that a
 *   parent the viewer cannot see answers 404: the parent is the path filter's field without its
 *   `Id`/`Ids` (`companyId` → `company`).
 */

const KIND_VERB: Readonly<Record<Exclude<RouteSpec['kind'], 'list' | 'feed' | 'singleton'>, string>> = {
  show: 'Show',
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
};

/** The static segments of a path (`/companies/:id/deals` → companies, deals). */
const staticSegments = (path: string) => path.split('/').filter((s) => s && !s.startsWith(':'));

/** The parent a nested list reads, from its path filter: `{id: 'companyId'}` → `{param: 'id', query: 'company'}`. */
function parentOf(route: RouteDeclaration): { param: string; query: string } | null {
  const [entry] = Object.entries(route.pathFilters ?? {});
  return entry ? { param: entry[0], query: entry[1].replace(/Ids?$/, '') } : null;
}

/** The name of the operation a route runs: the one it names, else the derived one. */
export function operationName(route: RouteDeclaration): string {
  if (route.op) return route.op;
  if (route.kind === 'list' || route.kind === 'feed') {
    const last = staticSegments(route.path).at(-1) ?? '';
    const parent = parentOf(route);
    return `${parent ? pascalCase(parent.query) : 'List'}${pascalCase(last)}`;
  }
  // A singleton is named by its path (`/profile` → ShowProfile): it shows a resource others show too.
  if (route.kind === 'singleton') return `Show${pascalCase(staticSegments(route.path).at(-1) ?? '')}`;
  return `${KIND_VERB[route.kind]}${pascalCase(route.resource.root)}`;
}

/** The route with the name of its operation. */
export const withOperation = (route: RouteDeclaration): RouteSpec => (route.op ? (route as RouteSpec) : { ...route, op: operationName(route) });

/** What the pipeline can put in a route's variables (rest-facade/pipeline.ts `variablesFor`), by argument name. */
function fillable(route: RouteDeclaration): Set<string> {
  const names = new Set<string>(route.path.match(/:([a-zA-Z]+)/g)?.map((p) => p.slice(1)) ?? []);
  for (const spec of Object.values(route.flags ?? {})) names.add(spec.to.split('.')[0]);
  if (route.kind === 'list') {
    for (const name of ['page', 'perPage']) names.add(name);
    if (route.sort) names.add('orderBy');
    if (route.conditions || route.queryFilters || route.pathFilters) names.add('filter');
    if (route.searchId) names.add('searchId');
  }
  if (route.kind === 'create' || route.kind === 'update') names.add('input');
  // A versioned record's update and delete: the version a matching If-Match names.
  if (route.kind === 'update' || route.kind === 'delete') names.add('expectedVersion');
  return names;
}

/** The variables and arguments of a root field for a route: `($id: Int!)` and `(id: $id, kind: LEAD_STATUS)`. */
function argumentsOf(route: RouteDeclaration, field: GraphQLField<unknown, unknown>): { variables: string[]; args: string[] } {
  const can = fillable(route);
  const variables: string[] = [];
  const args: string[] = [];
  // In the order of their names, as the schema prints them (the runtime schema keeps declaration order).
  for (const arg of [...field.args].sort((a, b) => a.name.localeCompare(b.name))) {
    const fixed = route.args?.[arg.name];
    if (fixed !== undefined) {
      args.push(`${arg.name}: ${fixed}`);
      continue;
    }
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    if (!required && !can.has(arg.name)) continue;
    // A non-null argument with a default takes a nullable variable (left out, the default holds).
    const type = isNonNullType(arg.type) && !required ? String(arg.type.ofType) : String(arg.type);
    variables.push(`$${arg.name}: ${type}`);
    args.push(`${arg.name}: $${arg.name}`);
  }
  return { variables, args };
}

const list = (items: readonly string[]) => (items.length > 0 ? `(${items.join(', ')})` : '');

/** The derived operation of a route, as text; or the problem that stops it. */
export function deriveOperation(schema: GraphQLSchema, route: RouteDeclaration, name: string): { source: string } | { problem: string } {
  const where = `${route.method} ${route.path}`;
  const [rootName, payloadKey, ...rest] = route.result.split('.');
  if (route.kind === 'feed') return { problem: `${where}: a feed names its own operation (op)` };
  const reads = route.kind === 'list' || route.kind === 'show' || route.kind === 'singleton';
  const root = reads ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[rootName];
  if (!field || rest.length > 0)
    return { problem: `${where}: derives ${name}, but ${reads ? 'Query' : 'Mutation'} has no field ${route.result} (name the route's own operation in op)` };
  const fragment = `...${route.resource.fragment}`;
  const { variables, args } = argumentsOf(route, field);
  const selections: string[] = [];
  const parent = route.kind === 'list' ? parentOf(route) : null;
  if (parent) {
    if (!schema.getQueryType()?.getFields()[parent.query])
      return { problem: `${where}: its path filter names the parent ${parent.query}, which Query does not have` };
    if (!variables.some((v) => v.startsWith(`$${parent.param}:`))) variables.unshift(`$${parent.param}: Int!`);
    selections.push(`parent: ${parent.query}(id: $${parent.param}) { databaseId }`);
  }
  let selection: string;
  if (route.kind === 'list') selection = `{ nodes { ${fragment} } totalCount }`;
  else if (reads) selection = `{ ${fragment} }`;
  else if (payloadKey) selection = `{ ${payloadKey} { ${fragment} } userErrors { ...UserErrorV3 } }`;
  else {
    const payload = getNamedType(field.type);
    if (!isObjectType(payload)) return { problem: `${where}: ${rootName} answers no payload object` };
    const ids = Object.keys(payload.getFields()).filter((name) => /DatabaseIds?$/.test(name));
    selection = `{ ${ids.join(' ')} userErrors { ...UserErrorV3 } }`;
  }
  selections.push(`${rootName}${list(args)} ${selection}`);
  const source = `${reads ? 'query' : 'mutation'} ${name}${list(variables)} { ${selections.join(' ')} }`;
  return { source };
}

/**
 * The operations of the routes that name none, derived from the schema, each once (the nested
 * forms of a list share theirs). A route whose derived name a hand operation already has, or
 * two routes deriving different operations under one name, stop the boot, naming them.
 */
export function derivedOperationsSource(schema: GraphQLSchema, routes: readonly RouteDeclaration[], handNames: ReadonlySet<string>): string {
  const sources = new Map<string, { source: string; where: string }>();
  const problems: string[] = [];
  for (const route of routes) {
    if (route.op) continue;
    const name = operationName(route);
    const where = `${route.method} ${route.path}`;
    if (handNames.has(name)) {
      problems.push(`${where}: derives ${name}, which operations/*.graphql also writes (name it in the route's op, or delete the written one)`);
      continue;
    }
    const derived = deriveOperation(schema, route, name);
    if ('problem' in derived) {
      problems.push(derived.problem);
      continue;
    }
    const seen = sources.get(name);
    if (seen && seen.source !== derived.source) problems.push(`${where}: derives ${name}, as ${seen.where} does, but another operation`);
    else if (!seen) sources.set(name, { source: derived.source, where });
  }
  if (problems.length > 0) throw new Error(`The v3 facade cannot derive these operations (rest-facade/routes/derived-operations.ts):\n${problems.join('\n')}`);
  return [...sources.values()].map((s) => s.source).join('\n');
}
