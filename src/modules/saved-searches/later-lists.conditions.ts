import type { ConditionTable } from '../../kit/v3/conditions';
import type { V3SortSpec } from '../../kit/v3/sort';

/*
 * The v3 vocabulary of the lists that arrive later (notes, calendar entries), as the spec states it,
 * so their saved searches are validated by the same rules now (issue 11 §4: "store search_type for
 * them now"). The `to` fields name the filter fields those lists are expected to have; when a list
 * arrives, its module takes its table over (as deals, people and companies have theirs) and the
 * facade's agreement check then holds the names to the schema.
 */

/** v3 §4.1 calendar entry list conditions. */
export const CALENDAR_ENTRY_CONDITIONS: ConditionTable = {
  named: { to: 'name', kind: 'text' },
  kind: { to: 'kind', kind: 'enum', values: ['task', 'event'] },
  owner_id: { to: 'ownerId', kind: 'ids' },
  completed: { to: 'completed', kind: 'flag' },
  incomplete: { to: 'incomplete', kind: 'flag' },
  late: { to: 'late', kind: 'flag' },
  today: { to: 'today', kind: 'flag' },
  tomorrow: { to: 'tomorrow', kind: 'flag' },
  this_week: { to: 'thisWeek', kind: 'flag' },
  next_week: { to: 'nextWeek', kind: 'flag' },
  future: { to: 'future', kind: 'flag' },
  within: { to: 'within', kind: 'datetimeRange' },
  starting_at: { to: 'startTime', kind: 'datetime' },
  ending_at: { to: 'endTime', kind: 'datetime' },
  someday: { to: 'someday', kind: 'boolean' },
  recurrences_of: { to: 'recurrencesOf', kind: 'id' },
  non_recurring: { to: 'nonRecurring', kind: 'flag' },
  base_entries: { to: 'baseEntries', kind: 'flag' },
  include_inactive: { to: 'includeInactive', kind: 'flag' },
  calendar_entry_modified: { to: 'updatedAt', kind: 'datetimeRange' },
};

/** v3 §4.1 sort values: due_date, start_time, created_at, updated_at (each with `-`). */
export const CALENDAR_ENTRY_SORT_KEYS: readonly string[] = ['DUE_DATE', 'START_TIME', 'CREATED_AT', 'UPDATED_AT'];

/** Notes have arrived: their table lives with them (src/modules/notes/note.conditions.ts). */
export { NOTE_CONDITIONS } from '../notes/note.conditions';

export const LATER_SORT: V3SortSpec = {};
