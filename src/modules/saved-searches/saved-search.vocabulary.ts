import { coerceInputValue, GraphQLList, GraphQLNonNull, isInputType, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { BadInputError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import type { ConnectionReads, Paging } from '../../db/keyset';
import { conditionFilter, storedConditions } from '../../kit/v3/conditions';
import { conditionTable, type ConditionVocabulary } from '../../kit/v3/vocabulary';
import { parseSort, sortWhitelist, type SortKey, type V3SortSpec } from '../../kit/v3/sort';
import { SavedSearchType } from './saved-search.entity';

/** A list that runs saved searches now: its GraphQL input types and a one-row run of a filter and an order. */
export interface SearchableList {
  /** `DealFilter`: a stored query becomes a value of it. */
  readonly filterType: string;
  /** `DealOrder`: a stored sort becomes a list of it. */
  readonly orderType: string;
  /** Runs the list for one row: what a saved search would run, so a query that cannot run is refused when saved. */
  probe(ctx: RequestContext, filter: never, orderBy: never): Promise<unknown>;
}

/** What a kind of list speaks in v3: its conditions and sort keys (the facade's routes use the same tables). */
export interface SearchVocabulary {
  readonly type: SavedSearchType;
  /** How its searches are named in errors: `deals`. */
  readonly what: string;
  readonly conditions: ConditionVocabulary;
  /** v3 sort key → order enum value name. */
  readonly sort: Readonly<Record<string, string>>;
  /** The table a `table.column` sort key must name (`-companies.updated_at`). */
  readonly sortTable: string;
  /** How a saved search of this list runs: its GraphQL input types and a one-row run of the list. */
  readonly list?: SearchableList;
}

/** What a record resource declares to run saved searches (its declaration's `search: savedSearches({...})`). */
export interface SearchableSpec {
  readonly type: SavedSearchType;
  /** How its searches are named in errors: `deals`. */
  readonly what: string;
  /** Its v3 conditions (the facade's list route reads the same table). */
  readonly conditions: ConditionVocabulary;
  /** Sort aliases beside its order enum's values in lower case. */
  readonly sort: V3SortSpec;
  /** The table a `table.column` sort key must name. */
  readonly sortTable: string;
}

/** What the record resource adds when it registers the list: its order enum and its list step, run for one row. */
export interface SearchableRegistration {
  /** The `XOrderField` enum (its names are the sort keys). */
  readonly orderField: Readonly<Record<string, string>>;
  /** `Deal`: its `DealFilter` and `DealOrder` input types. */
  readonly typeName: string;
  list(ctx: RequestContext, filter: never, orderBy: never, paging: Paging, reads: ConnectionReads): Promise<unknown>;
}

const ONE_ROW: Paging = { kind: 'offset', page: 1, perPage: 1, offset: 0 };
const NOTHING_MORE: ConnectionReads = { total: false, cursors: false };

/** The lists that run saved searches, as their record resources registered them (recordResource with `search`). */
const LISTS = new Map<SavedSearchType, { readonly spec: SearchableSpec; readonly registration: SearchableRegistration }>();
const built = new Map<SavedSearchType, SearchVocabulary>();

/** Called by recordResource for a declaration with `search`; a second list of the same type is a declaration error. */
export function registerSearchableList(spec: SearchableSpec, registration: SearchableRegistration): void {
  if (LISTS.has(spec.type)) throw new Error(`Two record resources run saved searches of type ${spec.type}`);
  LISTS.set(spec.type, { spec, registration });
}

/**
 * The saved-search types no list registered: each SavedSearchType value needs a record resource
 * whose declaration has `search: savedSearches({ type })`. Checked when the schema is built.
 */
export function unregisteredSearchTypes(): SavedSearchType[] {
  return Object.values(SavedSearchType).filter((type) => !LISTS.has(type));
}

/** Built on first use: the field tables (and their order enums) are complete by then, whatever the import order. */
export function vocabularyOf(type: SavedSearchType): SearchVocabulary {
  const cached = built.get(type);
  if (cached) return cached;
  const entry = LISTS.get(type);
  if (!entry)
    throw new Error(
      `No list runs saved searches of type ${type}: declare \`search: savedSearches({ type: SavedSearchType.${type.toUpperCase()}, ... })\` on its record resource`,
    );
  const { spec, registration } = entry;
  const vocabulary: SearchVocabulary = {
    type,
    what: spec.what,
    conditions: spec.conditions,
    sort: sortWhitelist(Object.keys(registration.orderField), spec.sort),
    sortTable: spec.sortTable,
    list: {
      filterType: `${registration.typeName}Filter`,
      orderType: `${registration.typeName}Order`,
      probe: (ctx, filter, orderBy) => registration.list(ctx, filter, orderBy, ONE_ROW, NOTHING_MORE),
    },
  };
  built.set(type, vocabulary);
  return vocabulary;
}

/** A saved search in GraphQL's words (variables form: enum names, ISO datetimes), before the schema reads it. */
export interface SearchVariables {
  readonly filter: Record<string, unknown>;
  readonly orderBy: SortKey[];
}

/**
 * A stored query and sort as the list's GraphQL variables: the same translation the facade applies
 * to `conditions[...]` and `sort` (src/kit/v3/conditions.ts, sort.ts), in the time zone `tz`.
 * Throws V3InputError naming `query[<condition>]` (or `sort`).
 */
export function searchVariables(
  schema: GraphQLSchema,
  vocabulary: SearchVocabulary,
  query: unknown,
  sort: string | null | undefined,
  tz: string,
): SearchVariables {
  const table = conditionTable(schema, vocabulary.conditions);
  const conditions = storedConditions(query, table, { prefix: 'query', what: `${vocabulary.what} searches` });
  const filter = conditionFilter(conditions, table, tz, { prefix: 'query' });
  const orderBy = parseSort(sort ?? undefined, vocabulary.sort, { table: vocabulary.sortTable });
  return { filter, orderBy };
}

function inputType(schema: GraphQLSchema, name: string): GraphQLInputType {
  const type = schema.getType(name);
  if (!type || !isInputType(type)) throw new Error(`The schema has no input type ${name}`);
  return type;
}

/**
 * Variables read through the schema's own input types, as GraphQL reads a client's variables
 * (enum values, DateTime scalars, defaults): the resolvers then get exactly what a client sending
 * that filter and order would give them. A value the type refuses is a BAD_USER_INPUT naming `argument`.
 */
export function asArguments(schema: GraphQLSchema, list: SearchableList, variables: SearchVariables, argument: string): { filter: unknown; orderBy: unknown } {
  const problems: string[] = [];
  const read = (value: unknown, type: GraphQLInputType, name: string) =>
    coerceInputValue(value, type, (path, _invalid, error) => problems.push(`${[name, ...path].join('.')}: ${error.message}`));
  const filter = read(variables.filter, inputType(schema, list.filterType), 'filter');
  const orderBy = read(variables.orderBy, new GraphQLList(new GraphQLNonNull(inputType(schema, list.orderType))), 'orderBy');
  if (problems.length > 0) throw new BadInputError(argument, problems[0]);
  return { filter, orderBy };
}
