import { parseConditions, type ConditionTable } from '../request/conditions';
import { savedSearchResource } from '../resources/saved-search';
import type { HookRequest, RouteDeclaration } from './route-spec';

/** `conditions[search_type]` (or a plain `search_type`): one list's searches (v3 names: deals, people, companies, notes, calendar_entries). */
const SEARCH_TYPE: ConditionTable = {
  search_type: {
    to: 'type',
    kind: 'enum',
    map: { deals: 'DEALS', people: 'PEOPLE', companies: 'COMPANIES', notes: 'NOTES', calendar_entries: 'CALENDAR_ENTRIES' },
  },
};

/** The list's `type` argument from either spelling (the condition wins). */
function searchType(variables: Record<string, unknown>, { query }: HookRequest): Record<string, unknown> {
  const { filter: _, ...rest } = variables;
  // An enum is read the same in any zone.
  return { ...rest, ...parseConditions(query, SEARCH_TYPE, 'UTC', { prefix: null }), ...parseConditions(query.conditions, SEARCH_TYPE, 'UTC') };
}

const base = { resource: savedSearchResource, errorShape: 'array', method: 'GET' } as const;

/**
 * DECISIONS (Admin surface): `GET /searches.json` (envelope; DECISIONS Paging: 100 a page by
 * default and at most) and `GET /searches/:id.json`; a search the viewer may not see (another
 * user's private one, another account's) or a missing one is a 404 with an empty body.
 */
export const SEARCH_ROUTES: readonly RouteDeclaration[] = [
  {
    ...base,
    path: '/searches',
    op: 'ListSearches',
    kind: 'list',
    result: 'searches',
    paging: { default: 100, max: 100 },
    hooks: { variables: searchType, doc: { conditions: SEARCH_TYPE } },
  },
  { ...base, path: '/searches/:id', kind: 'show', result: 'search' },
];
