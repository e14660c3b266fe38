import { DateTime } from 'luxon';
import { BadInputError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { hydrate } from '../../db/list-query';
import { boundedInstant } from '../../graphql/filters';
import { fromOf } from '../common/resource';
import { CalendarEntry, CalendarEntryKind } from './calendar-entry.entity';
import type { CalendarEntryFilter } from './calendar-entry.fields';
import { localDate, localMidnight } from './calendar-entry.periods';
import { CALENDAR_ENTRY_RECORDS, CalendarEntryService } from './calendar-entry.service';
import { anchorOf, rulesOf } from './calendar-entry.series';
import { occurrencesInWindow } from './occurrences';
import { RECURRENCE_LIMITS } from './recurrence';

/** The most occurrences one call answers (`first`), and how many when `first` is not given. */
export const OCCURRENCES_MAX = 1000;
export const OCCURRENCES_DEFAULT = 500;
/** The most series whose rule one call expands (the latest-starting ones first): keeps a call's work bounded whatever the account holds. */
export const OCCURRENCE_SERIES_MAX = 1000;

const DAY = 86_400_000;
/** The longest a local day lasts (25 hours across a DST change): a task's span when a rule's starts are windowed; each end is then exact. */
const LONGEST_DAY = 25 * 3_600_000;

/** Where a stored entry falls, in SQL on `ce`: an event's start, a task's due date at local midnight in its zone. */
const TASK_START = `(ce.due_date::timestamp at time zone ce.time_zone)`;
const TASK_END = `((ce.due_date + 1)::timestamp at time zone ce.time_zone)`;
const START_SQL = `coalesce(ce.start_time, ${TASK_START})`;

/** One occurrence: the entry it is (or, computed from a rule, its series' base), when, and whether it was computed. */
export interface OccurrenceOf {
  readonly entry: CalendarEntry;
  readonly start: Date;
  readonly end: Date;
  readonly allDay: boolean;
  readonly fromRule: boolean;
}

/** By start, then entry (then stored before computed). */
function byStart(a: OccurrenceOf, b: OccurrenceOf): number {
  return a.start.getTime() - b.start.getTime() || a.entry.id - b.entry.id || Number(a.fromRule) - Number(b.fromRule);
}

/** A task's local day in its zone: [midnight, next midnight). */
function taskSpan(dueDate: string, timeZone: string): { start: Date; end: Date } {
  const next = DateTime.fromISO(dueDate, { zone: 'UTC' }).plus({ days: 1 }).toISODate() as string;
  return { start: localMidnight(dueDate, timeZone), end: localMidnight(next, timeZone) };
}

/**
 * The occurrences of the viewer's entries in a window (issue 14 §3: a calendar front end's view),
 * computed from the rules, never unbounded:
 * - every stored entry overlapping the window that matches the filter is one occurrence, as itself:
 *   entries of no series, a series' base (its first occurrence) and the occurrences stored up to the
 *   series' horizon. Those carry what was done to one occurrence alone (completed, renamed, moved;
 *   one cancelled is inactive and left out, like in lists).
 * - past the last stored occurrence of a series (RECURRENCE_LIMITS.horizonDays, maxOccurrences),
 *   the occurrences come from the base's rule (occurrences.ts), `entry` being the base, when the
 *   base matches the filter (inactive allowed: a base cancelled alone still heads its series) and
 *   the series was not deleted (some entry of it is active). So nothing is listed twice.
 * - events span start to end; tasks their due date's local day in the entry's zone (allDay). A
 *   series keeps its wall time across DST changes in its zone, as stored occurrences do.
 * Bounds: a window of at most RECURRENCE_LIMITS.windowDays, at most OCCURRENCES_MAX occurrences
 * (the earliest; `first`), at most OCCURRENCE_SERIES_MAX series expanded. Statements: the stored
 * occurrences (one), the series heads (one), their last stored starts (one).
 */
export class CalendarOccurrenceService {
  constructor(private readonly ctx: RequestContext) {}

  async between(from: Date, to: Date, filter: CalendarEntryFilter | null | undefined, first: number = OCCURRENCES_DEFAULT): Promise<OccurrenceOf[]> {
    // A window is the viewer's view of their calendar: in range in their zone too, as `within` is.
    boundedInstant(from, 'from', this.ctx.viewer.timeZone);
    boundedInstant(to, 'to', this.ctx.viewer.timeZone);
    if (to.getTime() <= from.getTime()) throw new BadInputError('to', 'must be after from');
    if (to.getTime() - from.getTime() > RECURRENCE_LIMITS.windowDays * DAY)
      throw new BadInputError('to', `must be at most ${RECURRENCE_LIMITS.windowDays} days after from`);
    if (!Number.isInteger(first) || first < 0 || first > OCCURRENCES_MAX)
      throw new BadInputError('first', `must be between 0 and ${OCCURRENCES_MAX}, got ${first}`);
    if (first === 0) return [];

    const [stored, computed] = await Promise.all([this.stored(from, to, filter, first), this.fromRules(from, to, filter, first)]);
    return [...stored, ...computed].sort(byStart).slice(0, first);
  }

  /** Stored entries overlapping [from, to) and matching the filter, the earliest `first`. */
  private async stored(from: Date, to: Date, filter: CalendarEntryFilter | null | undefined, first: number): Promise<OccurrenceOf[]> {
    const ctx = this.ctx;
    const where = new CalendarEntryService(ctx).where(filter);
    // An event overlaps when it starts before `to` and ends after `from` (one of no length: starts at or after it).
    where.add(
      `(ce.kind = 'event' and ce.start_time < ? and (ce.end_time > ? or ce.start_time >= ?)) or (ce.kind = 'task' and ce.due_date is not null and ${TASK_START} < ? and ${TASK_END} > ?)`,
      to,
      from,
      from,
      to,
      from,
    );
    const rows = await ctx.em.execute<Array<Record<string, unknown>>>(
      `select ce.* from ${fromOf(ctx, CALENDAR_ENTRY_RECORDS)} where ${where.sql} order by ${START_SQL} asc, ce.id asc limit ?`,
      [...where.params, first],
      'all',
    );
    return hydrate(ctx.em, CalendarEntry, rows).map((entry) => {
      if (entry.kind === CalendarEntryKind.TASK) return { entry, ...taskSpan(entry.dueDate!, entry.timeZone), allDay: true, fromRule: false };
      return { entry, start: entry.startTime!, end: entry.endTime ?? entry.startTime!, allDay: entry.allDay, fromRule: false };
    });
  }

  /** Occurrences computed from the rules of live series past their last stored occurrence. */
  private async fromRules(from: Date, to: Date, filter: CalendarEntryFilter | null | undefined, first: number): Promise<OccurrenceOf[]> {
    const ctx = this.ctx;
    // The base must match the filter, active or not (a base cancelled on its own still heads its series).
    const heads = new CalendarEntryService(ctx).where({ and: [filter ?? {}, { includeInactive: true }] } as CalendarEntryFilter);
    heads
      .add('ce.base_entry_id is null')
      .add('(ce.rrule is not null or ce.rdate is not null)')
      .add(`${START_SQL} < ?`, to)
      // Not a deleted series (a delete deactivates every entry of it).
      .add(`exists (select 1 from "calendar_entries" s where s.account_id = ce.account_id and (s.id = ce.id or s.base_entry_id = ce.id) and s.active)`);
    const rows = await ctx.em.execute<Array<Record<string, unknown>>>(
      `select ce.* from ${fromOf(ctx, CALENDAR_ENTRY_RECORDS)} where ${heads.sql} order by ${START_SQL} desc, ce.id desc limit ?`,
      [...heads.params, OCCURRENCE_SERIES_MAX],
      'all',
    );
    const bases = hydrate(ctx.em, CalendarEntry, rows);
    if (bases.length === 0) return [];
    const ids = `{${bases.map((b) => b.id).join(',')}}`;
    const last = await ctx.em.execute<Array<{ base: number; last: Date | string | null }>>(
      `select coalesce(ce.base_entry_id, ce.id) as base, max(${START_SQL}) as last from "calendar_entries" ce
        where ce.account_id = ? and (ce.id = any(?::int[]) or ce.base_entry_id = any(?::int[])) group by 1`,
      [ctx.viewer.accountId, ids, ids],
      'all',
    );
    const lastStored = new Map(last.filter((r) => r.last !== null).map((r) => [Number(r.base), new Date(r.last!).getTime()]));

    let found: OccurrenceOf[] = [];
    for (const base of bases) {
      // Memory stays bounded by `first` whatever the number of series: only the earliest can be answered.
      if (found.length > 2 * first) found = found.sort(byStart).slice(0, first);
      const anchor = anchorOf(base);
      if (!anchor) continue;
      const task = base.kind === CalendarEntryKind.TASK;
      const duration = task ? LONGEST_DAY : Math.max(0, (base.endTime?.getTime() ?? anchor.start.getTime()) - anchor.start.getTime());
      const after = Math.max(lastStored.get(base.id) ?? anchor.start.getTime(), anchor.start.getTime());
      // Starts after the last stored one that overlap the window: occurrencesInWindow takes starts
      // above `since - duration` (at or above `since` without one).
      const since = new Date(Math.max(from.getTime(), after + duration + 1));
      if (since.getTime() >= to.getTime()) continue;
      let occurrences;
      try {
        occurrences = occurrencesInWindow([{ entryId: base.id, anchor, durationMs: duration, rules: rulesOf(base) }], since, to, first);
      } catch (error) {
        if (error instanceof RangeError) continue; // a zone or date the stored data should never hold: that series is left out, not the view
        throw error;
      }
      for (const o of occurrences) {
        if (!task) {
          found.push({ entry: base, start: o.start, end: o.end, allDay: base.allDay, fromRule: true });
          continue;
        }
        const span = taskSpan(localDate(o.start, base.timeZone), base.timeZone);
        if (span.end.getTime() > from.getTime() && span.start.getTime() < to.getTime()) found.push({ entry: base, ...span, allDay: true, fromRule: true });
      }
    }
    return found;
  }
}
