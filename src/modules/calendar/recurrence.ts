/**
 * RFC 5545 recurrence for calendar series (v3 §2.1 `rrule`, `rdate`, `exrule`, `exdate`; DECISIONS
 * "States": recurrences are stored as entries of their own up to `recurrence_end` or a bounded
 * horizon, never unbounded). Pure: no database, no clock (callers pass `until` / windows).
 *
 * The recurrence set is RFC 5545's: the base entry's start (DTSTART, always the first occurrence:
 * it is a stored entry) ∪ RRULE ∪ RDATE, minus EXRULE and EXDATE. The base itself is never removed.
 *
 * Time zones. A series recurs in its anchor's IANA zone: "every Monday 09:00 Europe/Paris" stays at
 * 09:00 Paris time across a DST change, so its UTC instant moves. rrule's own `tzid` support hands
 * back dates in a "UTC fields are the local time" form that is easy to get wrong, so it is not used:
 * rules are expanded in *floating* time (local wall-clock fields stored in a Date's UTC fields, no
 * tzid) and each occurrence is turned into an instant by the time-zone engine (src/common/zones.ts),
 * with RFC 5545 §3.3.5's rules for wall times a DST change skips (the offset before the gap: 02:30
 * → 03:30) or repeats (the first one).
 *
 * Input (keys and values case-insensitive; folded lines are unfolded):
 * - `rrule`: `FREQ=WEEKLY;BYDAY=MO,WE`, optionally prefixed `RRULE:`; an optional `DTSTART` line
 *   is accepted only when it names the entry's own start. `exrule` likewise (`EXRULE:` or `RRULE:`).
 * - `rdate` / `exdate`: comma-separated values, optionally `RDATE:` / `EXDATE:` with parameters
 *   (`EXDATE;TZID=Europe/Paris:20261201T090000`, `VALUE=DATE`), several lines allowed. Values:
 *   `YYYYMMDDTHHMMSSZ` (UTC), `YYYYMMDDTHHMMSS` (floating: local time in TZID or the anchor's zone),
 *   `YYYYMMDD` (a date: that day at the anchor's local time of day; as an exdate it removes every
 *   occurrence on that local date), and ISO 8601 (`2026-12-01T09:00:00Z`, `…+01:00`, `2026-12-01
 *   09:00`, `2026-12-01`). In an all-day series every rdate/exdate counts by its local date.
 *
 * Only RRule is used from rrule: the set (RDATE, EXRULE, EXDATE, the base) is assembled here,
 * because RRuleSet would compare exdates in floating time and cannot remove a whole local day.
 *
 * Bounds (CPU and storage; see RECURRENCE_LIMITS and the constants below) keep every call cheap
 * whatever a client sends: COUNT and INTERVAL at most 1000, at most once a day (a rule stored
 * before more was refused still expands, at most 24 times a day), a rule must yield within 100
 * years, dates in years 1 to 9999 (src/common/dates.ts); rrule's own loop is kept bounded
 * (`budgeted`) and enters a rule at the period a window needs (`gridStart`) instead of walking it
 * from its start.
 *
 * Besides the interface the calendar module codes against: `normalizeRecurrence` (the canonical
 * text to store), `occurrencesInSpan` (occurrencesBetween without the window bound) and
 * `recurrenceForExport` (what ical.ts writes).
 */
import { RRule, Weekday, type Options } from 'rrule';
import { daysInMonth, instantProblem } from '../../common/dates';
import { isTimeZone, timeZone, type TimeZone } from '../../common/zones';

export interface RecurrenceRules {
  readonly rrule: string | null;
  readonly rdate: string | null;
  readonly exrule: string | null;
  readonly exdate: string | null;
}

export type RecurrenceField = 'rrule' | 'rdate' | 'exrule' | 'exdate';

/** A rule that cannot be used; `field` names the v3 attribute, `message` says what is wrong in a sentence a user can act on (no library stack text). */
export class RecurrenceInvalid extends Error {
  constructor(
    readonly field: RecurrenceField,
    message: string,
  ) {
    super(message);
    this.name = 'RecurrenceInvalid';
  }
}

/** What a series hangs on: the base entry's start (events: start_time; tasks: due_date at 00:00 in `timeZone`), the IANA zone the series recurs in (wall-clock times stay put across DST), all-day or not. */
export interface SeriesAnchor {
  readonly start: Date;
  readonly timeZone: string;
  readonly allDay: boolean;
}

/**
 * - maxOccurrences: default (and suggested) cap on the occurrences one call returns / a series stores.
 * - horizonDays: how far past the clock's now an open series is stored (the caller passes `until`).
 * - maxRuleLength: characters of `rrule` / `exrule` text.
 * - maxDates: values in one `rdate` / `exdate`.
 * - windowDays: the widest `occurrencesBetween` window.
 */
export const RECURRENCE_LIMITS: {
  readonly maxOccurrences: number;
  readonly horizonDays: number;
  readonly maxRuleLength: number;
  readonly maxDates: number;
  readonly windowDays: number;
} = Object.freeze({ maxOccurrences: 366, horizonDays: 730, maxRuleLength: 1000, maxDates: 366, windowDays: 366 });

/** COUNT above this is refused (the series stores at most maxOccurrences anyway). */
const MAX_COUNT = 1000;
const MAX_INTERVAL = 1000;
/**
 * Times of day a stored rule may produce (|BYHOUR| × |BYMINUTE| × |BYSECOND|): a rule written now
 * gives one (see compileRule); rules stored before that was refused still expand, within this.
 */
const MAX_TIMES_PER_DAY = 24;
/**
 * The farthest any single computation looks past its starting point: a rule must yield its first
 * occurrence within it, a COUNT rule must end within it, and an UNTIL beyond it counts as open.
 */
const SEARCH_YEARS = 100;
/** Raw characters of one rdate/exdate text (values with parameters run to ~40 characters). */
const MAX_DATES_TEXT = RECURRENCE_LIMITS.maxDates * 64;

const SECOND = 1000;
const DAY = 86_400_000;
const SEARCH_SPAN = Math.round(SEARCH_YEARS * 365.2425) * DAY;
/** Slack around floating bounds: more than any UTC offset or DST shift. */
const SLACK = DAY;
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const FREQS = { YEARLY: RRule.YEARLY, MONTHLY: RRule.MONTHLY, WEEKLY: RRule.WEEKLY, DAILY: RRule.DAILY } as const;
type Freq = keyof typeof FREQS;
/** Shortest length of one period of each frequency, in days (budgets count periods). */
const PERIOD_DAYS: Record<Freq, number> = { YEARLY: 365, MONTHLY: 28, WEEKLY: 7, DAILY: 1 };

