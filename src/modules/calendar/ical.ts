/**
 * An RFC 5545 VCALENDAR writer for calendar entries (v3 §2.1): events → VEVENT, tasks → VTODO, a
 * recurring series as ONE component (its base, with RRULE/RDATE/EXRULE/EXDATE; leave the stored
 * recurrences out). Pure and linear in the entries: the caller loads them and passes the clock's now.
 *
 * - Timed events in a zone: DTSTART/DTEND;TZID=<IANA name> with a VTIMEZONE for every TZID used
 *   (transitions from the time-zone engine, src/common/zones.ts, for the years the data spans, the
 *   zone's current yearly DST rule as RRULEs so readers stay right for open series; see
 *   `vtimezone`). UTC: `…Z`, no TZID.
 * - All-day events: DTSTART;VALUE=DATE (the start's local date) and DTEND;VALUE=DATE the day after
 *   the last day (exclusive). Tasks: DUE;VALUE=DATE; a recurring task also gets DTSTART;VALUE=DATE
 *   (RRULE needs one) equal to DUE, as RFC 2445 allowed: RFC 5545 wants DUE later, but a day later
 *   would show every task due a day late. Tasks recur as all-day series.
 * - Series rules come from recurrence.ts, normalised (no prefixes; UNTIL in UTC, or a date for
 *   all-day series). A date-only exdate in a timed series is written as the occurrences it removes,
 *   and a base that RRULE does not itself yield is added as an RDATE, so readers expand the series
 *   to what `occurrencesBetween` gives. A stored rule that no longer compiles is left out (the entry
 *   is still exported, as a single occurrence) rather than failing the whole calendar.
 * - Text is escaped (`\\`, `;`, `,`, newlines; other control characters dropped), lines are folded
 *   at 75 octets without splitting a UTF-8 character, and lines end in CRLF.
 */
import { formatOffset, isTimeZone, timeZone, type TimeZone, type Transition } from '../../common/zones';
import { recurrenceForExport, type RecurrenceRules, type SeriesAnchor } from './recurrence';

export interface ICalEntry {
  readonly id: number;
  readonly kind: 'event' | 'task';
  readonly name: string;
  readonly description: string | null;
  readonly start: Date | null; // events
  readonly end: Date | null; // events
  readonly dueDate: string | null; // tasks, YYYY-MM-DD
  readonly allDay: boolean;
  readonly timeZone: string; // the series zone
  readonly complete: boolean;
  readonly completedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly category: string | null;
  readonly priority: string | null;
  readonly rules: RecurrenceRules | null; // only on a series' base
}

export interface ICalOptions {
  readonly productId?: string;
  readonly calendarName: string;
  readonly uidDomain: string;
  readonly now: Date;
}

const DEFAULT_PRODUCT_ID = '-//CRM Service//Calendar Export//EN';
const DAY = 86_400_000;

