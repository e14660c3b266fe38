import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { keysetPagesByParent } from '../../db/keyset';
import { Connection, pagingOf } from '../../graphql/connection';
import { fromOf, scopeOf } from '../common/resource';
import type { NestedArgs } from '../../graphql/connection';
import { CalendarEntry } from './calendar-entry.entity';
import { CALENDAR_ENTRY_FIELDS, type CalendarEntryFilter, type CalendarEntryOrder } from './calendar-entry.fields';
import { CALENDAR_ENTRY_RECORDS, calendarCondition } from './calendar-entry.service';

type Ids = readonly number[];

/** Default page of GraphQL calendar entry connections (the cost rule's default); v3 asks for 100 too (DECISIONS: Paging). */
export const CALENDAR_ENTRIES_PAGE_SIZE = 100;

const PARENT_COLUMN = { deal: 'ce.deal_id', person: 'ce.person_id', company: 'ce.company_id', base: 'ce.base_entry_id' } as const;

/**
 * Deal.calendarEntries, Person.calendarEntries, Company.calendarEntries and CalendarEntry.recurrences:
 * a page of the parent's visible entries, batched across a page of parents (one statement).
 */
export function calendarEntriesOf(
  ctx: RequestContext,
  parent: keyof typeof PARENT_COLUMN,
  parentId: number,
  nested: NestedArgs<CalendarEntryFilter, CalendarEntryOrder>,
): Promise<Connection<CalendarEntry>> {
  const paging = pagingOf(nested.args, CALENDAR_ENTRIES_PAGE_SIZE);
  const order = CALENDAR_ENTRY_FIELDS.orderKeys(ctx.em, nested.orderBy);
  const condition = calendarCondition(ctx, nested.filter);
  const loader = ctx.loaders.memo(
    `calendar-entries-of-${parent}:${JSON.stringify([paging, nested.filter ?? null, nested.orderBy ?? null, nested.reads ?? null])}`,
    () =>
      new DataLoader(async (ids: Ids) => {
        const where = scopeOf(ctx, CALENDAR_ENTRY_RECORDS).add(condition.sql, ...condition.params);
        const pages = await keysetPagesByParent(
          ctx.em,
          CalendarEntry,
          { from: fromOf(ctx, CALENDAR_ENTRY_RECORDS), alias: 'ce', where, order, paging, reads: nested.reads, parentColumn: PARENT_COLUMN[parent] },
          ids,
        );
        return ids.map((id) => new Connection(pages.get(id)!));
      }),
  );
  return loader.load(parentId);
}