// ---------------------------------------------------------------------------------------------
// Floating time: local wall-clock fields kept in a UTC millisecond number.

function dayOf(f: number): number {
  return Math.floor(f / DAY);
}

/** Monday 0 … Sunday 6 (rrule's numbering) of a floating day number (day 0 was a Thursday). */
function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

function floating(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `YYYYMMDD` of a floating day number. */
function formatDay(day: number): string {
  const d = new Date(day * DAY);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}

/** `YYYYMMDDTHHMMSS` of floating ms (append `Z` for UTC). */
function formatFloating(f: number): string {
  const d = new Date(f);
  return `${formatDay(dayOf(f))}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

function formatUtc(ms: number): string {
  return `${formatFloating(ms)}Z`;
}

// ---------------------------------------------------------------------------------------------
// Date values (rdate, exdate, UNTIL, DTSTART).

type DateValue =
  { readonly kind: 'instant'; readonly ms: number } | { readonly kind: 'floating'; readonly f: number } | { readonly kind: 'date'; readonly day: number };

const BASIC = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** One value, or null when it is not a date or date-time (or names a day that does not exist). */
function parseDateValue(raw: string): DateValue | null {
  const text = raw.trim().toUpperCase();
  const m = BASIC.exec(text) ?? ISO.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  if (m[4] === undefined) return { kind: 'date', day: dayOf(floating(y, mo, d)) };
  const [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return null;
  const f = floating(y, mo, d, h, mi, s);
  const zone = m[7];
  if (zone === undefined) return { kind: 'floating', f };
  if (zone === 'Z') return { kind: 'instant', ms: f };
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
  if (minutes > 18 * 60) return null;
  return { kind: 'instant', ms: f - sign * minutes * 60_000 };
}

interface PropertyLine {
  readonly name: string | null; // null: a bare value without `NAME:`
  readonly params: ReadonlyMap<string, string>;
  readonly value: string;
}

const PROPERTY = /^([A-Za-z][A-Za-z0-9-]*)((?:;[^:]*)?):(.*)$/;

/** Lines of a field, unfolded (RFC 5545 §3.1), each split into name, parameters and value. */
function propertyLines(text: string): PropertyLine[] {
  const lines: PropertyLine[] = [];
  for (const line of text.replace(/\r\n[ \t]|\n[ \t]|\r[ \t]/g, '').split(/\r\n|\n|\r/)) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const m = PROPERTY.exec(trimmed);
    if (!m) {
      lines.push({ name: null, params: new Map(), value: trimmed });
      continue;
    }
    const params = new Map<string, string>();
    for (const param of m[2].split(';').slice(1)) {
      const eq = param.indexOf('=');
      const key = (eq < 0 ? param : param.slice(0, eq)).trim().toUpperCase();
      if (key)
        params.set(
          key,
          eq < 0
            ? ''
            : param
                .slice(eq + 1)
                .trim()
                .replace(/^"(.*)"$/, '$1'),
        );
    }
    lines.push({ name: m[1].toUpperCase(), params, value: m[3].trim() });
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// The compiled series.

interface Ctx {
  readonly zone: TimeZone;
  readonly zoneName: string;
  readonly allDay: boolean;
  /** The anchor exactly as given (the base's own start). */
  readonly baseMs: number;
  /** The anchor to the second: rules run from here. */
  readonly startMs: number;
  readonly startF: number;
  readonly startDay: number;
  /** Local time of day of the anchor (ms since local midnight). */
  readonly timeOfDay: number;
}

interface CompiledRule {
  readonly field: 'rrule' | 'exrule';
  /** Normalised body (`FREQ=…;…`, no prefix; UNTIL in UTC, or a date in an all-day series). */
  readonly text: string;
  readonly freq: Freq;
  readonly interval: number;
  readonly count: number | null;
  /** Timed series: the last instant UNTIL allows. */
  readonly untilMs: number | null;
  /** All-day series: the last local day UNTIL allows. */
  readonly untilDay: number | null;
  readonly wkst: number;
  /** rrule options with every default RFC 5545 takes from DTSTART made explicit (so any grid start gives the same set). */
  readonly options: Partial<Options>;
}

interface Compiled {
  readonly ctx: Ctx;
  readonly rrule: CompiledRule | null;
  readonly exrule: CompiledRule | null;
  /** Instants added by RDATE (sorted, unique, after the base). */
  readonly rdates: readonly number[];
  /** Instants EXDATE removes (timed series). */
  readonly exInstants: ReadonlySet<number>;
  /** Local days EXDATE removes (date-only exdates; every exdate in an all-day series). */
  readonly exDays: ReadonlySet<number>;
  readonly normalized: RecurrenceRules;
}

function blank(text: string | null | undefined): boolean {
  return text === null || text === undefined || text.trim() === '';
}

/** True when rrule or rdate is non-blank (exrule/exdate alone make no series). */
export function hasRecurrence(rules: RecurrenceRules): boolean {
  return !blank(rules.rrule) || !blank(rules.rdate);
}

function makeCtx(anchor: SeriesAnchor, rules: RecurrenceRules): Ctx {
  const baseMs = anchor.start instanceof Date ? anchor.start.getTime() : Number.NaN;
  if (!Number.isFinite(baseMs)) throw new RangeError('The series anchor has no valid start');
  const zone = timeZone(anchor.timeZone);
  const startMs = Math.floor(baseMs / SECOND) * SECOND;
  const startF = zone.toFloating(startMs);
  const year = new Date(startF).getUTCFullYear();
  if ((year < 1900 || year > 9000) && hasRecurrence(rules)) {
    const field: RecurrenceField = blank(rules.rrule) && !blank(rules.rdate) ? 'rdate' : 'rrule';
    throw new RecurrenceInvalid(field, 'A recurring entry must start between the years 1900 and 9000.');
  }
  const startDay = dayOf(startF);
  return {
    zone,
    zoneName: anchor.timeZone,
    allDay: anchor.allDay,
    baseMs,
    startMs,
    startF,
    startDay,
    timeOfDay: startF - startDay * DAY,
  };
}

/**
 * `probe`: the rules are being written (checkRecurrence, normalizeRecurrence), so every check of
 * new input applies (a rule yields, at most once a day; its dates in years 1 to 9999); false for
 * rules already stored, which are expanded as they are.
 */
function compile(rules: RecurrenceRules, anchor: SeriesAnchor, probe: boolean): Compiled {
  const ctx = makeCtx(anchor, rules);
  // Field by field in v3 order, so the error names the first bad one.
  const rrule = blank(rules.rrule) ? null : compileRule('rrule', rules.rrule!, ctx, probe);
  if (probe && rrule) probeRule(rrule, ctx);

  const rdate = blank(rules.rdate) ? null : parseDates('rdate', rules.rdate!, ctx, probe);
  const rdates: number[] = [];
  for (const value of rdate?.values ?? []) {
    const ms = valueInstant(value, ctx);
    if (ms < ctx.startMs) {
      throw new RecurrenceInvalid(
        'rdate',
        `rdate ${describeInstant(ms, ctx)} is before the series starts (${describeInstant(ctx.startMs, ctx)}); the entry's own start is the first occurrence.`,
      );
    }
    if (ms > ctx.startMs) rdates.push(ms);
  }

  const exrule = blank(rules.exrule) ? null : compileRule('exrule', rules.exrule!, ctx, probe);

  const exdate = blank(rules.exdate) ? null : parseDates('exdate', rules.exdate!, ctx, probe);
  const exInstants = new Set<number>();
  const exDays = new Set<number>();
  for (const value of exdate?.values ?? []) {
    const byDay = value.kind === 'date' || ctx.allDay;
    if (byDay ? valueDay(value, ctx) === ctx.startDay : valueInstant(value, ctx) === ctx.startMs) {
      throw new RecurrenceInvalid(
        'exdate',
        `exdate ${exdateText(value, ctx)} removes the series' first occurrence, which is the entry itself; move the entry's start instead.`,
      );
    }
    if (byDay) exDays.add(valueDay(value, ctx));
    else exInstants.add(valueInstant(value, ctx));
  }

  return {
    ctx,
    rrule,
    exrule,
    rdates: [...new Set(rdates)].sort((a, b) => a - b),
    exInstants,
    exDays,
    normalized: {
      rrule: rrule?.text ?? null,
      rdate: rdate ? normalizedDates(rdate.values, ctx, 'rdate') : null,
      exrule: exrule?.text ?? null,
      exdate: exdate ? normalizedDates(exdate.values, ctx, 'exdate') : null,
    },
  };
}

