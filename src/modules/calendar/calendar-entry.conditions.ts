import type { ConditionTable } from '../../kit/v3/conditions';
import type { V3SortSpec } from '../../kit/v3/sort';
import { sourcePath } from '../../kit/source-path';
import type { ConditionVocabulary } from '../../kit/v3/vocabulary';

/*
 * The v3 vocabulary of calendar entry lists (v3 §4.1), beside the calendar entry fields: the
 * facade's /calendar_entries routes and saved searches of type calendar_entries read conditions
 * and sort with these tables (src/kit/v3/conditions.ts). Each `to` names a CalendarEntryFilter
 * field; the facade's agreement check holds them to the schema.
 */

/**
 * v3 §4.1 list conditions. The flags (`completed`, `late`, `today`… "boolean, passed as true";
 * `non_recurring`, `base_entries`, `include_inactive` "any value, treated as true") each feed a
 * fixed filter value; an explicit false or 0 is no condition. `late`, `today`, `tomorrow`,
 * `this_week`, `next_week`, `future`, `someday` and `within` are computed in the viewer's time zone
 * (weeks start on Monday). `base_entries` leaves out the occurrences of series (entries of no
 * series stay); `recurrences_of` takes the id of any entry of a series.
 */
export const CALENDAR_ENTRY_CONDITIONS: ConditionVocabulary = {
  filter: 'CalendarEntryFilter',
  root: 'calendar_entry',
  text: 'like',
  source: sourcePath(__filename),
  fixed: {
    named: { to: 'name', kind: 'text' },
    kind: { to: 'kind', kind: 'enum', map: { task: 'TASK', event: 'EVENT' } },
    owner_id: { to: 'ownerId', kind: 'ids' },
    completed: { to: 'complete', kind: 'flag', feeds: { eq: true } },
    incomplete: { to: 'complete', kind: 'flag', feeds: { eq: false } },
    late: { to: 'due', kind: 'flag', feeds: { eq: 'LATE' } },
    today: { to: 'due', kind: 'flag', feeds: { eq: 'TODAY' } },
    tomorrow: { to: 'due', kind: 'flag', feeds: { eq: 'TOMORROW' } },
    this_week: { to: 'due', kind: 'flag', feeds: { eq: 'THIS_WEEK' } },
    next_week: { to: 'due', kind: 'flag', feeds: { eq: 'NEXT_WEEK' } },
    future: { to: 'due', kind: 'flag', feeds: { eq: 'FUTURE' } },
    // DECISIONS: datetime ranges as [from_date] and/or [to_date]; a date-only to_date covers its whole day.
    within: { to: 'within', kind: 'datetimeRange', raw: true },
    // "Most datetime formats parse" (v3 §4.1): the kit's v3 datetime forms, in the viewer's zone without an offset.
    starting_at: { to: 'startTime', kind: 'datetime' },
    ending_at: { to: 'endTime', kind: 'datetime' },
    someday: { to: 'due', kind: 'flag', feeds: { eq: 'SOMEDAY' } },
    recurrences_of: { to: 'recurrencesOf', kind: 'id', raw: true },
    non_recurring: { to: 'partOfRecurringSeries', kind: 'flag', feeds: { eq: false } },
    base_entries: { to: 'baseEntryId', kind: 'flag', feeds: { isNull: true } },
    include_inactive: { to: 'includeInactive', kind: 'flag' },
    calendar_entry_modified: { to: 'updatedAt', kind: 'datetimeRange' },
    // DECISIONS: association filters also arrive inside conditions (newer clients).
    deal_id: { to: 'dealId', kind: 'ids' },
    person_id: { to: 'personId', kind: 'ids' },
    company_id: { to: 'companyId', kind: 'ids' },
    user_id: { to: 'ownerId', kind: 'ids' },
  },
};

/** DECISIONS: association filters as plain query params (`/calendar_entries.json?deal_id=1`), `user_id` for the owner. */
export const CALENDAR_ENTRY_QUERY_FILTERS: ConditionTable = {
  deal_id: { to: 'dealId', kind: 'ids' },
  person_id: { to: 'personId', kind: 'ids' },
  company_id: { to: 'companyId', kind: 'ids' },
  user_id: { to: 'ownerId', kind: 'ids' },
};

/**
 * v3 §4.1 sort values: due_date, start_time, created_at, updated_at (each with `-`; the
 * `calendar_entries.` prefix allowed), and `id`: the CalendarEntryOrderField values.
 */
export const CALENDAR_ENTRY_SORT: V3SortSpec = {};
