import { read, recordId } from './field-table';
import { v3Resource } from './resource-spec';

/** SavedSearchType (GraphQL) → v3 `search_type`. */
const SEARCH_TYPES: Readonly<Record<string, string>> = {
  DEALS: 'deals',
  PEOPLE: 'people',
  COMPANIES: 'companies',
  NOTES: 'notes',
  CALENDAR_ENTRIES: 'calendar_entries',
};

/**
 * DECISIONS (Admin surface): saved searches `{id, user_id, name, is_shared, is_default, query,
 * columns, sort, search_type}`; `query` maps v3 condition names to arrays of values, `sort` is a v3
 * sort value. Read-only over v3 (the recordings show only GET); written over GraphQL.
 */
export const savedSearchResource = v3Resource({
  root: 'search',
  type: 'SavedSearch',
  fragment: 'SavedSearchV3',
  fields: {
    id: recordId(),
    user_id: read('userId'),
    name: read('name'),
    is_shared: read('isShared'),
    is_default: read('isDefault'),
    query: read('query'),
    columns: read('columns'),
    sort: read('order'),
    search_type: read('searchType', { enum: SEARCH_TYPES }),
  },
});