function describeInstant(ms: number, ctx: Ctx): string {
  const f = ctx.zone.toFloating(ms);
  const d = new Date(f);
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return ctx.allDay ? day : `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} ${ctx.zoneName}`;
}

// --- rdate / exdate ----------------------------------------------------------------------------

interface ParsedDates {
  readonly values: readonly DateValue[];
}

/**
 * Why a date of a rule cannot be stored, or null (src/common/dates.ts): what is kept of it must be in
 * years 1 to 9999. A day (an all-day series, a date-only exdate) is kept as that day; an instant
 * is kept in UTC and written with the series' zone (iCalendar TZID): in range in both.
 */
function dateValueProblem(value: DateValue, ctx: Ctx, byDay: boolean): string | null {
  return byDay ? instantProblem(valueDay(value, ctx) * DAY) : instantProblem(valueInstant(value, ctx), ctx.zoneName);
}

/** `strict`: dates being written, checked against the range (stored ones are read as they are). */
function parseDates(field: 'rdate' | 'exdate', text: string, ctx: Ctx, strict: boolean): ParsedDates {
  const own = field.toUpperCase();
  if (text.length > MAX_DATES_TEXT) {
    throw new RecurrenceInvalid(field, `${field} is too long: give at most ${RECURRENCE_LIMITS.maxDates} dates.`);
  }
  const values: DateValue[] = [];
  for (const line of propertyLines(text)) {
    if (line.name !== null && line.name !== own) {
      throw new RecurrenceInvalid(
        field,
        line.name === 'RRULE' || line.name === 'EXRULE'
          ? `${field} holds dates only; put the rule "${line.name}:…" in ${line.name.toLowerCase()}.`
          : `${field} holds ${own} dates only, not ${line.name}.`,
      );
    }
    const valueType = line.params.get('VALUE')?.toUpperCase();
    if (valueType === 'PERIOD' || line.value.includes('/')) {
      throw new RecurrenceInvalid(field, `${field} periods (start/end) are not supported: give start dates or times only.`);
    }
    const tzid = line.params.get('TZID');
    let lineZone: TimeZone | null = null;
    if (tzid !== undefined) {
      if (!isTimeZone(tzid)) {
        throw new RecurrenceInvalid(field, `${field} names an unknown time zone "${tzid}": use an IANA name such as Europe/Paris.`);
      }
      lineZone = timeZone(tzid);
    }
    for (const raw of line.value.split(',')) {
      if (raw.trim() === '') continue;
      const value = parseDateValue(raw);
      if (!value) {
        throw new RecurrenceInvalid(
          field,
          `${field} value "${clip(raw.trim())}" is not a date: use 20261201T090000Z (UTC), 20261201T090000 (local), 20261201, or 2026-12-01T09:00:00Z.`,
        );
      }
      if (valueType === 'DATE' && value.kind !== 'date') {
        throw new RecurrenceInvalid(field, `${field} says VALUE=DATE but "${clip(raw.trim())}" has a time of day.`);
      }
      // A floating time in a TZID line is local to that zone: pin it to an instant now.
      const pinned: DateValue = value.kind === 'floating' && lineZone ? { kind: 'instant', ms: lineZone.toInstant(value.f) } : value;
      const problem = strict ? dateValueProblem(pinned, ctx, ctx.allDay || (field === 'exdate' && pinned.kind === 'date')) : null;
      if (problem) throw new RecurrenceInvalid(field, `${field} value "${clip(raw.trim())}" ${problem}.`);
      values.push(pinned);
      if (values.length > RECURRENCE_LIMITS.maxDates) {
        throw new RecurrenceInvalid(field, `${field} has more than ${RECURRENCE_LIMITS.maxDates} dates.`);
      }
    }
  }
  if (values.length === 0) {
    throw new RecurrenceInvalid(field, `${field} has no dates: give comma-separated dates such as 20261201T090000Z, or leave it empty.`);
  }
  return { values };
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The instant a value stands for: a date is that day at the anchor's local time of day. */
function valueInstant(value: DateValue, ctx: Ctx): number {
  switch (value.kind) {
    case 'instant':
      return ctx.allDay ? ctx.zone.toInstant(dayOf(ctx.zone.toFloating(value.ms)) * DAY + ctx.timeOfDay) : value.ms;
    case 'floating':
      return ctx.zone.toInstant(ctx.allDay ? dayOf(value.f) * DAY + ctx.timeOfDay : value.f);
    case 'date':
      return ctx.zone.toInstant(value.day * DAY + ctx.timeOfDay);
  }
}

/** The local day (in the series zone) a value falls on. */
function valueDay(value: DateValue, ctx: Ctx): number {
  switch (value.kind) {
    case 'instant':
      return dayOf(ctx.zone.toFloating(value.ms));
    case 'floating':
      return dayOf(value.f);
    case 'date':
      return value.day;
  }
}

function exdateText(value: DateValue, ctx: Ctx): string {
  return value.kind === 'date' || ctx.allDay ? formatDay(valueDay(value, ctx)) : formatUtc(valueInstant(value, ctx));
}

/**
 * Stored form: sorted, unique, no prefix. All-day series: `YYYYMMDD`. Timed: instants as
 * `YYYYMMDDTHHMMSSZ`; an exdate given as a date stays a date (it removes that whole local day).
 */
function normalizedDates(values: readonly DateValue[], ctx: Ctx, field: 'rdate' | 'exdate'): string {
  const keyed = new Map<string, number>();
  for (const value of values) {
    if (ctx.allDay || (field === 'exdate' && value.kind === 'date')) {
      const day = valueDay(value, ctx);
      keyed.set(formatDay(day), day * DAY);
    } else {
      const ms = valueInstant(value, ctx);
      keyed.set(formatUtc(ms), ctx.zone.toFloating(ms));
    }
  }
  return [...keyed.entries()]
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
    .map(([text]) => text)
    .join(',');
}

// --- rrule / exrule ----------------------------------------------------------------------------

const RULE_KEYS = [
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
] as const;
type RuleKey = (typeof RULE_KEYS)[number];

function compileRule(field: 'rrule' | 'exrule', source: string, ctx: Ctx, strict: boolean): CompiledRule {
  const fail: (message: string) => never = (message) => {
    throw new RecurrenceInvalid(field, message);
  };
  if (source.length > RECURRENCE_LIMITS.maxRuleLength) {
    fail(`${field} is too long: at most ${RECURRENCE_LIMITS.maxRuleLength} characters.`);
  }
  const own = field.toUpperCase();
  const ruleLines: string[] = [];
  for (const line of propertyLines(source)) {
    if (line.name === null || line.name === own || (field === 'exrule' && line.name === 'RRULE')) {
      ruleLines.push(line.value);
    } else if (line.name === 'DTSTART') {
      checkDtstart(field, line, ctx);
    } else if (line.name === 'RRULE' || line.name === 'EXRULE' || line.name === 'RDATE' || line.name === 'EXDATE') {
      fail(`${field} holds one ${own} only; put ${line.name} in ${line.name.toLowerCase()}.`);
    } else {
      fail(`${field} holds one ${own} only, not ${line.name}.`);
    }
  }
  if (ruleLines.length === 0) fail(`${field} has no rule: give one such as FREQ=WEEKLY;BYDAY=MO,WE.`);
  if (ruleLines.length > 1) fail(`${field} gives ${ruleLines.length} rules: give exactly one (several rules in one series are not supported).`);

  const parts = new Map<RuleKey, string>();
  for (const part of ruleLines[0].split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim().toUpperCase();
    const value =
      eq < 0
        ? ''
        : part
            .slice(eq + 1)
            .trim()
            .toUpperCase();
    if (!(RULE_KEYS as readonly string[]).includes(key)) {
      fail(
        key === 'BYEASTER'
          ? `${field}: BYEASTER is not part of RFC 5545 and is not supported.`
          : `${field}: "${clip(part.trim())}" is not a rule part; use parts such as FREQ=WEEKLY;BYDAY=MO,WE.`,
      );
    }
    if (value === '') fail(`${field}: ${key} needs a value, e.g. ${key}=${example(key as RuleKey)}.`);
    if (parts.has(key as RuleKey)) fail(`${field} gives ${key} twice.`);
    parts.set(key as RuleKey, value);
  }

  const freqText = parts.get('FREQ');
  if (freqText === undefined) fail(`${field} needs FREQ (DAILY, WEEKLY, MONTHLY or YEARLY), e.g. FREQ=WEEKLY;BYDAY=MO.`);
  if (freqText === 'HOURLY' || freqText === 'MINUTELY' || freqText === 'SECONDLY') {
    fail(`${field} cannot repeat ${freqText}: a calendar series repeats at most once a day; use FREQ=DAILY or less often.`);
  }
  if (!Object.hasOwn(FREQS, freqText!)) fail(`${field}: FREQ=${clip(freqText!)} is not a frequency; use DAILY, WEEKLY, MONTHLY or YEARLY.`);
  const freq = freqText as Freq;

  const int = (key: RuleKey, min: number, max: number, signed = false): number[] | null => {
    const raw = parts.get(key);
    if (raw === undefined) return null;
    const values: number[] = [];
    for (const item of raw.split(',')) {
      const m = /^([+-]?)(\d{1,4})$/.exec(item.trim());
      const n = m ? Number(m[2]) * (m[1] === '-' ? -1 : 1) : Number.NaN;
      const ok = m !== null && (signed ? Math.abs(n) >= min && Math.abs(n) <= max : n >= min && n <= max && m[1] !== '-');
      if (!ok) {
        fail(`${field}: ${key}=${clip(raw)} is not valid; each value must be ${signed ? `${min} to ${max} or -${max} to -${min}` : `${min} to ${max}`}.`);
      }
      if (!values.includes(n)) values.push(n);
    }
    return values;
  };
  const single = (key: RuleKey, min: number, max: number): number | null => {
    const raw = parts.get(key);
    if (raw === undefined) return null;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      fail(`${field}: ${key}=${clip(raw)} must be a whole number from ${min} to ${max}.`);
    }
    return Number(raw);
  };

  const interval = single('INTERVAL', 1, MAX_INTERVAL) ?? 1;
  const count = single('COUNT', 1, MAX_COUNT);
  if (count !== null && parts.has('UNTIL')) fail(`${field} gives both COUNT and UNTIL: give one of them.`);
  const bysecond = int('BYSECOND', 0, 59);
  const byminute = int('BYMINUTE', 0, 59);
  const byhour = int('BYHOUR', 0, 23);
  const bymonthday = int('BYMONTHDAY', 1, 31, true);
  const byyearday = int('BYYEARDAY', 1, 366, true);
  const byweekno = int('BYWEEKNO', 1, 53, true);
  const bymonth = int('BYMONTH', 1, 12);
  const bysetpos = int('BYSETPOS', 1, 366, true);

  let wkst = 0;
  const wkstText = parts.get('WKST');
  if (wkstText !== undefined) {
    wkst = (WEEKDAYS as readonly string[]).indexOf(wkstText);
    if (wkst < 0) fail(`${field}: WKST=${clip(wkstText)} must be a weekday (MO, TU, WE, TH, FR, SA or SU).`);
  }

  let byday: Weekday[] | null = null;
  const bydayText = parts.get('BYDAY');
  if (bydayText !== undefined) {
    byday = [];
    const seen = new Set<string>();
    for (const item of bydayText.split(',')) {
      const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item.trim());
      if (!m) fail(`${field}: BYDAY=${clip(bydayText)} is not valid; use weekdays such as MO,WE or, monthly, 1MO or -1FR.`);
      const n = m![1] === undefined ? 0 : Number(m![1]);
      if (m![1] !== undefined) {
        if (freq !== 'MONTHLY' && freq !== 'YEARLY') fail(`${field}: BYDAY=${m![0]} (a numbered weekday) needs FREQ=MONTHLY or YEARLY.`);
        if (freq === 'YEARLY' && byweekno) fail(`${field}: a numbered BYDAY cannot go with BYWEEKNO.`);
        const max = freq === 'MONTHLY' ? 5 : 53;
        if (n === 0 || Math.abs(n) > max) fail(`${field}: BYDAY=${m![0]} must number the weekday from 1 to ${max} or -${max} to -1.`);
      }
      const key = `${n}${m![2]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const weekday = (WEEKDAYS as readonly string[]).indexOf(m![2]);
      byday.push(n === 0 ? new Weekday(weekday) : new Weekday(weekday, n));
    }
  }

  // RFC 5545 §3.3.10 combinations that are not allowed (so the rule exports as valid iCalendar).
  if (byweekno && freq !== 'YEARLY') fail(`${field}: BYWEEKNO needs FREQ=YEARLY.`);
  if (byyearday && freq !== 'YEARLY') fail(`${field}: BYYEARDAY needs FREQ=YEARLY.`);
  if (bymonthday && freq === 'WEEKLY') fail(`${field}: BYMONTHDAY cannot go with FREQ=WEEKLY; use FREQ=MONTHLY.`);
  if (bysetpos && !(byday || bymonthday || byyearday || byweekno || bymonth || byhour || byminute || bysecond)) {
    fail(`${field}: BYSETPOS needs another BY… part to pick from, e.g. BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1.`);
  }
  if (ctx.allDay && (byhour || byminute || bysecond)) {
    fail(`${field}: an all-day series has no time of day; leave out BYHOUR, BYMINUTE and BYSECOND.`);
  }
  // At most once a day, as FREQ=HOURLY… is refused above (docs/calendar.md "Recurring series"). A period (a
  // day, week, month or year; periods never overlap) yields each day its BY… parts allow at each
  // time BYHOUR × BYMINUTE × BYSECOND gives, and BYSETPOS only picks among those: one time of day
  // gives no day two occurrences, whatever FREQ, BYDAY or BYSETPOS say; several times give some day
  // several (BYSETPOS may thin them out, depending on the set: refused alike, one simple rule).
  const times = (byhour?.length ?? 1) * (byminute?.length ?? 1) * (bysecond?.length ?? 1);
  if (strict && times > 1) {
    const lists = (
      [
        ['BYHOUR', byhour],
        ['BYMINUTE', byminute],
        ['BYSECOND', bysecond],
      ] as const
    )
      .filter(([, values]) => values && values.length > 1)
      .map(([key, values]) => `${key}=${values!.join(',')}`);
    fail(
      `${field} gives ${times} times a day (${lists.join(' with ')}): a calendar series repeats at most once a day. ` +
        'Give one value at most in each of BYHOUR, BYMINUTE and BYSECOND (they set the time of day), or make one series per time.',
    );
  }
  if (times > MAX_TIMES_PER_DAY) fail(`${field} gives ${times} times a day; at most ${MAX_TIMES_PER_DAY} are allowed.`);

  let untilMs: number | null = null;
  let untilDay: number | null = null;
  let untilText: string | null = null;
  const untilRaw = parts.get('UNTIL');
  if (untilRaw !== undefined) {
    const value = parseDateValue(untilRaw);
    if (!value) fail(`${field}: UNTIL=${clip(untilRaw)} is not a date; use e.g. UNTIL=20261231T235959Z or UNTIL=20261231.`);
    if (ctx.allDay) {
      untilDay = valueDay(value!, ctx);
      const problem = strict ? instantProblem(untilDay * DAY) : null;
      if (problem) fail(`${field}: UNTIL=${clip(untilRaw)} ${problem}.`);
      untilText = formatDay(untilDay);
      if (untilDay < ctx.startDay) fail(`${field}: UNTIL ${untilText} is before the series starts (${describeInstant(ctx.startMs, ctx)}).`);
    } else {
      // A date UNTIL includes that whole local day; a floating time is local to the series zone.
      untilMs =
        value!.kind === 'instant'
          ? Math.floor(value!.ms / SECOND) * SECOND
          : value!.kind === 'floating'
            ? ctx.zone.toInstant(value!.f)
            : ctx.zone.toInstant((value!.day + 1) * DAY) - SECOND;
      // Kept and written in UTC (iCalendar's UNTIL of a zoned series), so in range there.
      const problem = strict ? instantProblem(untilMs) : null;
      if (problem) fail(`${field}: UNTIL=${clip(untilRaw)} ${problem}.`);
      untilText = formatUtc(untilMs);
      if (untilMs < ctx.startMs) {
        fail(`${field}: UNTIL ${describeInstant(untilMs, ctx)} is before the series starts (${describeInstant(ctx.startMs, ctx)}).`);
      }
    }
  }

  // Normalised text: FREQ first, then the RFC's order, values as parsed.
  const text = RULE_KEYS.filter((key) => parts.has(key))
    .map((key) => {
      switch (key) {
        case 'UNTIL':
          return `UNTIL=${untilText}`;
        case 'BYDAY':
          return `BYDAY=${byday!.map((d) => (d.n ? `${d.n}${WEEKDAYS[d.weekday]}` : WEEKDAYS[d.weekday])).join(',')}`;
        case 'FREQ':
        case 'WKST':
          return `${key}=${parts.get(key)}`;
        case 'INTERVAL':
          return `INTERVAL=${interval}`;
        case 'COUNT':
          return `COUNT=${count}`;
        default: {
          const list = {
            BYSECOND: bysecond,
            BYMINUTE: byminute,
            BYHOUR: byhour,
            BYMONTHDAY: bymonthday,
            BYYEARDAY: byyearday,
            BYWEEKNO: byweekno,
            BYMONTH: bymonth,
            BYSETPOS: bysetpos,
          }[key];
          return `${key}=${list!.join(',')}`;
        }
      }
    })
    .join(';');

  // The defaults RFC 5545 (and rrule's parseOptions) take from DTSTART, made explicit.
  const start = new Date(ctx.startF);
  const options: Partial<Options> = {
    freq: FREQS[freq],
    interval,
    wkst,
    byhour: byhour ?? [start.getUTCHours()],
    byminute: byminute ?? [start.getUTCMinutes()],
    bysecond: bysecond ?? [start.getUTCSeconds()],
    bymonth: bymonth,
    bymonthday: bymonthday,
    byyearday: byyearday,
    byweekno: byweekno,
    byweekday: byday && byday.length ? byday : null,
    bysetpos: bysetpos,
  };
  if (!(byweekno || byyearday || bymonthday || byday)) {
    if (freq === 'YEARLY') {
      options.bymonth = bymonth ?? [start.getUTCMonth() + 1];
      options.bymonthday = [start.getUTCDate()];
    } else if (freq === 'MONTHLY') {
      options.bymonthday = [start.getUTCDate()];
    } else if (freq === 'WEEKLY') {
      options.byweekday = [new Weekday(weekdayOf(ctx.startDay))];
    }
  }
  return { field, text, freq, interval, count, untilMs, untilDay, wkst, options };
}

function example(key: RuleKey): string {
  const examples: Record<RuleKey, string> = {
    FREQ: 'WEEKLY',
    UNTIL: '20261231T235959Z',
    COUNT: '10',
    INTERVAL: '2',
    BYSECOND: '0',
    BYMINUTE: '30',
    BYHOUR: '9',
    BYDAY: 'MO,WE',
    BYMONTHDAY: '15',
    BYYEARDAY: '100',
    BYWEEKNO: '20',
    BYMONTH: '6',
    BYSETPOS: '-1',
    WKST: 'MO',
  };
  return examples[key];
}

function checkDtstart(field: 'rrule' | 'exrule', line: PropertyLine, ctx: Ctx): void {
  const value = parseDateValue(line.value);
  if (!value) throw new RecurrenceInvalid(field, `${field}: DTSTART "${clip(line.value)}" is not a date.`);
  const tzid = line.params.get('TZID');
  if (tzid !== undefined && !isTimeZone(tzid)) {
    throw new RecurrenceInvalid(field, `${field}: DTSTART names an unknown time zone "${tzid}".`);
  }
  const matches =
    value.kind === 'date' || ctx.allDay
      ? valueDay(value.kind === 'floating' && tzid ? { kind: 'instant', ms: timeZone(tzid).toInstant(value.f) } : value, ctx) === ctx.startDay
      : (value.kind === 'instant' ? value.ms : (tzid ? timeZone(tzid) : ctx.zone).toInstant(value.f)) === ctx.startMs;
  if (!matches) {
    throw new RecurrenceInvalid(
      field,
      `${field}: DTSTART ${clip(line.value)} differs from the entry's start (${describeInstant(ctx.startMs, ctx)}); leave DTSTART out: the series starts at the entry's start.`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Expansion.

/**
 * rrule 2.8's loop (`iter`) checks its bounds (UNTIL, the window end) only when a period yields a
 * candidate, so a rule whose BY… parts match nothing any more (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30)
 * walks period by period to the year 9999 (seconds of CPU). The loop does read `options.interval`
 * once at the start, then twice per period: the `interval === 0` exit test after each period, and
 * the step to the next. Answering 0 to that exit test once `periods` periods are done stops it
 * there, keeping what was found. Pinned by tests (rrule is pinned at 2.8.1).
 */
function budgeted(rule: RRule, periods: number): RRule {
  let reads = 0;
  let spent = false;
  // A copy with one getter rather than a Proxy: the loop reads the other options per day, and a
  // Proxy trap on every read would slow it several times over.
  const options = { ...rule.options };
  const interval = options.interval;
  Object.defineProperty(options, 'interval', {
    enumerable: true,
    get() {
      reads += 1;
      if (spent || (reads % 2 === 0 && reads / 2 >= periods)) spent = true;
      return spent ? 0 : interval;
    },
  });
  rule.options = options;
  return rule;
}

/**
 * Where rrule may start iterating for occurrences at or after floating time `targetF`: the start
 * of the period (on the rule's own grid of INTERVAL × FREQ periods from DTSTART) holding it. With
 * every DTSTART default explicit, a rule started there yields exactly the original rule's
 * occurrences from that period on. Not for COUNT rules (the count starts at DTSTART).
 */
function gridStart(rule: CompiledRule, ctx: Ctx, targetF: number): number {
  if (rule.count !== null || targetF <= ctx.startF) return ctx.startF;
  const n = rule.interval;
  const targetDay = dayOf(targetF);
  switch (rule.freq) {
    case 'DAILY': {
      const k = Math.floor((targetDay - ctx.startDay) / n);
      return k < 1 ? ctx.startF : (ctx.startDay + k * n) * DAY;
    }
    case 'WEEKLY': {
      const weekStart = ctx.startDay - ((weekdayOf(ctx.startDay) - rule.wkst + 7) % 7);
      const k = Math.floor((targetDay - weekStart) / (7 * n));
      return k < 1 ? ctx.startF : (weekStart + 7 * n * k) * DAY;
    }
    case 'MONTHLY': {
      const s = new Date(ctx.startF);
      const t = new Date(targetF);
      const startMonth = s.getUTCFullYear() * 12 + s.getUTCMonth();
      const k = Math.floor((t.getUTCFullYear() * 12 + t.getUTCMonth() - startMonth) / n);
      const month = startMonth + k * n;
      return k < 1 ? ctx.startF : floating(Math.floor(month / 12), (month % 12) + 1, 1);
    }
    case 'YEARLY': {
      const startYear = new Date(ctx.startF).getUTCFullYear();
      const k = Math.floor((new Date(targetF).getUTCFullYear() - startYear) / n);
      return k < 1 ? ctx.startF : floating(startYear + k * n, 1, 1);
    }
  }
}

/** Periods rrule must walk from `fromF` to cover `toF`, never more than SEARCH_YEARS' worth. */
function periodsFor(rule: CompiledRule, fromF: number, toF: number): number {
  const days = PERIOD_DAYS[rule.freq];
  const needed = Math.floor((toF - fromF) / DAY / (days * rule.interval)) + 3;
  const cap = Math.floor(SEARCH_SPAN / DAY / days) + 3;
  return Math.max(3, Math.min(needed, cap));
}

/** The last floating time rrule can represent (its loop stops in the year 9999). */
const MAX_FLOATING = floating(9999, 12, 31, 23, 59, 59);

interface Hit {
  readonly ms: number;
  readonly f: number;
}

/**
 * Occurrences of one rule with lo <= instant <= hi (and within its UNTIL), in order, at most
 * `limit`. Never before the anchor; never more than SEARCH_YEARS past where it starts looking.
 */
function ruleHits(rule: CompiledRule, ctx: Ctx, lo: number, hi: number, limit: number): Hit[] {
  lo = Math.max(lo, ctx.startMs);
  if (rule.untilMs !== null) hi = Math.min(hi, rule.untilMs);
  if (hi < lo || limit <= 0) return [];
  const fromF = ctx.zone.toFloating(lo) - SLACK;
  let toF = Math.min(ctx.zone.toFloating(Math.min(hi, 8.64e15 - SLACK)) + SLACK, MAX_FLOATING);
  if (rule.untilDay !== null) toF = Math.min(toF, (rule.untilDay + 1) * DAY - SECOND);
  if (toF < fromF) return [];
  const dtstart = gridStart(rule, ctx, fromF);
  const rr = budgeted(
    new RRule({ ...rule.options, dtstart: new Date(dtstart), count: rule.count, until: new Date(toF) }, true),
    periodsFor(rule, dtstart, toF),
  );
  const hits: Hit[] = [];
  rr.between(new Date(Math.max(fromF, dtstart)), new Date(toF), true, (date) => {
    const f = date.getTime();
    const ms = ctx.zone.toInstant(f);
    if (ms >= lo && ms <= hi && (rule.untilDay === null || dayOf(f) <= rule.untilDay)) {
      hits.push({ ms, f });
      if (hits.length >= limit) return false;
    }
    return true;
  });
  return hits.sort((a, b) => a.ms - b.ms);
}

function excluded(c: Compiled, hit: Hit, exrule: ReadonlySet<number>): boolean {
  return c.exInstants.has(hit.ms) || c.exDays.has(dayOf(hit.f)) || exrule.has(c.ctx.allDay ? dayOf(hit.f) : hit.ms);
}

/** EXRULE's occurrences in [lo, hi], as instants (timed) or local days (all-day). */
function exruleSet(c: Compiled, lo: number, hi: number): Set<number> {
  if (!c.exrule) return new Set();
  return new Set(ruleHits(c.exrule, c.ctx, lo, hi, Number.POSITIVE_INFINITY).map((h) => (c.ctx.allDay ? dayOf(h.f) : h.ms)));
}

/**
 * The series' occurrences other than the base (instants after the anchor's second) with
 * lo <= instant <= hi, after RDATE and the exclusions, in order, at most `limit`.
 */
function others(c: Compiled, lo: number, hi: number, limit: number): number[] {
  const { ctx } = c;
  lo = Math.max(lo, ctx.startMs + SECOND);
  if (hi < lo || limit <= 0) return [];
  const found = new Set<number>();
  if (c.rrule) {
    // Pages of rule occurrences until `limit` survive the exclusions. Each page is bounded, and
    // the walk stops SEARCH_YEARS past `lo` even if an EXRULE removes everything.
    const page = limit + c.exInstants.size + MAX_TIMES_PER_DAY * c.exDays.size + 1;
    const stop = Math.min(hi, lo + SEARCH_SPAN);
    let cursor = lo;
    while (found.size < limit && cursor <= stop) {
      const hits = ruleHits(c.rrule, ctx, cursor, stop, Number.isFinite(page) ? page : limit);
      if (hits.length === 0) break;
      const ex = exruleSet(c, hits[0].ms, hits[hits.length - 1].ms);
      for (const hit of hits) if (!excluded(c, hit, ex) && hit.ms > ctx.startMs) found.add(hit.ms);
      if (hits.length < page) break;
      cursor = hits[hits.length - 1].ms + SECOND;
    }
  }
  if (c.rdates.length) {
    const inRange = c.rdates.filter((ms) => ms >= lo && ms <= hi);
    if (inRange.length) {
      const ex = exruleSet(c, inRange[0], inRange[inRange.length - 1]);
      for (const ms of inRange) if (!excluded(c, { ms, f: ctx.zone.toFloating(ms) }, ex)) found.add(ms);
    }
  }
  return [...found].sort((a, b) => a - b).slice(0, limit);
}

/**
 * The same rule walked a year per period when that is equivalent: FREQ=DAILY (INTERVAL 1, no
 * BYSETPOS) is "every day the BY… parts allow", which FREQ=YEARLY with the same parts (and every
 * month day when no day part is given) yields in the same order. rrule's cost is mostly per
 * period, so a rule that matches nothing is walked for a century several times faster.
 */
function yearlyEquivalent(rule: CompiledRule): CompiledRule {
  const { options } = rule;
  if (rule.freq !== 'DAILY' || rule.interval !== 1 || options.bysetpos) return rule;
  const allDays = Array.from({ length: 31 }, (_, i) => i + 1);
  return {
    ...rule,
    freq: 'YEARLY',
    options: { ...options, freq: RRule.YEARLY, bymonthday: options.bymonthday ?? (options.byweekday ? null : allDays) },
  };
}

function probeRule(rule: CompiledRule, ctx: Ctx): void {
  const hits = ruleHits(yearlyEquivalent(rule), ctx, ctx.startMs, ctx.startMs + SEARCH_SPAN, rule.count ?? 1);
  if (hits.length === 0) {
    throw new RecurrenceInvalid(
      rule.field,
      `${rule.field} yields no occurrence${rule.count === null && rule.untilMs === null && rule.untilDay === null ? ` within ${SEARCH_YEARS} years` : ''} from the entry's start (${describeInstant(ctx.startMs, ctx)}): check its BY… parts, INTERVAL and UNTIL against that start.`,
    );
  }
  if (rule.count !== null && hits.length < rule.count) {
    throw new RecurrenceInvalid(
      rule.field,
      `${rule.field}: COUNT=${rule.count} would run more than ${SEARCH_YEARS} years; give a smaller COUNT, or leave it out for an open series.`,
    );
  }
}

