import type { RequestContext } from '../../context/context';
import { type CalendarEntry, CalendarEntryKind } from './calendar-entry.entity';
import { localDate, localMidnight } from './calendar-entry.periods';
import { expandSeries, hasRecurrence, RECURRENCE_LIMITS, seriesEnd, type RecurrenceRules, type SeriesAnchor } from './recurrence';

/*
 * Recurring series (issue 14 §3; DECISIONS: States: calendar entry): a base entry holds the RFC 5545
 * rules; each occurrence after the base's own is stored as an entry of its own (`base_entry_id` =
 * the base), expanded up to the rule's end, the horizon (RECURRENCE_LIMITS.horizonDays after the
 * later of now and the base's start) and at most RECURRENCE_LIMITS.maxOccurrences occurrences.
 */

const DAY_MS = 86_400_000;

/** The base's rules as recurrence.ts takes them. */
export function rulesOf(entry: Pick<CalendarEntry, 'rrule' | 'rdate' | 'exrule' | 'exdate'>): RecurrenceRules {
  return { rrule: entry.rrule, rdate: entry.rdate, exrule: entry.exrule, exdate: entry.exdate };
}

/** Where a series repeats from: an event's start; a task's due date at local midnight. Null when it has none. */
export function anchorOf(entry: Pick<CalendarEntry, 'kind' | 'startTime' | 'dueDate' | 'timeZone' | 'allDay'>): SeriesAnchor | null {
  const start = entry.kind === CalendarEntryKind.EVENT ? entry.startTime : entry.dueDate ? localMidnight(entry.dueDate, entry.timeZone) : null;
  return start ? { start, timeZone: entry.timeZone, allDay: entry.allDay } : null;
}

/** One stored occurrence: an event's start and end, or a task's due date. */
interface Occurrence {
  readonly start_time: string | null;
  readonly end_time: string | null;
  readonly due_date: string | null;
}

/** The occurrences of `base`'s series after its own, as its kind stores them (events keep the base's duration). */
function occurrencesOf(base: CalendarEntry, now: Date): Occurrence[] {
  const rules = rulesOf(base);
  const anchor = anchorOf(base);
  if (!anchor || !hasRecurrence(rules)) return [];
  const horizon = new Date(Math.max(now.getTime(), anchor.start.getTime()) + RECURRENCE_LIMITS.horizonDays * DAY_MS);
  const end = seriesEnd(rules, anchor);
  const until = end && end.getTime() < horizon.getTime() ? end : horizon;
  const starts = expandSeries(rules, anchor, { until, max: RECURRENCE_LIMITS.maxOccurrences });
  const duration = base.kind === CalendarEntryKind.EVENT && base.endTime && base.startTime ? base.endTime.getTime() - base.startTime.getTime() : 0;
  return starts.map((start) =>
    base.kind === CalendarEntryKind.EVENT
      ? { start_time: start.toISOString(), end_time: new Date(start.getTime() + duration).toISOString(), due_date: null }
      : { start_time: null, end_time: null, due_date: localDate(start, base.timeZone) },
  );
}

/** Whether an occurrence is still to come: an event starting after now, a task due today or later (in the series' zone). */
function isFuture(o: Occurrence, now: Date, today: string): boolean {
  return o.start_time !== null ? Date.parse(o.start_time) > now.getTime() : o.due_date !== null && o.due_date >= today;
}

/** The columns an occurrence copies from its base (the rest are its own: times, completion, base_entry_id). */
const COPIED = [
  'account_id',
  'kind',
  'owner_id',
  'name',
  'description',
  'category_id',
  'calendar_entry_priority_id',
  'all_day',
  'time_zone',
  'association_type',
  'deal_id',
  'person_id',
  'company_id',
  'active',
] as const;

