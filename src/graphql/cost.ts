import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  TypeMetaFieldDef,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  introspectionFromSchema,
  isAbstractType,
  isInputObjectType,
  isLeafType,
  isListType,
  isObjectType,
  typeFromAST,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type IntrospectionQuery,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { MAX_PAGE_SIZE } from './connection';
import { relatedRecordsOf } from './filters';

/** Records one cost unit pays for: one v3 request reads at most one page of 200. */
export const ROWS_PER_UNIT = MAX_PAGE_SIZE;

/**
 * Introspection objects (types, fields, arguments, enum values, type references) one cost unit
 * pays for. The full introspection query of GraphQL Code Generator and of the explorer reads
 * about 4,000 of them from this schema: 3 units, well under a user's burst.
 */
export const INTROSPECTION_OBJECTS_PER_UNIT = 1500;

/** Default page size of a connection by its type, when the operation leaves it out (else 100). */
const DEFAULT_PAGE_SIZE: Readonly<Record<string, number>> = {
  ListItemConnection: 200,
  DealStageConnection: 200,
  TodoTemplateConnection: 200,
  TodoTemplateItemConnection: 200,
};

/**
 * How a list field that is not a connection bounds its length, declared on the field with
 * TypeGraphQL's `@Extensions({ listSize: ... })`:
 * - `argument`: the list is as long as that list argument (`nodes(ids:)`), or, when the argument
 *   is an Int (`occurrences(first:)`), at most its value, clamped to `max` (give the argument a
 *   default: an absent one counts as 1);
 * - `max`: at most this many items (a record's tags).
 * A list of records under which a connection can be reached must declare one (`unboundedLists`).
 */
export interface ListSize {
  readonly argument?: string;
  readonly max?: number;
}

/**
 * A field that reads records of its own each time it is resolved, beyond its row and the
 * convenience objects that cost nothing (e.g. a mail rendered from current rows), declared with
 * `@Extensions({ rowCost: { rows } })`: charged as `rows` records per resolution, like a page of
 * that many.
 */
export interface RowCost {
  readonly rows: number;
}

/**
 * A mutation that writes as many records as one of its list arguments holds (`upsertPeople(inputs:)`),
 * declared with `@Extensions({ writeCost: { argument, perUnit } })`: it costs one unit per
 * `perUnit` items of the argument (at least 1), writes weighing more than reads.
 */
export interface WriteCost {
  readonly argument: string;
  readonly perUnit: number;
}

/*
 * Filter work. A filter is run against every row its list reads (a whole account's people, not a
 * page of them), so its cost is the work it asks of each row, walked from the argument's value and
 * its input type: nothing here names a filter field, so a new one is costed as it is declared.
 */

/** A leaf condition (`eq`, `gt`, `isNull`, a short `in` list...): one comparison per row. */
export const CONDITION_WORK = 1;

/**
 * A text match: an operator (or a field) of these names matches a pattern against each row
 * (`ilike '%…%'`, often over several expressions: `search` reads name, email and company name),
 * several times the work of a comparison. Each value of a list of them (`matches`) is one match.
 */
export const TEXT_MATCH_WORK = 4;
export const TEXT_MATCH_NAMES: ReadonlySet<string> = new Set(['contains', 'startsWith', 'search', 'matches']);

/**
 * The values of one `in` list a condition holds: a list is one set-membership test, a longer one
 * counts once more per this many values (a tag list's `in` is one containment test per id).
 */
export const IN_VALUES_PER_CONDITION = 50;

/**
 * A condition on related records (a filter field with the `relatedRecords` extension: a deal's
 * `people: {some: PersonFilter}`, its `company`) runs per related row of every filtered row, inside
 * a subquery: what its filter holds counts this many times, again at each nested relation.
 */
export const RELATED_WORK_FACTOR = 4;

/**
 * Filter work one list carries at no extra cost: ten text matches, or forty comparisons, what a
 * search form sends. (v3 requests are not costed by their filter: the facade's operations run
 * in-process without this check, one list per request, each request 1.)
 */
export const FREE_FILTER_WORK = 40;

/**
 * Filter work beyond the free part that costs one more unit. A 100-`contains` filter (the most one
 * filter holds) is 400: 18 more units, a list costing 19, so three of them exceed GRAPHQL_MAX_COST
 * (50 aliased copies took 19 s of database time on a 3,000-person account; two take well under 1 s).
 */
