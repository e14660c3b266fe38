import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';
import { dateProblem, instantProblem, zoneOf } from '../../common/dates';
import { V3InputError } from './input-error';

/**
 * Typed coercion of v3 input values. Each takes the raw decoded value (a string from a form or
 * query, anything from JSON) and the v3 name to blame, and throws V3InputError (422) naming
 * it. Clients send back what they read (DECISIONS: Paths and requests), so the service's own
 * output forms are accepted: `2014/05/19 08:54:59 -0400`, `2014/05/19`, `"5000.00"`.
 */

export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;
export const MAX_ID_LIST = 1000;

const isBlank = (value: unknown): value is null | undefined | '' => value === null || value === undefined || value === '';

function describe(value: unknown): string {
  return Array.isArray(value) ? 'a list' : typeof value === 'object' && value !== null ? 'an object' : typeof value;
}

const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 't', '1', 'yes', 'y', 'on']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'f', '0', 'no', 'n', 'off']);

/**
 * DECISIONS: "Booleans accept true/false/1/0 (strings too)"; also Rails' t/f, yes/no and on/off
 * (an HTML checkbox sends `on`). Blank → null (a form cannot send JSON null).
 */
export function toBoolean(value: unknown, field: string): boolean | null {
  if (isBlank(value)) return null;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  throw new V3InputError(field, 'must be true or false');
}

export interface IntegerRange {
  readonly min?: number;
  readonly max?: number;
}

const INTEGER_TEXT = /^[+-]?\d{1,16}$/;

/**
 * DECISIONS: "Integers accept numeric strings". Floats, exponents and garbage are refused rather
 * than truncated. The default range is GraphQL `Int` (32-bit signed), which is where the value
 * goes; pass a wider `range` (up to the safe-integer range) for e.g. `value_in_cents`.
 */
export function toInteger(value: unknown, field: string, range: IntegerRange = {}): number | null {
  if (isBlank(value)) return null;
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) n = Number(value.trim());
  else throw new V3InputError(field, 'must be an integer');
  if (!Number.isSafeInteger(n)) throw new V3InputError(field, 'must be an integer');
  const min = range.min ?? INT32_MIN;
  const max = range.max ?? INT32_MAX;
  if (n < min || n > max) throw new V3InputError(field, `must be between ${min} and ${max}`);
  return n === 0 ? 0 : n; // no -0
}

/** A record id: a positive 32-bit integer (the columns are `integer`). */
export function toId(value: unknown, field: string): number | null {
  return toInteger(value, field, { min: 1, max: INT32_MAX });
}

/**
 * DECISIONS: Conditions: "Id conditions take one id, a comma-separated list, or an array";
 * form arrays (`person[tag_ids][]=1`) arrive as string lists, each possibly comma-separated.
 * Empty elements are skipped, so `person[tag_ids][]=` clears a set (the Rails idiom); blank → [].
 * Duplicates are dropped (first occurrence kept); more than `max` distinct ids is refused.
 */
export function toIdList(value: unknown, field: string, max: number = MAX_ID_LIST): number[] {
  if (isBlank(value)) return [];
  const items = Array.isArray(value) ? value : [value];
  const seen = new Set<number>();
  const add = (raw: unknown) => {
    if (isBlank(raw)) return;
    const id = toId(typeof raw === 'string' ? raw.trim() : raw, field);
    if (id === null || seen.has(id)) return;
    if (seen.size >= max) throw new V3InputError(field, `has too many ids (maximum is ${max})`);
    seen.add(id);
  };
  for (const item of items) {
    if (typeof item === 'string') for (const part of item.split(',')) add(part);
    else if (typeof item === 'number' || isBlank(item)) add(item);
    else throw new V3InputError(field, 'must be an id or a list of ids');
  }
  return [...seen];
}

/**
 * Text: strings as given (no trimming: whitespace may matter in a description), numbers and
 * booleans stringified (JSON clients send `"zip": 12345`), NUL removed (PostgreSQL text cannot
 * hold it; it would be a 500). Length counts characters (code points), as Rails did.
 */
export function toText(value: unknown, field: string, maxLength: number): string | null {
  if (value === null || value === undefined) return null;
  let text: string;
  if (typeof value === 'string') text = value;
  else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') text = String(value);
  else throw new V3InputError(field, `must be text, not ${describe(value)}`);
  // Stryker disable next-line StringLiteral: includes('') is always true, and the replace is then a no-op
  if (text.includes('\u0000')) text = text.replace(/\u0000/g, '');
  if (text.length > maxLength && countCodePoints(text, maxLength) > maxLength) {
    throw new V3InputError(field, `is too long (maximum is ${maxLength} characters)`);
  }
  return text;
}

