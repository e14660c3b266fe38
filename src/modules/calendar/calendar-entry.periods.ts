import { DateTime } from 'luxon';
import { registerEnumType } from 'type-graphql';

/**
 * The relative conditions of calendar lists (v3 §4.1 `late`, `today`, `tomorrow`, `this_week`,
 * `next_week`, `future`, `someday`, `within`): they depend on the viewer's time zone and on the
 * request's clock, so the list's service pins both to the filter (`pinPeriods`) before it is
 * compiled; the filter's SQL builders read the pin (never `new Date()`).
 *
 * Days run from local midnight to the next local midnight in the viewer's zone (23 or 25 hours
 * across a daylight-saving change); weeks start on Monday (ISO 8601). Tasks match by `due_date`
 * (a calendar date), events by overlapping the span.
 */
export enum CalendarEntryDue {
  LATE = 'late',
  TODAY = 'today',
  TOMORROW = 'tomorrow',
  THIS_WEEK = 'this_week',
  NEXT_WEEK = 'next_week',
  FUTURE = 'future',
  SOMEDAY = 'someday',
}
registerEnumType(CalendarEntryDue, {
  name: 'CalendarEntryDue',
  description:
    "When a calendar entry falls, in the viewer's time zone: tasks by their due date, events by overlapping the span (days run from local midnight to local midnight; weeks start on Monday).",
  valuesConfig: {
    LATE: { description: 'Not complete, and past: tasks due before today, events that ended before now.' },
    TODAY: { description: 'Tasks due today; events overlapping today.' },
    TOMORROW: { description: 'Tasks due tomorrow; events overlapping tomorrow.' },
    THIS_WEEK: { description: 'Tasks due this week (Monday to Sunday); events overlapping it.' },
    NEXT_WEEK: { description: 'Tasks due next week; events overlapping it.' },
    FUTURE: { description: 'After next week: tasks due from the Monday after next week on; events still running then or starting later.' },
    SOMEDAY: { description: 'Tasks without a due date.' },
  },
});

/** What a relative condition is computed against: the viewer's zone and the request's clock. */
export interface Pin {
  readonly timeZone: string;
  readonly now: Date;
}

/** Where the pin rides on a filter value: a symbol, so the filter compiler never sees it as a field. */
export const PIN = Symbol('calendar period pin');

/** The filter fields whose conditions need the pin. */
const PINNED_FIELDS: ReadonlySet<string> = new Set(['due', 'within']);

type FilterNode = Record<string | symbol, unknown>;

/**
 * A copy of `filter` whose relative conditions carry `pin` (at any depth: inside and/or/not too).
 * Every calendar filter goes through here before `CALENDAR_ENTRY_FIELDS.filterSql`.
 */
export function pinPeriods<F>(filter: F | null | undefined, pin: Pin): F | null | undefined {
  if (!filter || typeof filter !== 'object') return filter;
  const node = filter as unknown as FilterNode;
  const out: FilterNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (value == null) out[key] = value;
    else if (key === 'and' || key === 'or') out[key] = (value as unknown[]).map((child) => pinPeriods(child, pin));
    else if (key === 'not') out[key] = pinPeriods(value, pin);
    else if (PINNED_FIELDS.has(key) && typeof value === 'object') out[key] = { ...(value as object), [PIN]: pin };
    else out[key] = value;
  }
  return out as F;
}

/** The pin a condition was given; a filter compiled without one is a programming error. */
export function pinOf(value: unknown): Pin {
  const pin = (value as FilterNode | null)?.[PIN] as Pin | undefined;
  if (!pin) throw new Error("A calendar period condition was compiled without the viewer's zone and clock (pinPeriods)");
  return pin;
}

/** A span of local days: `[from, to)` as instants and as local dates (`to` null: open-ended). */
export interface DaySpan {
  readonly from: Date;
  readonly fromDate: string;
  readonly to: Date | null;
  readonly toDate: string | null;
}

const dateOf = (dt: DateTime) => dt.toISODate() as string;

/** Local midnight of `dt`'s day, in its zone (luxon moves a midnight a DST change skips to the first valid instant). */
const startOfDay = (dt: DateTime) => dt.startOf('day');

function span(from: DateTime, to: DateTime | null): DaySpan {
  return { from: from.toJSDate(), fromDate: dateOf(from), to: to ? to.toJSDate() : null, toDate: to ? dateOf(to) : null };
}

/** The local "today" of the pin: its date and its instant span. */
export function today(pin: Pin): DaySpan {
  const now = DateTime.fromJSDate(pin.now, { zone: pin.timeZone });
  const start = startOfDay(now);
  return span(start, startOfDay(start.plus({ days: 1 })));
}

/** The span a period names (not LATE or SOMEDAY, which are no span). Weeks are ISO weeks (Monday). */
export function periodSpan(due: Exclude<CalendarEntryDue, CalendarEntryDue.LATE | CalendarEntryDue.SOMEDAY>, pin: Pin): DaySpan {
  const now = DateTime.fromJSDate(pin.now, { zone: pin.timeZone });
  const day = startOfDay(now);
  // luxon's startOf('week') is the ISO week's Monday (locale weeks are off by default).
  const week = now.startOf('week');
  switch (due) {
    case CalendarEntryDue.TODAY:
      return span(day, startOfDay(day.plus({ days: 1 })));
    case CalendarEntryDue.TOMORROW:
      return span(startOfDay(day.plus({ days: 1 })), startOfDay(day.plus({ days: 2 })));
    case CalendarEntryDue.THIS_WEEK:
      return span(week, startOfDay(week.plus({ weeks: 1 })));
    case CalendarEntryDue.NEXT_WEEK:
      return span(startOfDay(week.plus({ weeks: 1 })), startOfDay(week.plus({ weeks: 2 })));
    case CalendarEntryDue.FUTURE:
      return span(startOfDay(week.plus({ weeks: 2 })), null);
  }
}

/** The local date of an instant in `timeZone` (YYYY-MM-DD). */
export function localDate(at: Date, timeZone: string): string {
  return dateOf(DateTime.fromJSDate(at, { zone: timeZone }));
}

/** Local midnight of a date in `timeZone`, as an instant. */
export function localMidnight(date: string, timeZone: string): Date {
  return DateTime.fromISO(date, { zone: timeZone }).startOf('day').toJSDate();
}