export const FILTER_WORK_PER_UNIT = 20;

/** The work of a filter value of `type` (see the constants above); `name` is the input field holding it. */
export function filterWork(type: GraphQLInputType, value: unknown, name = ''): number {
  if (value === null || value === undefined) return 0;
  const nullable = getNullableType(type);
  const text = TEXT_MATCH_NAMES.has(name);
  if (isListType(nullable)) {
    const items = (Array.isArray(value) ? value : [value]).filter((v) => v !== null && v !== undefined);
    if (isLeafType(getNamedType(nullable))) {
      return text ? items.length * TEXT_MATCH_WORK : CONDITION_WORK * Math.max(1, Math.ceil(items.length / IN_VALUES_PER_CONDITION));
    }
    let sum = 0;
    for (const item of items) sum += filterWork(nullable.ofType as GraphQLInputType, item, name);
    return sum;
  }
  if (isInputObjectType(nullable)) {
    if (typeof value !== 'object') return 0;
    const fields = nullable.getFields();
    let sum = 0;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const field = fields[key];
      if (!field) continue;
      const work = filterWork(field.type, v, key);
      sum += relatedRecordsOf(field) ? work * RELATED_WORK_FACTOR : work;
    }
    return sum;
  }
  return text ? TEXT_MATCH_WORK : CONDITION_WORK;
}

/** The units a field's filter arguments (`*Filter` inputs, as input-limits.ts names them) add to its cost. */
export function filterCost(work: number): number {
  return Math.max(0, Math.ceil((work - FREE_FILTER_WORK) / FILTER_WORK_PER_UNIT));
}

const isFilterArgument = (type: GraphQLInputType): boolean => {
  const named = getNamedType(type);
  return isInputObjectType(named) && named.name.endsWith('Filter');
};

type AnyField = GraphQLField<unknown, unknown>;
type Fields = Map<string, FieldNode[]>;
type Variables = Readonly<Record<string, unknown>>;

const listSizeOf = (field: AnyField): ListSize | undefined => (field.extensions as { listSize?: ListSize } | undefined)?.listSize;
const rowCostOf = (field: AnyField): RowCost | undefined => (field.extensions as { rowCost?: RowCost } | undefined)?.rowCost;
const writeCostOf = (field: AnyField): WriteCost | undefined => (field.extensions as { writeCost?: WriteCost } | undefined)?.writeCost;

/**
 * A connection: a paged list of records (`first`/`last`/`perPage`), resolved as one page. It is an
 * object (nodes, edges, pageInfo); a plain list with a `first` argument is not one (it declares its
 * ListSize).
 */
const isConnection = (field: AnyField): boolean => field.args.some((a) => a.name === 'first') && !isListType(getNullableType(field.type));

/**
 * What an operation costs, in the unit of the v3 rate limit (one v3 request = 1), from the document
 * and its coerced variables alone, before anything runs. The rule it holds: the records an
 * operation can return through connections and `nodes(ids:)` are at most `cost × ROWS_PER_UNIT`.
 * - Each root field costs 1 (every alias counts; a mutation field too), or the records it returns
 *   itself over ROWS_PER_UNIT when more (`nodes(ids:)` with its ids), or what its writes cost
 *   when it declares a WriteCost and that is more.
 * - Each connection or `nodes(ids:)` below a root field costs ceil(N × size / ROWS_PER_UNIT), N
 *   being how many times it is resolved: the product of the lengths of every list above it
 *   (connection pages by their page size, `nodes(ids:)` by its ids, other lists by their bound).
 * - A field declaring a `RowCost` (it reads records of its own) costs like a page of that many,
 *   N times.
 * - The page size is `first`, `last` or `perPage` as asked, clamped to 1..200, else the list's
 *   default; fields skipped by `@skip`/`@include` cost nothing; `__typename` costs nothing.
 * - `__schema` and `__type` cost what they return: ceil(objects / INTROSPECTION_OBJECTS_PER_UNIT).
 * - A field's filters add ceil((work − FREE_FILTER_WORK) / FILTER_WORK_PER_UNIT) when their work
 *   (`filterWork`) is more than the free part, once per field: the rows a filter is run against
 *   are not bounded by the page it answers.
 * An introspection too large to count is `Infinity`.
 */
