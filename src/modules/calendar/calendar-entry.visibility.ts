import { ownerTerm, VisibilityRule } from '../../context/visibility';
import { linkedRecordsTerm } from '../common/linked-records';
import type { Records } from '../common/resource';
import { CalendarEntry } from './calendar-entry.entity';

/**
 * Calendar entries: visible to admins and `all` users; to an `own` user when they own the entry or
 * may see the deal, person or company it is about or tied to (the documents rule). Decided in SQL
 * on every path (lists, lookups, node(id:), writes, nested lists): the linked records' term has no
 * in-memory predicate to drift from it.
 */
export const CALENDAR_ENTRY_RECORDS: Records<CalendarEntry> = {
  entity: CalendarEntry,
  alias: 'ce',
  name: 'CalendarEntry',
  visibility: new VisibilityRule<CalendarEntry>([
    ownerTerm<CalendarEntry>('owner_id', (e) => e.owner?.id, ['owner']),
    linkedRecordsTerm<CalendarEntry>('ce', 'CalendarEntry'),
  ]),
};
