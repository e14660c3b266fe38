/**
 * v3 output datetimes (v3 §1.6; DECISIONS: Responses): `YYYY/MM/DD HH:MM:SS +hhmm` in the viewer's
 * zone, dates `YYYY/MM/DD`. This runs for every datetime of every entry of every list, so it avoids
 * luxon (~40µs a call) and per-call Intl objects: one Intl.DateTimeFormat per zone, used only to
 * learn UTC offsets, and a per-zone cache of the offset of each UTC day that contains no offset
 * change (two Intl calls the first time a day is seen, none after). Days with a DST change are
 * computed exactly per call. Assumption, true of the tz database: a zone never changes offset and
 * changes back within one day (such a pair would be missed by the day check).
 */

const DAY_MS = 86_400_000;
const MAX_CACHED_DAYS = 50_000; // ~137 years per zone; cleared wholesale beyond that
const TRANSITION_DAY = Number.NaN;

interface ZoneInfo {
  readonly format: Intl.DateTimeFormat | null; // null: UTC, no lookup needed
  readonly days: Map<number, number>;
}

const zones = new Map<string, ZoneInfo>();
const UTC_NAMES: ReadonlySet<string> = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Etc/Universal', 'Universal', 'Zulu', 'Etc/Zulu']);

/** An unknown zone throws RangeError (from Intl): a data problem on the server, surfaced loudly. */
function zoneInfo(tz: string): ZoneInfo {
  let info = zones.get(tz);
  if (!info) {
    const format = UTC_NAMES.has(tz)
      ? null
      : new Intl.DateTimeFormat('en-US', {
          timeZone: tz,
          hourCycle: 'h23',
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          second: 'numeric',
        });
    info = { format, days: new Map() };
    zones.set(tz, info);
  }
  return info;
}

const US_FORMAT = /^(\d+)\/(\d+)\/(\d+),\s*(\d+):(\d+):(\d+)$/;

/** Offset of `tz` at instant `ms`, in ms east of UTC: the zone's wall clock read back as if it were UTC. */
function exactOffset(format: Intl.DateTimeFormat, ms: number): number {
  const m = US_FORMAT.exec(format.format(ms));
  if (!m) throw new RangeError(`Cannot read a wall time for ${new Date(ms).toISOString()}`);
  const wall = new Date(0);
  wall.setUTCFullYear(Number(m[3]), Number(m[1]) - 1, Number(m[2])); // setUTCFullYear: years < 100 stay as given
  wall.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  return wall.getTime() - Math.floor(ms / 1000) * 1000;
}

function offsetAt(info: ZoneInfo, ms: number): number {
  if (info.format === null) return 0;
  const day = Math.floor(ms / DAY_MS);
  let offset = info.days.get(day);
  if (offset === undefined) {
    const start = exactOffset(info.format, day * DAY_MS);
    const end = exactOffset(info.format, day * DAY_MS + DAY_MS - 1);
    offset = start === end ? start : TRANSITION_DAY;
    if (info.days.size >= MAX_CACHED_DAYS) info.days.clear();
    info.days.set(day, offset);
  }
  return Number.isNaN(offset) ? exactOffset(info.format, ms) : offset;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad4 = (n: number) => String(n).padStart(4, '0');

function toMillis(value: string | number | Date): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`Not a datetime: ${String(value).slice(0, 50)}`);
  return ms;
}

/** Calendar fields of `ms` shifted by `offset`, read in UTC. */
function wallOf(ms: number, offset: number): Date {
  return new Date(ms + offset);
}

/**
 * `2014-05-19T12:54:59.000Z` (or a Date, or epoch ms) → `2014/05/19 08:54:59 -0400` in `tz`;
 * UTC gives `+0000`. null/undefined → null (JSON null when unset). Sub-second digits are dropped.
 */
export function formatDateTime(value: string | number | Date | null | undefined, tz: string): string | null {
  if (value === null || value === undefined) return null;
  const ms = toMillis(value);
  const offset = offsetAt(zoneInfo(tz), ms);
  const w = wallOf(ms, offset);
  const minutes = Math.trunc(Math.abs(offset) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  return (
    `${pad4(w.getUTCFullYear())}/${pad2(w.getUTCMonth() + 1)}/${pad2(w.getUTCDate())} ` +
    `${pad2(w.getUTCHours())}:${pad2(w.getUTCMinutes())}:${pad2(w.getUTCSeconds())} ` +
    `${sign}${pad2(Math.trunc(minutes / 60))}${pad2(minutes % 60)}`
  );
}

const PLAIN_DATE = /^(\d{4})[-/](\d{2})[-/](\d{2})$/;

/**
 * A date → `YYYY/MM/DD`. A calendar date (`2014-05-19`, the GraphQL Date form) is reformatted as
 * is: a date has no zone, so shifting it would move deadlines by a day. An instant (ISO datetime,
 * Date) is shown as its date in `tz` (UTC when no zone is given).
 */
export function formatDate(value: string | number | Date | null | undefined, tz?: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const m = PLAIN_DATE.exec(value);
    if (m) return `${m[1]}/${m[2]}/${m[3]}`;
  }
  const ms = toMillis(value);
  const w = wallOf(ms, tz ? offsetAt(zoneInfo(tz), ms) : 0);
  return `${pad4(w.getUTCFullYear())}/${pad2(w.getUTCMonth() + 1)}/${pad2(w.getUTCDate())}`;
}