export function operationCost(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Variables,
  operation: OperationDefinitionNode,
): number {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'query' ? schema.getQueryType() : null;
  if (!root) return 0;
  const walker = new CostWalker(schema, fragments, variables);
  let total = 0;
  for (const nodes of walker.collect(root, [operation.selectionSet]).values()) {
    const name = nodes[0].name.value;
    if (name === '__schema' || name === '__type') total += walker.introspection(nodes);
    else {
      const field = root.getFields()[name];
      if (!field) continue; // __typename
      const own = walker.rowSource(field, nodes[0]);
      total +=
        Math.max(1, own === null ? 1 : Math.ceil(own / ROWS_PER_UNIT), walker.writes(field, nodes[0])) +
        walker.filters(field, nodes[0]) +
        walker.below(field, nodes, 1, own);
    }
  }
  return total;
}

class CostWalker {
  private introspected?: IntrospectionIndex;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
    private readonly variables: Variables,
  ) {}

  /** The fields selected on `type` by these selection sets, by response key, as graphql-js groups them. */
  collect(type: GraphQLObjectType, sets: readonly SelectionSetNode[], into: Fields = new Map(), seen = new Set<string>()): Fields {
    for (const set of sets) {
      for (const selection of set.selections) {
        if (!this.included(selection)) continue;
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          const list = into.get(key);
          if (list) list.push(selection);
          else into.set(key, [selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (this.applies(selection.typeCondition, type)) this.collect(type, [selection.selectionSet], into, seen);
        } else {
          const name = selection.name.value;
          const fragment = this.fragments[name];
          if (seen.has(name) || !fragment || !this.applies(fragment.typeCondition, type)) continue;
          seen.add(name);
          this.collect(type, [fragment.selectionSet], into, seen);
        }
      }
    }
    return into;
  }

  private included(node: { readonly directives?: readonly unknown[] }): boolean {
    if (!node.directives?.length) return true;
    const n = node as Parameters<typeof getDirectiveValues>[1];
    if (getDirectiveValues(GraphQLSkipDirective, n, this.variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, n, this.variables)?.if !== false;
  }

  private applies(condition: NamedTypeNode | undefined, type: GraphQLObjectType): boolean {
    if (!condition) return true;
    const named = typeFromAST(this.schema, condition);
    if (!named) return false;
    if (named === type) return true;
    return isAbstractType(named) && this.schema.isSubType(named, type);
  }

  private args(field: AnyField, node: FieldNode): Record<string, unknown> {
    try {
      return getArgumentValues(field, node, this.variables as Record<string, unknown>);
    } catch {
      return {}; // a bad value is reported when the operation runs
    }
  }

  /**
   * What the field's filters add (`filterCost`), once whatever the lists above it: a nested list's
   * filter reads the related rows of all its parents, no more rows than a root list reads.
   */
  filters(field: AnyField, node: FieldNode): number {
    const filterArgs = field.args.filter((a) => isFilterArgument(a.type));
    if (filterArgs.length === 0) return 0;
    const values = this.args(field, node);
    let work = 0;
    for (const arg of filterArgs) work += filterWork(arg.type, values[arg.name]);
    return filterCost(work);
  }

  /** The units a mutation declaring a WriteCost pays for its writes (0 for other fields). */
  writes(field: AnyField, node: FieldNode): number {
    const declared = writeCostOf(field);
    if (!declared) return 0;
    const value = this.args(field, node)[declared.argument];
    return Math.ceil((Array.isArray(value) ? value.length : 1) / declared.perUnit);
  }

  /**
   * How many records this field returns by itself when it is a row source (a connection's page
   * size; the ids of a list sized by an argument), else null.
   */
  rowSource(field: AnyField, node: FieldNode): number | null {
    const rowCost = rowCostOf(field);
    if (rowCost) return rowCost.rows;
    const declared = listSizeOf(field);
    if (declared?.argument) {
      const value = this.args(field, node)[declared.argument];
      if (typeof value === 'number' && Number.isFinite(value)) return Math.min(Math.max(Math.trunc(value), 0), declared.max ?? MAX_PAGE_SIZE);
      return Array.isArray(value) ? value.length : 1;
    }
    if (!isConnection(field)) return null;
    const args = this.args(field, node);
    const asked = [args.first, args.last, args.perPage].find((v) => typeof v === 'number' && Number.isFinite(v));
    const size = typeof asked === 'number' ? Math.trunc(asked) : (DEFAULT_PAGE_SIZE[getNamedType(field.type).name] ?? 100);
    return Math.min(Math.max(size, 1), MAX_PAGE_SIZE);
  }

  /**
   * The cost of what is selected under `field` (resolved `times` times). `own`: the records the
   * field returns per resolution when it is a row source; a connection's `nodes` and `edges` are
   * that many long.
   */
  below(field: AnyField, nodes: readonly FieldNode[], times: number, own: number | null): number {
    const sets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    if (sets.length === 0) return 0;
    const connectionPage = own !== null && isConnection(field) ? own : null;
    // A row source that is itself a list (nodes(ids:)) multiplies what is under it.
    const under = own !== null && !isConnection(field) && isListType(getNullableType(field.type)) ? times * own : times;
    return this.selection(field.type, sets, under, connectionPage);
  }

  /** The most the selection on a value of `type` costs, over its possible object types. */
  private selection(type: GraphQLOutputType, sets: readonly SelectionSetNode[], times: number, connectionPage: number | null): number {
    const named = getNamedType(type);
    const types: readonly GraphQLObjectType[] = isObjectType(named) ? [named] : isAbstractType(named) ? this.schema.getPossibleTypes(named) : [];
    let most = 0;
    for (const objectType of types) {
      let sum = 0;
      for (const subNodes of this.collect(objectType, sets).values()) {
        const sub = objectType.getFields()[subNodes[0].name.value];
        if (!sub) continue; // __typename
        // Lists multiply what is under them: a connection's nodes/edges by its page, others by their bound.
        const length = isListType(getNullableType(sub.type)) ? (connectionPage ?? listSizeOf(sub)?.max ?? MAX_PAGE_SIZE) : 1;
        const own = this.rowSource(sub, subNodes[0]);
        if (own !== null) sum += Math.ceil((times * own) / ROWS_PER_UNIT);
        sum += this.filters(sub, subNodes[0]);
        sum += this.below(sub, subNodes, times * (own !== null && !isConnection(sub) ? 1 : length), own);
      }
      most = Math.max(most, sum);
    }
    return most;
  }

  /**
   * `__schema` / `__type`: the objects the answer holds, counted on the schema's introspection.
   * Each (selection, object) pair is counted once and remembered, so a self-nesting query
   * (`types { interfaces { possibleTypes { interfaces ... } } }`) costs its true size without being
   * walked at that size; the pairs walked per operation are bounded besides (then `Infinity`).
   */
  introspection(nodes: readonly FieldNode[]): number {
    this.introspected ??= introspectionIndex(this.schema);
    const index = this.introspected;
    const count = (plan: Plan, value: unknown): number => {
      if (value === null || value === undefined) return 0;
      if (Array.isArray(value)) {
        let n = 0;
        for (const item of value) n += count(plan, item);
        return n;
      }
      // A type reference (`{kind, name, ofType}`) reads as the whole type it names.
      const object = plan.type === '__Type' ? index.resolve(value as TypeRef) : (value as Record<string, unknown>);
      const known = plan.counted.get(object);
      if (known !== undefined) return known;
      if (--this.introspectionWork < 0) throw new WalkTooLong();
      let n = 1;
      for (const [name, sub] of plan.fields) n += count(sub, object[name]);
      plan.counted.set(object, n);
      return n;
    };
    let objects = 0;
    try {
      for (const node of nodes) {
        const sets = node.selectionSet ? [node.selectionSet] : [];
        if (node.name.value === '__schema') objects += count(this.plan('__Schema', sets), index.schema);
        else {
          const name = this.args(TypeMetaFieldDef as AnyField, node).name;
          objects += count(this.plan('__Type', sets), (typeof name === 'string' && index.types.get(name)) || null);
        }
      }
    } catch (error) {
      if (error instanceof WalkTooLong) return Infinity;
      throw error;
    }
    return Math.max(1, Math.ceil(objects / INTROSPECTION_OBJECTS_PER_UNIT));
  }

  /** Introspection objects this operation may still walk (a full introspection walks about 3,000). */
  private introspectionWork = MAX_INTROSPECTION_WORK;

  /** The object fields selected on an introspection type, as a tree following the document. */
  private plan(typeName: string, sets: readonly SelectionSetNode[]): Plan {
    const type = this.schema.getType(typeName) as GraphQLObjectType;
    const fields: Array<readonly [string, Plan]> = [];
    for (const subNodes of this.collect(type, sets).values()) {
      const field = type.getFields()[subNodes[0].name.value];
      const named = field && getNamedType(field.type);
      if (!named || !isObjectType(named)) continue;
      fields.push([
        field.name,
        this.plan(
          named.name,
          subNodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : [])),
        ),
      ]);
    }
    return { type: typeName, fields, counted: new WeakMap() };
  }
}