function countCodePoints(text: string, stopAfter: number): number {
  let n = 0;
  for (const _ of text) if (++n > stopAfter) break;
  return n;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * A money/decimal value as a canonical string with `scale` decimals (DECISIONS: Responses: deal
 * `value` is a decimal string; input accepts number or string). Rounds half away from zero on the
 * decimal digits as written (not through binary floats: 1.005 → "1.01"), as Rails' BigDecimal
 * did. Thousands separators, currency signs and exponents are refused, not guessed at.
 * `maxIntegerDigits` (13) keeps the value exact in `value_in_cents` (< 2^53).
 */
export function toDecimalString(value: unknown, field: string, scale: number, maxIntegerDigits = 13): string | null {
  if (isBlank(value)) return null;
  let text: string;
  if (typeof value === 'number' && Number.isFinite(value)) {
    text = String(value);
    if (/e/i.test(text)) {
      if (Math.abs(value) >= 1) throw new V3InputError(field, `is too large (at most ${maxIntegerDigits} digits before the decimal point)`);
      text = value.toFixed(Math.min(100, scale + 1)); // tiny: only the rounding digit matters
    }
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    throw new V3InputError(field, 'must be a decimal number');
  }
  const m = DECIMAL_TEXT.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new V3InputError(field, 'must be a decimal number');
  const sign = m[1] === '-' ? '-' : '';
  const intDigits = m[2].replace(/^0+(?=\d)/, '') || '0';
  const fraction = m[3] ?? '';
  if (intDigits.length > maxIntegerDigits) throw new V3InputError(field, `is too large (at most ${maxIntegerDigits} digits before the decimal point)`);
  // Round on the digit string: scaled integer of (int + first `scale` fraction digits), +1 if the next digit ≥ 5.
  let digits = BigInt(intDigits + fraction.padEnd(scale, '0').slice(0, scale));
  if ((fraction[scale] ?? '0') >= '5') digits += 1n;
  let out = digits.toString().padStart(scale + 1, '0');
  if (scale > 0) out = `${out.slice(0, -scale)}.${out.slice(-scale)}`;
  if (out.length - (scale > 0 ? scale + 1 : 0) > maxIntegerDigits) {
    throw new V3InputError(field, `is too large (at most ${maxIntegerDigits} digits before the decimal point)`);
  }
  return digits === 0n ? out : sign + out; // no "-0.00"
}

/**
 * `YYYY-MM-DD`, `YYYY/MM/DD` (same separator twice), optionally a time `HH:MM[:SS[.fff]]` after
 * `T` or spaces, optionally an offset `Z`, `UTC`, `±hh`, `±hhmm`, `±hh:mm` (spaces allowed before
 * it: `2014/05/19 08:54:59 -0400` is the service's own output; Ruby's Time#to_s is the same).
 * A bare `hhmm` after a time and a space is a `+hhmm` whose `+` became a space: clients echo
 * `... +0530` into a query string unencoded, and form decoding turns `+` into a space.
 */
const DATETIME_TEXT =
  /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?:(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)|\s+(\d{2}:?\d{2}))?$/i;

interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  /** The finest unit the text gave: an upper range bound extends to the end of it. */
  readonly precision: 'day' | 'minute' | 'second' | 'millisecond';
  /** Minutes east of UTC when the input names an offset. */
  readonly offset: number | null;
}