function instantOf(date: Date, name: string): number {
  const ms = date instanceof Date ? date.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`${name} is not a valid date`);
  return ms;
}

function maxOf(max: number | undefined): number {
  const n = max ?? RECURRENCE_LIMITS.maxOccurrences;
  if (!Number.isFinite(n) || n < 0) throw new RangeError('max must be a non-negative number');
  return Math.floor(n);
}

// ---------------------------------------------------------------------------------------------
// The public surface.

/** Validates all four against the anchor; throws RecurrenceInvalid naming the first bad field (in the order rrule, rdate, exrule, exdate). */
export function checkRecurrence(rules: RecurrenceRules, anchor: SeriesAnchor): void {
  compile(rules, anchor, true);
}

/**
 * The four fields as they should be stored: validated like `checkRecurrence`, then written
 * canonically (blank → null; no `RRULE:`/`RDATE:` prefixes or parameters; rule parts in RFC order
 * with UNTIL in UTC `…Z`, or `YYYYMMDD` in an all-day series; dates sorted and unique, as UTC
 * `YYYYMMDDTHHMMSSZ` or `YYYYMMDD`). Normalising twice changes nothing.
 */
export function normalizeRecurrence(rules: RecurrenceRules, anchor: SeriesAnchor): RecurrenceRules {
  return compile(rules, anchor, true).normalized;
}

