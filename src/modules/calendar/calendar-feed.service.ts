import type { RequestContext } from '../../context/context';
import { hydrate } from '../../db/list-query';
import { fromOf, scopeOf } from '../common/resource';
import { ListItem } from '../lists/list-item.entity';
import { CalendarEntry, CalendarEntryKind } from './calendar-entry.entity';
import type { CalendarEntryFilter } from './calendar-entry.fields';
import { CALENDAR_ENTRY_RECORDS, CalendarEntryService, listsInactive } from './calendar-entry.service';
import { rulesOf } from './calendar-entry.series';
import { toICalendar, type ICalEntry } from './ical';
import { hasRecurrence, RECURRENCE_LIMITS, type RecurrenceRules } from './recurrence';

/** The most components one feed holds (issue 14 §5): the first ones in start order. */
export const CALENDAR_FEED_LIMIT = 1000;

/** The calendar's name as applications show it. */
const CALENDAR_NAME = 'CRM calendar';

/** Where a component falls, in SQL on `ce`: an event's start, a task's due date at local midnight in its zone (none: last). */
const START_SQL = `coalesce(ce.start_time, ce.due_date::timestamp at time zone ce.time_zone)`;

/** The feed: its components (entries), whether more matched, and the VCALENDAR text (rendered when read). */
export interface CalendarFeedData {
  readonly entries: readonly CalendarEntry[];
  readonly truncated: boolean;
  render(): string;
}

/**
 * The viewer's calendar as one iCalendar document (issue 14 §5; ical.ts writes it):
 * - the visible entries matching the filter (the list's conditions, saved searches) that belong to
 *   no series, and, for every series with a matching entry, its BASE with its rules, once (a reader
 *   expands the rule; the stored occurrences are left out). A series whose base the viewer may not
 *   see, or whose base was cancelled on its own, has its matching entries written one by one.
 * - occurrences cancelled one by one (`active` false while the base is not) become EXDATEs of their
 *   series, as far as the 366 dates an exdate holds allow; other changes made to a single
 *   occurrence (completed, renamed, moved) are not written: a series is its base and its rules.
 * - at most CALENDAR_FEED_LIMIT components, the first in start order (events by start, tasks by due
 *   date at local midnight in their zone, tasks due someday last; then by id).
 * - DTSTAMP is the latest change of a written entry, not the clock: the text only changes when the
 *   data does, so the v3 route's ETag lets a subscriber skip an unchanged feed.
 * Statements: the components (one), cancelled occurrences of the series written (one), category and
 * priority names (the list items' loader: one).
 */
export class CalendarFeedService {
  constructor(private readonly ctx: RequestContext) {}

  async feed(filter: CalendarEntryFilter | null | undefined): Promise<CalendarFeedData> {
    const ctx = this.ctx;
    const { entries, truncated } = await this.components(filter);
    const cancelled = await this.cancelledStarts(entries.filter((e) => e.baseEntry === null && e.active && hasRecurrence(rulesOf(e))));
    const names = await this.listNames(entries);
    const items: ICalEntry[] = entries.map((e) => ({
      id: e.id,
      kind: e.kind === CalendarEntryKind.EVENT ? 'event' : 'task',
      name: e.name ?? '',
      description: e.description,
      start: e.startTime,
      end: e.endTime,
      dueDate: e.dueDate,
      allDay: e.allDay,
      timeZone: e.timeZone,
      complete: e.complete,
      completedAt: e.completedAt,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      category: names.get(e.category?.id ?? 0) ?? null,
      priority: names.get(e.calendarEntryPriority?.id ?? 0) ?? null,
      rules: e.baseEntry === null && hasRecurrence(rulesOf(e)) ? withCancelled(rulesOf(e), cancelled.get(e.id) ?? []) : null,
    }));
    const latest = entries.reduce((most, e) => Math.max(most, e.updatedAt.getTime()), Number.NEGATIVE_INFINITY);
    const now = Number.isFinite(latest) ? new Date(latest) : ctx.clock.now();
    let text: string | null = null;
    return { entries, truncated, render: () => (text ??= toICalendar(items, { calendarName: CALENDAR_NAME, uidDomain: uidDomainOf(ctx.origin), now })) };
  }