export function toICalendar(entries: readonly ICalEntry[], options: ICalOptions): string {
  const zones = new ZoneUsage();
  const body: string[] = [];
  for (const entry of entries) {
    if (entry.kind === 'event') writeEvent(entry, options, zones, body);
    else writeTodo(entry, options, body);
  }
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeText(options.productId ?? DEFAULT_PRODUCT_ID)}`,
    'CALSCALE:GREGORIAN',
    `NAME:${escapeText(options.calendarName)}`,
    `X-WR-CALNAME:${escapeText(options.calendarName)}`,
  ];
  for (const [zone, span] of [...zones.spans].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(...vtimezone(zone, span.min, Math.max(span.max, options.now.getTime() + 2 * 366 * DAY)));
  }
  lines.push(...body, 'END:VCALENDAR');
  let out = '';
  for (const line of lines) out += `${fold(line)}\r\n`;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Components.

function common(entry: ICalEntry, options: ICalOptions, out: string[]): void {
  out.push(
    `UID:calendar-entry-${entry.id}@${options.uidDomain}`,
    `DTSTAMP:${utc(options.now.getTime())}`,
    `CREATED:${utc(entry.createdAt.getTime())}`,
    `LAST-MODIFIED:${utc(entry.updatedAt.getTime())}`,
    `SUMMARY:${escapeText(entry.name)}`,
  );
  if (entry.description !== null && entry.description.trim() !== '') out.push(`DESCRIPTION:${escapeText(entry.description)}`);
  if (entry.category !== null && entry.category.trim() !== '') out.push(`CATEGORIES:${escapeText(entry.category)}`);
  const priority = icalPriority(entry.priority);
  if (priority !== null) out.push(`PRIORITY:${priority}`);
}

/** An event without a start cannot be placed on a calendar (DTSTART is required): left out. */
function writeEvent(entry: ICalEntry, options: ICalOptions, zones: ZoneUsage, out: string[]): void {
  if (entry.start === null || !Number.isFinite(entry.start.getTime())) return;
  const zone = tzidZone(entry.timeZone);
  const start = Math.floor(entry.start.getTime() / 1000) * 1000;
  const end = entry.end !== null && Number.isFinite(entry.end.getTime()) ? Math.floor(entry.end.getTime() / 1000) * 1000 : null;
  out.push('BEGIN:VEVENT');
  common(entry, options, out);
  if (entry.allDay) {
    const startDay = localDay(zone, start);
    out.push(`DTSTART;VALUE=DATE:${dayText(startDay)}`);
    if (end !== null && end >= start) {
      // The end's local date is the last day, unless the end is that date's midnight (exclusive).
      const endFloating = zone.toFloating(end);
      const endDay = Math.floor(endFloating / DAY);
      const exclusive = endFloating % DAY === 0 ? endDay : endDay + 1;
      out.push(`DTEND;VALUE=DATE:${dayText(Math.max(exclusive, startDay + 1))}`);
    }
  } else {
    out.push(zoned('DTSTART', zone, [start], zones));
    if (end !== null && end > start) out.push(zoned('DTEND', zone, [end], zones));
  }
  if (entry.rules) {
    const anchor: SeriesAnchor = { start: new Date(start), timeZone: entry.timeZone, allDay: entry.allDay };
    writeRecurrence(entry.rules, anchor, zone, zones, out);
  }
  out.push('END:VEVENT');
}

function writeTodo(entry: ICalEntry, options: ICalOptions, out: string[]): void {
  out.push('BEGIN:VTODO');
  common(entry, options, out);
  const due = entry.dueDate !== null ? parseDay(entry.dueDate) : null;
  if (due !== null) {
    const zone = tzidZone(entry.timeZone);
    const anchor: SeriesAnchor = { start: new Date(zone.toInstant(due * DAY)), timeZone: entry.timeZone, allDay: true };
    const recurrence: string[] = [];
    if (entry.rules) writeRecurrence(entry.rules, anchor, zone, new ZoneUsage(), recurrence);
    if (recurrence.length) out.push(`DTSTART;VALUE=DATE:${dayText(due)}`);
    out.push(`DUE;VALUE=DATE:${dayText(due)}`, ...recurrence);
  }
  if (entry.complete) {
    const at = entry.completedAt ?? entry.updatedAt;
    out.push('STATUS:COMPLETED', `COMPLETED:${utc(at.getTime())}`, 'PERCENT-COMPLETE:100');
  } else {
    out.push('STATUS:NEEDS-ACTION');
  }
  out.push('END:VTODO');
}

function writeRecurrence(rules: RecurrenceRules, anchor: SeriesAnchor, zone: TimeZone, zones: ZoneUsage, out: string[]): void {
  let recurrence;
  try {
    recurrence = recurrenceForExport(rules, anchor);
  } catch {
    return; // not a usable rule any more: the entry stands alone
  }
  if (!recurrence) return;
  if (recurrence.rrule) out.push(`RRULE:${recurrence.rrule}`);
  // EXRULE is deprecated by RFC 5545 but still read by most readers (RFC 2445 §4.8.5.2).
  if (recurrence.exrule) out.push(`EXRULE:${recurrence.exrule}`);
  for (const [name, dates] of [
    ['RDATE', recurrence.rdates],
    ['EXDATE', recurrence.exdates],
  ] as const) {
    if (!dates.length) continue;
    const instants = dates.map((d) => d.getTime());
    if (anchor.allDay) out.push(`${name};VALUE=DATE:${[...new Set(instants.map((ms) => dayText(localDay(zone, ms))))].join(',')}`);
    else out.push(zoned(name, zone, instants, zones));
  }
}

/** `NAME;TZID=zone:local,…` or, in UTC, `NAME:…Z,…`. */
function zoned(name: string, zone: TimeZone, instants: readonly number[], zones: ZoneUsage): string {
  if (zone.utc) return `${name}:${instants.map(utc).join(',')}`;
  for (const ms of instants) zones.use(zone.name, ms);
  return `${name};TZID=${zone.name}:${instants.map((ms) => floatingText(zone.toFloating(ms))).join(',')}`;
}

/** v3 priorities are list names; iCalendar wants 1 (highest) … 9 (lowest). Unknown names: none. */
function icalPriority(priority: string | null): number | null {
  if (priority === null) return null;
  const name = priority.trim().toLowerCase();
  if (/^[0-9]$/.test(name)) return Number(name);
  if (['urgent', 'highest', 'critical'].includes(name)) return 1;
  if (name === 'high') return 3;
  if (['medium', 'normal'].includes(name)) return 5;
  if (name === 'low') return 7;
  if (name === 'lowest') return 9;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Zones and times.

/** The zone by its canonical IANA name (TZID); an unknown zone (bad data) is written as UTC. */
function tzidZone(name: string): TimeZone {
  return isTimeZone(name) ? timeZone(timeZone(name).canonical) : timeZone('UTC');
}

class ZoneUsage {
  readonly spans = new Map<string, { min: number; max: number }>();
  use(zone: string, ms: number): void {
    const span = this.spans.get(zone);
    if (!span) this.spans.set(zone, { min: ms, max: ms });
    else {
      span.min = Math.min(span.min, ms);
      span.max = Math.max(span.max, ms);
    }
  }
}

function localDay(zone: TimeZone, ms: number): number {
  return Math.floor(zone.toFloating(ms) / DAY);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function dayText(day: number): string {
  const d = new Date(day * DAY);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}

function floatingText(f: number): string {
  const d = new Date(f);
  return `${dayText(Math.floor(f / DAY))}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