/** Distinct (selection, object) pairs one operation's introspection may walk. */
const MAX_INTROSPECTION_WORK = 20_000;

class WalkTooLong extends Error {}

/** What an introspection selection reads of one meta type: its object fields and what is under them. */
interface Plan {
  readonly type: string;
  readonly fields: ReadonlyArray<readonly [string, Plan]>;
  /** Objects under this selection by the object: each is counted once. */
  readonly counted: WeakMap<object, number>;
}

interface TypeRef {
  readonly kind: string;
  readonly name?: string | null;
  readonly ofType?: TypeRef | null;
}

interface IntrospectionIndex {
  readonly schema: Record<string, unknown>;
  readonly types: ReadonlyMap<string, Record<string, unknown>>;
  resolve(ref: TypeRef): Record<string, unknown>;
}

const indexes = new WeakMap<GraphQLSchema, IntrospectionIndex>();

/** The schema's full introspection, once per schema: what any introspection query is a part of. */
function introspectionIndex(schema: GraphQLSchema): IntrospectionIndex {
  const found = indexes.get(schema);
  if (found) return found;
  const full: IntrospectionQuery = introspectionFromSchema(schema, {
    descriptions: true,
    specifiedByUrl: true,
    directiveIsRepeatable: true,
    schemaDescription: true,
    inputValueDeprecation: true,
  });
  const types = new Map<string, Record<string, unknown>>(full.__schema.types.map((t) => [t.name, t as unknown as Record<string, unknown>]));
  const index: IntrospectionIndex = {
    schema: full.__schema as unknown as Record<string, unknown>,
    types,
    resolve: (ref) =>
      ref.kind !== 'LIST' && ref.kind !== 'NON_NULL' && ref.name
        ? (types.get(ref.name) ?? (ref as unknown as Record<string, unknown>))
        : (ref as unknown as Record<string, unknown>),
  };
  indexes.set(schema, index);
  return index;
}