/** Starts of the occurrences AFTER the base's own (the base is the first occurrence and is not returned), in order, up to `until` (inclusive) and the rule's own end (UNTIL/COUNT), at most `max` (default maxOccurrences). EXRULE/EXDATE remove occurrences; RDATE adds. */
export function expandSeries(rules: RecurrenceRules, anchor: SeriesAnchor, options: { readonly until: Date; readonly max?: number }): Date[] {
  const until = instantOf(options.until, 'until');
  const max = maxOf(options.max);
  if (!hasRecurrence(rules)) return [];
  const c = compile(rules, anchor, false);
  return others(c, c.ctx.startMs, until, max).map((ms) => new Date(ms));
}

/** Every occurrence start (the base's own included when it falls inside) with from <= start < to; throws RangeError when to - from exceeds windowDays. */
export function occurrencesBetween(rules: RecurrenceRules, anchor: SeriesAnchor, from: Date, to: Date, max?: number): Date[] {
  const lo = instantOf(from, 'from');
  const hi = instantOf(to, 'to');
  if (hi - lo > RECURRENCE_LIMITS.windowDays * DAY) {
    throw new RangeError(`An occurrence window may span at most ${RECURRENCE_LIMITS.windowDays} days`);
  }
  return between(rules, anchor, lo, hi, maxOf(max));
}