function utc(ms: number): string {
  return `${floatingText(Math.floor(ms / 1000) * 1000)}Z`;
}

function parseDay(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isFinite(ms) ? Math.floor(ms / DAY) : null;
}

// ---------------------------------------------------------------------------------------------
// VTIMEZONE.

interface Shape {
  readonly month: number;
  readonly weekday: number; // 0 = MO
  readonly time: number; // ms since local midnight (in the `from` offset)
  readonly from: number;
  readonly to: number;
}

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
/** Consecutive years the same changes must recur in before they are written as a yearly rule. */
const MIN_PATTERN_YEARS = 5;

function localStart(t: Transition): Date {
  return new Date(t.at + t.from);
}

function shapeOf(t: Transition): Shape {
  const d = localStart(t);
  return {
    month: d.getUTCMonth() + 1,
    weekday: (d.getUTCDay() + 6) % 7,
    time: (((t.at + t.from) % DAY) + DAY) % DAY,
    from: t.from,
    to: t.to,
  };
}

function sameShape(a: Shape, b: Shape): boolean {
  return a.month === b.month && a.weekday === b.weekday && a.time === b.time && a.from === b.from && a.to === b.to;
}

/**
 * The zone's VTIMEZONE for instants in [from, to]: a first component fixing the offset at the
 * start of the span (readers such as ical.js take offset 0 before the first component), every
 * transition before the zone's current yearly pattern as its own component, and that pattern (found
 * by walking back from six years past the span while each year's changes have the same month,
 * weekday, time and offsets, their days always within one week of the month, for at least
 * MIN_PATTERN_YEARS years) as RRULEs with no end. A zone without DST now keeps its last offset; a
 * zone without a yearly pattern (Africa/Casablanca) is exact through the six years past the span.
 */