/**
 * List fields of records that do not bound their length although a connection (or another row
 * source) can be reached below them: their cost could not be bounded. Checked when the schema is
 * built, so a new field cannot open a hole.
 */
export function unboundedLists(schema: GraphQLSchema): string[] {
  const reachesRows = new Map<string, boolean>();
  const reaches = (type: GraphQLObjectType, visiting: Set<string>): boolean => {
    const known = reachesRows.get(type.name);
    if (known !== undefined) return known;
    if (visiting.has(type.name)) return false;
    visiting.add(type.name);
    let found = false;
    for (const field of Object.values(type.getFields())) {
      if (isConnection(field) || listSizeOf(field)?.argument) found = true;
      const named = getNamedType(field.type);
      const objects = isObjectType(named) ? [named] : isAbstractType(named) ? schema.getPossibleTypes(named) : [];
      for (const o of objects) if (!o.name.startsWith('__') && reaches(o, visiting)) found = true;
    }
    visiting.delete(type.name);
    reachesRows.set(type.name, found);
    return found;
  };
  const problems: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || type.name.endsWith('Connection')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isListType(getNullableType(field.type)) || listSizeOf(field)) continue;
      const named = getNamedType(field.type);
      const objects = isObjectType(named) ? [named] : isAbstractType(named) ? schema.getPossibleTypes(named) : [];
      if (objects.some((o) => reaches(o, new Set()))) problems.push(`${type.name}.${field.name}`);
    }
  }
  return problems;
}

/** The fragments of a document by name. */
export function fragmentsOf(definitions: readonly { kind: Kind }[]): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of definitions)
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[(def as FragmentDefinitionNode).name.value] = def as FragmentDefinitionNode;
  return fragments;
}