  /**
   * The components, in start order, at most CALENDAR_FEED_LIMIT: each matching entry stands for
   * its series' base when that base is visible (and active, unless the filter lists inactive
   * entries), else for itself. One statement.
   */
  private async components(filter: CalendarEntryFilter | null | undefined): Promise<{ entries: CalendarEntry[]; truncated: boolean }> {
    const ctx = this.ctx;
    const matching = new CalendarEntryService(ctx).where(filter);
    const heads = scopeOf(ctx, CALENDAR_ENTRY_RECORDS);
    if (!listsInactive(filter)) heads.add('ce.active');
    const from = fromOf(ctx, CALENDAR_ENTRY_RECORDS);
    const rows = await ctx.em.execute<Array<Record<string, unknown>>>(
      `with matched as (select ce.id, ce.base_entry_id from ${from} where ${matching.sql}),
            heads as (select ce.id from ${from} where ${heads.sql} and ce.id in (select m.base_entry_id from matched m))
       select ce.* from ${from}
        where ce.account_id = ? and ce.id in (select case when m.base_entry_id in (select h.id from heads h) then m.base_entry_id else m.id end from matched m)
        order by ${START_SQL} asc nulls last, ce.id asc
        limit ?`,
      [...matching.params, ...heads.params, ctx.viewer.accountId, CALENDAR_FEED_LIMIT + 1],
      'all',
    );
    const truncated = rows.length > CALENDAR_FEED_LIMIT;
    return { entries: hydrate(ctx.em, CalendarEntry, rows.slice(0, CALENDAR_FEED_LIMIT)), truncated };
  }

  /** The starts of the occurrences cancelled one by one, by base id, as exdate values (a task's local date, an event's UTC instant). */
  private async cancelledStarts(bases: readonly CalendarEntry[]): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (bases.length === 0) return out;
    const rows = await this.ctx.em.execute<Array<{ base_entry_id: number; start_time: Date | string | null; due_date: string | null }>>(
      `select base_entry_id, start_time, to_char(due_date, 'YYYYMMDD') as due_date from "calendar_entries"
        where account_id = ? and base_entry_id = any(?::int[]) and active = false
        order by base_entry_id, start_time, due_date`,
      [this.ctx.viewer.accountId, `{${bases.map((b) => b.id).join(',')}}`],
      'all',
    );
    for (const row of rows) {
      const value = row.start_time !== null ? utcText(new Date(row.start_time)) : row.due_date;
      if (value === null) continue;
      const base = Number(row.base_entry_id);
      out.set(base, [...(out.get(base) ?? []), value]);
    }
    return out;
  }

  /** Names of the entries' categories and priorities (list items of the account), by id. */
  private async listNames(entries: readonly CalendarEntry[]): Promise<Map<number, string>> {
    const ids = [...new Set(entries.flatMap((e) => [e.category?.id, e.calendarEntryPriority?.id]).filter((id): id is number => id != null))];
    const loader = this.ctx.loaders.byId(ListItem);
    const items = await Promise.all(ids.map((id) => loader.load(id)));
    return new Map(items.filter((item): item is ListItem => item != null).map((item) => [item.id, item.name]));
  }
}

/** The base's exdate with the cancelled occurrences added, up to the 366 dates an exdate may hold. */
function withCancelled(rules: RecurrenceRules, cancelled: readonly string[]): RecurrenceRules {
  if (cancelled.length === 0) return rules;
  const own = rules.exdate ? rules.exdate.split(',').filter((v) => v.trim() !== '') : [];
  const room = Math.max(0, RECURRENCE_LIMITS.maxDates - own.length);
  const exdate = [...own, ...cancelled.slice(0, room)];
  return { ...rules, exdate: exdate.length > 0 ? exdate.join(',') : null };
}

/** `YYYYMMDDTHHMMSSZ`. */
function utcText(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/** The host UIDs are made unique in: this service's public host. */
function uidDomainOf(origin: string): string {
  try {
    return new URL(origin).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}
