import { coerceInputValue, GraphQLList, GraphQLNonNull, isInputType, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { BadInputError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import type { ConnectionReads, Paging } from '../../db/keyset';
import { conditionFilter, storedConditions } from '../../kit/v3/conditions';
import { conditionTable, type ConditionVocabulary } from '../../kit/v3/vocabulary';
import { parseSort, sortWhitelist, type SortKey } from '../../kit/v3/sort';
import { COMPANY_CONDITIONS, COMPANY_SORT } from '../companies/company.conditions';
import { COMPANY_FIELDS } from '../companies/company.fields';
import { CompanyService } from '../companies/company.service';
import { DEAL_CONDITIONS, DEAL_SORT } from '../deals/deal.conditions';
import { DEAL_FIELDS } from '../deals/deal.fields';
import { DealService } from '../deals/deal.service';
import { PERSON_CONDITIONS, PERSON_SORT } from '../people/person.conditions';
import { PERSON_FIELDS } from '../people/person.fields';
import { PersonService } from '../people/person.service';
import { NOTE_CONDITIONS, NOTE_SORT } from '../notes/note.conditions';
import { NOTE_FIELDS } from '../notes/note.fields';
import { NoteService } from '../notes/note.service';
import { CALENDAR_ENTRY_CONDITIONS, CALENDAR_ENTRY_SORT } from '../calendar/calendar-entry.conditions';
import { CALENDAR_ENTRY_FIELDS } from '../calendar/calendar-entry.fields';
import { CalendarEntryService } from '../calendar/calendar-entry.service';
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

const ONE_ROW: Paging = { kind: 'offset', page: 1, perPage: 1, offset: 0 };
const NOTHING_MORE: ConnectionReads = { total: false, cursors: false };

let vocabularies: Readonly<Record<SavedSearchType, SearchVocabulary>> | undefined;

/** Built on first use: the field tables (and their order enums) are complete by then, whatever the import order. */
export function vocabularyOf(type: SavedSearchType): SearchVocabulary {
  vocabularies ??= {
    [SavedSearchType.DEALS]: {
      type: SavedSearchType.DEALS,
      what: 'deals',
      conditions: DEAL_CONDITIONS,
      sort: sortWhitelist(Object.keys(DEAL_FIELDS.OrderField), DEAL_SORT),
      sortTable: 'deals',
      list: {
        filterType: 'DealFilter',
        orderType: 'DealOrder',
        probe: (ctx, filter, orderBy) => new DealService(ctx).list(filter, orderBy, ONE_ROW, NOTHING_MORE),
      },
    },
    [SavedSearchType.PEOPLE]: {
      type: SavedSearchType.PEOPLE,
      what: 'people',
      conditions: PERSON_CONDITIONS,
      sort: sortWhitelist(Object.keys(PERSON_FIELDS.OrderField), PERSON_SORT),
      sortTable: 'people',
      list: {
        filterType: 'PersonFilter',
        orderType: 'PersonOrder',
        probe: (ctx, filter, orderBy) => new PersonService(ctx).list(filter, orderBy, ONE_ROW, NOTHING_MORE),
      },
    },
    [SavedSearchType.COMPANIES]: {
      type: SavedSearchType.COMPANIES,
      what: 'companies',
      conditions: COMPANY_CONDITIONS,
      sort: sortWhitelist(Object.keys(COMPANY_FIELDS.OrderField), COMPANY_SORT),
      sortTable: 'companies',
      list: {
        filterType: 'CompanyFilter',
        orderType: 'CompanyOrder',
        probe: (ctx, filter, orderBy) => new CompanyService(ctx).list(filter, orderBy, ONE_ROW, NOTHING_MORE),
      },
    },
    [SavedSearchType.NOTES]: {
      type: SavedSearchType.NOTES,
      what: 'notes',
      conditions: NOTE_CONDITIONS,
      sort: sortWhitelist(Object.keys(NOTE_FIELDS.OrderField), NOTE_SORT),
      sortTable: 'notes',
      list: {
        filterType: 'NoteFilter',
        orderType: 'NoteOrder',
        probe: (ctx, filter, orderBy) => new NoteService(ctx).list(filter, orderBy, ONE_ROW, NOTHING_MORE),
      },
    },
    [SavedSearchType.CALENDAR_ENTRIES]: {
      type: SavedSearchType.CALENDAR_ENTRIES,
      what: 'calendar entries',
      conditions: CALENDAR_ENTRY_CONDITIONS,
      sort: sortWhitelist(Object.keys(CALENDAR_ENTRY_FIELDS.OrderField), CALENDAR_ENTRY_SORT),
      sortTable: 'calendar_entries',
      list: {
        filterType: 'CalendarEntryFilter',
        orderType: 'CalendarEntryOrder',
        probe: (ctx, filter, orderBy) => new CalendarEntryService(ctx).list(filter, orderBy, ONE_ROW, NOTHING_MORE),
      },
    },
  };
  return vocabularies[type];
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