/**
 * occurrencesBetween without its window bound, for callers that bound the span themselves (e.g. a
 * window widened by an event's duration): occurrence starts with from <= start < to.
 */
export function occurrencesInSpan(rules: RecurrenceRules, anchor: SeriesAnchor, from: Date, to: Date, max?: number): Date[] {
  return between(rules, anchor, instantOf(from, 'from'), instantOf(to, 'to'), maxOf(max));
}

function between(rules: RecurrenceRules, anchor: SeriesAnchor, lo: number, hi: number, max: number): Date[] {
  const base = instantOf(anchor.start, 'anchor.start');
  if (hi <= lo || max <= 0) return [];
  const starts: number[] = base >= lo && base < hi ? [base] : [];
  if (hasRecurrence(rules)) {
    const c = compile(rules, anchor, false);
    starts.push(...others(c, lo, hi - 1, max - starts.length));
  }
  return starts.slice(0, max).map((ms) => new Date(ms));
}

/** The last occurrence's start when the rule ends (UNTIL or COUNT, and no open-ended rrule), else null (an open series: stored occurrences stop at the horizon). An UNTIL more than 100 years after the start counts as open. */
export function seriesEnd(rules: RecurrenceRules, anchor: SeriesAnchor): Date | null {
  if (!hasRecurrence(rules)) return null;
  const c = compile(rules, anchor, false);
  const { ctx, rrule } = c;
  let last = ctx.baseMs;
  const lastRdate = others({ ...c, rrule: null }, ctx.startMs, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY).pop();
  if (lastRdate !== undefined) last = Math.max(last, lastRdate);
  if (!rrule) return new Date(last);
  if (rrule.count !== null) {
    const all = others({ ...c, rdates: [] }, ctx.startMs, ctx.startMs + SEARCH_SPAN, rrule.count);
    return new Date(Math.max(last, all[all.length - 1] ?? last));
  }
  const end = rrule.untilMs ?? (rrule.untilDay !== null ? ctx.zone.toInstant((rrule.untilDay + 1) * DAY) - SECOND : null);
  if (end === null || end > ctx.startMs + SEARCH_SPAN) return null;
  // The last surviving rule occurrence: look back from UNTIL in widening windows.
  for (let width = 400 * DAY, hi = end; hi > ctx.startMs; width *= 4) {
    const lo = Math.max(ctx.startMs, hi - width);
    const hits = others({ ...c, rdates: [] }, lo, hi, Number.POSITIVE_INFINITY);
    if (hits.length) return new Date(Math.max(last, hits[hits.length - 1]));
    hi = lo - 1;
  }
  return new Date(last);
}