function vtimezone(name: string, from: number, to: number): string[] {
  const zone = timeZone(name);
  const startYear = new Date(from).getUTCFullYear() - 1;
  const lastYear = new Date(to).getUTCFullYear() + 6;
  const spanStart = Date.UTC(startYear, 0, 1);
  const all = zone.transitions(spanStart, Date.UTC(lastYear + 1, 0, 1));
  const byYear = new Map<number, Transition[]>();
  for (const t of all) {
    const year = localStart(t).getUTCFullYear();
    byYear.set(year, [...(byYear.get(year) ?? []), t]);
  }

  // The current yearly pattern, if the zone has one.
  const latest = byYear.get(lastYear) ?? [];
  const shapes = latest.map(shapeOf);
  const windows = latest.map(() => ({ lo: 1, hi: 31, last: true }));
  let patternYear = lastYear + 1;
  if (latest.length > 0) {
    for (let year = lastYear; year >= startYear; year--) {
      const list = byYear.get(year) ?? [];
      if (list.length !== latest.length || !list.every((t, i) => sameShape(shapeOf(t), shapes[i]))) break;
      const next = list.map((t, i) => {
        const day = localStart(t).getUTCDate();
        const dim = new Date(Date.UTC(year, shapes[i].month, 0)).getUTCDate();
        return { lo: Math.max(windows[i].lo, day - 6), hi: Math.min(windows[i].hi, day), last: windows[i].last && day > dim - 7 };
      });
      if (next.some((w) => w.lo > w.hi && !w.last)) break;
      next.forEach((w, i) => (windows[i] = w));
      patternYear = year;
    }
    // A "pattern" seen for only a year or two (zones whose changes follow a lunar calendar) is not
    // one: such zones get their transitions one by one, through the years scanned.
    if (lastYear - patternYear + 1 < MIN_PATTERN_YEARS) patternYear = lastYear + 1;
  }

  const lines = ['BEGIN:VTIMEZONE', `TZID:${name}`];
  const component = (t: Transition, rrule: string | null) => {
    const kind = zone.isDaylight(t.at) ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${floatingText(t.at + t.from)}`,
      `TZOFFSETFROM:${formatOffset(t.from, true)}`,
      `TZOFFSETTO:${formatOffset(t.to, true)}`,
    );
    const abbreviation = ['en-US', 'en-GB'].map((locale) => zone.abbreviation(t.at, locale)).find((text) => text && /^[A-Z]{2,6}$/.test(text));
    if (abbreviation) lines.push(`TZNAME:${abbreviation}`);
    if (rrule) lines.push(`RRULE:${rrule}`);
    lines.push(`END:${kind}`);
  };
  const initial = zone.offsetMs(spanStart);
  component({ at: spanStart - initial, from: initial, to: initial }, null);
  for (const t of all) if (localStart(t).getUTCFullYear() < patternYear) component(t, null);
  if (patternYear <= lastYear) {
    (byYear.get(patternYear) ?? []).forEach((t, i) => {
      const { month, weekday } = shapes[i];
      const w = windows[i];
      const nth = w.lo <= w.hi ? [1, 2, 3, 4].find((n) => w.lo <= 7 * (n - 1) + 1 && 7 * (n - 1) + 1 <= w.hi) : undefined;
      const byday =
        nth !== undefined
          ? `BYDAY=${nth}${WEEKDAYS[weekday]}`
          : w.last
            ? `BYDAY=-1${WEEKDAYS[weekday]}`
            : `BYMONTHDAY=${Array.from({ length: 7 }, (_, k) => w.lo + k).join(',')};BYDAY=${WEEKDAYS[weekday]}`;
      component(t, `FREQ=YEARLY;BYMONTH=${month};${byday}`);
    });
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Text.

const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** RFC 5545 §3.3.11 TEXT: `\` `;` `,` escaped, any newline as `\n`, other control characters dropped. */
export function escapeText(text: string): string {
  return text
    .replace(LONE_SURROGATES, '\uFFFD')
    .replace(CONTROLS, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** RFC 5545 §3.1: lines of at most 75 octets, continued with CRLF and a space, never inside a UTF-8 character. */
export function fold(line: string): string {
  if (line.length <= 75 && !/[^\u0000-\u007F]/.test(line)) return line;
  const parts: string[] = [];
  let begin = 0;
  let bytes = 0;
  let limit = 75;
  for (let i = 0; i < line.length;) {
    const cp = line.codePointAt(i)!;
    const width = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    const units = cp >= 0x10000 ? 2 : 1;
    if (bytes + width > limit) {
      parts.push(line.slice(begin, i));
      begin = i;
      bytes = 0;
      limit = 74; // the continuation's leading space is one of its 75 octets
    }
    bytes += width;
    i += units;
  }
  parts.push(line.slice(begin));
  return parts.join('\r\n ');
}
