import { IANAZone } from 'luxon';
import { timeZone } from './zones';

/*
 * The one range check of every date and datetime a client sends (v3 and GraphQL alike: filters,
 * conditions, occurrence windows, rule dates, writes). PostgreSQL holds years 1 to 9999 as the
 * driver writes them (four-digit ISO text); year 0 or 10000 fails the statement (a 500). An
 * instant is checked in UTC, where it is stored and compared, and in the zone it is read in when
 * it is read in one (the viewer's day for `within`, a series' wall time): 0001-01-01T02:00Z is
 * 0000-12-31 in New York, and 9999-12-31T20:00Z is 10000-01-01 in Tokyo. Values outside are
 * refused, never clamped: a clamped bound would answer a different question than the one asked.
 *
 * Pure and shared (the facade's coercion and the core's inputs): each surface turns the problem
 * into its own error, naming its own parameter (v3 V3InputError, GraphQL BadInputError or a
 * user error).
 */

export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

/** The message of a value outside the range (in UTC). */
export const OUT_OF_RANGE = `is out of range (years ${MIN_YEAR} to ${MAX_YEAR})`;
/** The message of a date text that is no date. */
export const NOT_A_DATE = 'must be a date like 2026-01-31';

const inRange = (year: number) => year >= MIN_YEAR && year <= MAX_YEAR;

/**
 * A zone by name as luxon's, for the DateTime arithmetic of v3 input (src/kit/v3/coerce.ts), checked
 * by the time-zone engine (src/common/zones.ts): an unknown zone is a server-side data problem (a
 * user's or a series' zone), not the client's: RangeError. IANAZone.create shares one per name.
 */
export function zoneOf(name: string): IANAZone {
  timeZone(name);
  return IANAZone.create(name);
}

/** The year of instant `ms` on the wall clocks of `zone` (offsets may have seconds: local mean time before 1900). */
export function localYear(ms: number, zone: string): number {
  return new Date(timeZone(zone).toFloating(ms)).getUTCFullYear();
}

/**
 * Why an instant cannot be taken, or null when it can: not a valid date, or its year outside 1 to
 * 9999 in UTC or, when given, on the wall clocks of `timeZone`.
 */
export function instantProblem(value: Date | number, timeZone?: string | null): string | null {
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return 'is not a valid datetime';
  if (!inRange(new Date(ms).getUTCFullYear())) return OUT_OF_RANGE;
  if (timeZone && !inRange(localYear(ms, timeZone))) return `is out of range (years ${MIN_YEAR} to ${MAX_YEAR} in ${timeZone})`;
  return null;
}

/** Whether an instant is in range (UTC and, when given, in `timeZone`). */
export const isStorableInstant = (value: Date | number, timeZone?: string | null): boolean => instantProblem(value, timeZone) === null;

// A four-digit year, or the six-digit signed form ISO 8601 (and luxon, JavaScript) writes outside 0..9999.
const DATE_TEXT = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})$/;

/**
 * Why a calendar date (`YYYY-MM-DD`, a day that exists) cannot be taken, or null when it can. A
 * date is not shifted by any zone: it is the day as written.
 */
export function dateProblem(value: unknown): string | null {
  const m = typeof value === 'string' ? DATE_TEXT.exec(value) : null;
  if (!m) return NOT_A_DATE;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  // Every stored date passes here when it is shown: the day is checked by arithmetic, not a Date.
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NOT_A_DATE;
  if (!inRange(year)) return OUT_OF_RANGE;
  // In range, a date is written with four digits (what PostgreSQL and every reader takes).
  return m[1].length === 4 ? null : NOT_A_DATE;
}

/** Days of a month (1-12) of the proleptic Gregorian calendar (what Date and PostgreSQL count in). */
export function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}