/**
 * What an iCalendar writer needs to state the series so that readers expand it to the same
 * occurrences (see ical.ts): the normalised rules; RDATE instants, with the base added when RRULE
 * does not itself yield it (RFC 5545 leaves an unsynchronised DTSTART undefined and readers drop
 * it); EXDATE instants, a date-only exdate turned into the occurrences it removes. In an all-day
 * series the instants fall at the anchor's local time of day (write them as dates).
 */
export interface ExportedRecurrence {
  readonly rrule: string | null;
  readonly exrule: string | null;
  readonly rdates: readonly Date[];
  readonly exdates: readonly Date[];
}

export function recurrenceForExport(rules: RecurrenceRules, anchor: SeriesAnchor): ExportedRecurrence | null {
  if (!hasRecurrence(rules)) return null;
  const c = compile(rules, anchor, false);
  const { ctx } = c;
  const rdates = [...c.rdates];
  if (c.rrule) {
    const first = ruleHits(c.rrule, ctx, ctx.startMs, ctx.startMs, 1);
    if (first.length === 0) rdates.unshift(ctx.startMs);
  }
  const exdates = new Set<number>();
  const noEx: Compiled = { ...c, exInstants: new Set(), exDays: new Set(), exrule: null };
  for (const ms of c.exInstants) exdates.add(ms);
  for (const day of c.exDays) {
    if (ctx.allDay) {
      exdates.add(ctx.zone.toInstant(day * DAY + ctx.timeOfDay));
      continue;
    }
    const lo = ctx.zone.toInstant(day * DAY);
    const hi = ctx.zone.toInstant((day + 1) * DAY) - 1;
    for (const ms of others(noEx, lo, hi, MAX_TIMES_PER_DAY + c.rdates.length)) {
      if (dayOf(ctx.zone.toFloating(ms)) === day) exdates.add(ms);
    }
  }
  return {
    rrule: c.rrule?.text ?? null,
    exrule: c.exrule?.text ?? null,
    rdates: rdates.map((ms) => new Date(ms)),
    exdates: [...exdates].sort((a, b) => a - b).map((ms) => new Date(ms)),
  };
}