/**
 * (Re)builds the series of `base` (a managed, flushed entry): on create every occurrence; on a change
 * of the base's rule or times, its future ones. Occurrences already completed, in the past or
 * deactivated one by one stay as they are (and a new one never duplicates their day or start); the
 * others are deleted and the rule is expanded again. Inserts are one statement. Then the base and
 * every entry of the series get `part_of_recurring_series` and `recurrence_end` (the last day the
 * series has an entry for, in its zone). Answers the ids of the occurrences made.
 */
export async function rebuildSeries(ctx: RequestContext, base: CalendarEntry, rebuilding: boolean): Promise<number[]> {
  const em = ctx.em;
  const now = ctx.clock.now();
  const today = localDate(now, base.timeZone);
  let occurrences = occurrencesOf(base, now);
  if (rebuilding) {
    // The future is rebuilt; what is done, past or cancelled on its own stays.
    await em.execute(
      `delete from "calendar_entries" where "base_entry_id" = ? and "account_id" = ? and "complete" = false and "active" = true
         and (("kind" = 'event' and "start_time" > ?) or ("kind" = 'task' and "due_date" >= ?::date))`,
      [base.id, ctx.viewer.accountId, now, today],
      'run',
    );
    const kept = await em.execute<Array<{ start_ms: string | number | null; due_date: string | null }>>(
      `select round(extract(epoch from "start_time") * 1000)::bigint as start_ms, to_char("due_date", 'YYYY-MM-DD') as due_date
         from "calendar_entries" where "base_entry_id" = ? and "account_id" = ?`,
      [base.id, ctx.viewer.accountId],
      'all',
    );
    const keptStarts = new Set(kept.map((k) => (k.start_ms !== null ? `at:${Number(k.start_ms)}` : `date:${k.due_date}`)));
    occurrences = occurrences.filter(
      (o) => isFuture(o, now, today) && !keptStarts.has(o.start_time !== null ? `at:${Date.parse(o.start_time)}` : `date:${o.due_date}`),
    );
  }
  let made: number[] = [];
  if (occurrences.length > 0) {
    const columns = COPIED.map((c) => `"${c}"`).join(', ');
    const copied = COPIED.map((c) => `b."${c}"`).join(', ');
    const rows = await em.execute<Array<{ id: number }>>(
      `insert into "calendar_entries" (${columns}, "complete", "base_entry_id", "part_of_recurring_series", "start_time", "end_time", "due_date", "created_at", "updated_at")
         select ${copied}, false, b.id, true, r.start_time, r.end_time, r.due_date, ?, ?
         from "calendar_entries" b cross join jsonb_to_recordset(?::jsonb) as r(start_time timestamptz, end_time timestamptz, due_date date)
         where b.id = ? and b.account_id = ?
         order by r.start_time, r.due_date
       returning id`,
      [now, now, JSON.stringify(occurrences), base.id, ctx.viewer.accountId],
      'all',
    );
    made = rows.map((r) => Number(r.id));
  }
  // The series' reach, and whether the base still heads one (a rule, or occurrences left from before).
  const [reach] = await em.execute<Array<{ last_day: string | null; entries: string | number }>>(
    `select to_char(max(coalesce(ce.due_date, (ce.start_time at time zone ?)::date)), 'YYYY-MM-DD') as last_day, count(*) as entries
       from "calendar_entries" ce where ce.account_id = ? and (ce.id = ? or ce.base_entry_id = ?)`,
    [base.timeZone, ctx.viewer.accountId, base.id, base.id],
    'all',
  );
  const inSeries = hasRecurrence(rulesOf(base)) || Number(reach.entries) > 1;
  const recurrenceEnd = inSeries ? reach.last_day : null;
  await em.execute(
    `update "calendar_entries" set "part_of_recurring_series" = ?, "recurrence_end" = ?::date where "account_id" = ? and "base_entry_id" = ?`,
    [inSeries, recurrenceEnd, ctx.viewer.accountId, base.id],
    'run',
  );
  base.partOfRecurringSeries = inSeries;
  base.recurrenceEnd = recurrenceEnd;
  await em.flush();
  return made;
}