function parseWallTime(text: string): WallTime | null {
  if (text.length > 64) return null; // the longest real form is ~35 characters
  const m = DATETIME_TEXT.exec(text.trim());
  if (!m) return null;
  let offset: number | null = null;
  if (m[10] !== undefined && m[5] === undefined) return null; // `2014-05-19 0400` is not a date
  const named = m[9] ?? (m[10] !== undefined ? `+${m[10]}` : undefined);
  if (named) {
    const o = named.toUpperCase();
    if (o === 'Z' || o === 'UTC' || o === 'GMT') offset = 0;
    else {
      const digits = o.slice(1).replace(':', '');
      const hours = Number(digits.slice(0, 2));
      const minutes = Number(digits.slice(2) || '0');
      if (hours > 18 || minutes > 59) return null;
      offset = (o[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
    }
  }
  return {
    year: Number(m[1]),
    month: Number(m[3]),
    day: Number(m[4]),
    hour: Number(m[5] ?? 0),
    minute: Number(m[6] ?? 0),
    second: Number(m[7] ?? 0),
    millisecond: Number((m[8] ?? '').padEnd(3, '0').slice(0, 3)),
    precision: m[5] === undefined ? 'day' : m[7] === undefined ? 'minute' : m[8] === undefined ? 'second' : 'millisecond',
    offset,
  };
}

function toLuxon(wall: WallTime, tz: string | undefined): DateTime | null {
  const { year, month, day, hour, minute, second, millisecond } = wall;
  const zone = wall.offset !== null ? FixedOffsetZone.instance(wall.offset) : tz ? zoneOf(tz) : FixedOffsetZone.utcInstance;
  let dt = DateTime.fromObject({ year, month, day, hour, minute, second, millisecond }, { zone });
  if (!dt.isValid) return null; // 2014-02-30, 25:00, :60
  if (zone instanceof IANAZone) dt = earliestOccurrence(dt, zone);
  return tz ? dt.setZone(zoneOf(tz)) : dt;
}

/**
 * A wall time repeated when clocks go back (01:30 on a November night in New York) is read as
 * its first occurrence, the daylight one, as Rails' TimeZone#local did; luxon picks the later.
 */
function earliestOccurrence(dt: DateTime<true>, zone: IANAZone): DateTime<true> {
  const wallMs = dt.toMillis() + dt.offset * 60_000;
  let earliest = dt.toMillis();
  for (const probe of [earliest - 86_400_000, earliest + 86_400_000]) {
    const offset = zone.offset(probe);
    const instant = wallMs - offset * 60_000;
    if (instant < earliest && zone.offset(instant) === offset) earliest = instant;
  }
  if (earliest === dt.toMillis()) return dt;
  // Stryker disable next-line ObjectLiteral: every caller sets the zone again (toLuxon: setZone(tz) whenever the zone is an IANA one)
  const first = DateTime.fromMillis(earliest, { zone });
  return first.isValid ? first : dt;
}

function parseDateTime(value: unknown, field: string, tz: string): { dt: DateTime; precision: WallTime['precision'] } | null {
  if (isBlank(value)) return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new V3InputError(field, 'is not a valid datetime');
    return { dt: DateTime.fromJSDate(value, { zone: zoneOf(tz) }), precision: 'millisecond' };
  }
  const wall = typeof value === 'string' ? parseWallTime(value) : null;
  const dt = wall && toLuxon(wall, tz);
  if (!dt) throw new V3InputError(field, 'is not a valid datetime');
  return { dt, precision: wall.precision };
}

/**
 * The instant as ISO 8601 text for the core, after the range check (src/common/dates.ts): years 1 to
 * 9999 in UTC and in the viewer's zone `tz`, where the core reads it (a `within` day, a series'
 * wall time) and the facade prints it. With the offset of `tz` when it is whole minutes; an
 * offset with seconds (local mean time, before ~1900: New York's was -4:56:02) cannot be written
 * in ISO 8601, and luxon would drop its seconds, moving the instant: UTC then.
 */
function checkedIso(dt: DateTime, field: string, tz: string): string {
  const problem = instantProblem(dt.toMillis(), tz);
  if (problem) throw new V3InputError(field, problem);
  return (Number.isInteger(dt.offset) ? dt.toISO() : dt.toUTC().toISO()) as string;
}

/**
 * A v3 datetime (DECISIONS: Paths and requests: input datetimes) to ISO 8601 with the offset of
 * `tz`, e.g. `2014-05-19T08:54:59.000-04:00`. Without an offset the wall time is read in the
 * requesting user's zone `tz` (a time skipped by a DST change moves forward, as Rails did).
 * Blank → null. Epoch numbers are not accepted (the v3 service never took them).
 */
export function toDateTime(value: unknown, field: string, tz: string): string | null {
  const parsed = parseDateTime(value, field, tz);
  return parsed && checkedIso(parsed.dt, field, tz);
}

/**
 * A range bound (DECISIONS: Conditions: datetime ranges). Like toDateTime, except that a
 * date-only upper bound means the end of that day in `tz` (`to_date=2014-05-31` includes the
 * 31st: what a person picking dates means), so the core can compare inclusively (<=).
 */
export function toDateTimeBound(value: unknown, field: string, tz: string, bound: 'from' | 'to'): string | null {
  const parsed = parseDateTime(value, field, tz);
  if (!parsed) return null;
  // An upper bound covers the whole unit it names: `to_date=2014-05-31` the whole day, and a
  // datetime as the service prints it (to the second) that whole second, since stored times keep
  // milliseconds: a record's own printed created_at then falls inside [from, to].
  // The range is checked on the bound as sent: `to_date=9999-12-31` in New York ends in 10000 UTC.
  return checkedIso(bound === 'to' && parsed.precision !== 'millisecond' ? parsed.dt.endOf(parsed.precision) : parsed.dt, field, tz);
}

/**
 * A v3 date to `YYYY-MM-DD`. Accepts `YYYY-MM-DD`, `YYYY/MM/DD` (the service's output) and any
 * datetime form above: its date part, in `tz` when the datetime names an offset and `tz` is given
 * (a client echoing `2014/05/19 23:30:00 -0400` to a viewer in UTC means 2014-05-20 there).
 */
export function toDate(value: unknown, field: string, tz?: string): string | null {
  if (isBlank(value)) return null;
  let dt: DateTime | null = null;
  if (value instanceof Date) {
    if (!Number.isNaN(value.getTime())) dt = DateTime.fromJSDate(value, { zone: tz ? zoneOf(tz) : FixedOffsetZone.utcInstance });
  } else if (typeof value === 'string') {
    const wall = parseWallTime(value);
    if (wall) dt = toLuxon(wall, wall.offset !== null ? tz : undefined);
  }
  if (!dt) throw new V3InputError(field, 'is not a valid date');
  // The day as it reaches the core (after any shift into `tz`), in years 1 to 9999.
  const date = dt.toISODate() as string;
  const problem = dateProblem(date);
  if (problem) throw new V3InputError(field, problem);
  return date;
}
