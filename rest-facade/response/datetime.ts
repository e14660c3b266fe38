/**
 * v3 output datetimes (v3 §1.6; DECISIONS: Responses): `YYYY/MM/DD HH:MM:SS +hhmm` in the viewer's
 * zone, dates `YYYY/MM/DD`. This runs for every datetime of every entry of every list, so it avoids
 * luxon (~40µs a call) and per-call Intl objects: offsets come from the one time-zone engine
 * (src/common/zones.ts), which caches them per zone and UTC day, and the fields are read from a Date.
 */
import { formatOffset, timeZone } from '../../src/common/zones';

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
 * UTC gives `+0000`. null/undefined → null (JSON null when unset). Sub-second digits are dropped,
 * and so are an offset's seconds (local mean time: New York's -4:56:02 is `-0456`). An unknown
 * zone throws RangeError: a data problem on the server, surfaced loudly.
 */
export function formatDateTime(value: string | number | Date | null | undefined, tz: string): string | null {
  if (value === null || value === undefined) return null;
  const ms = toMillis(value);
  const offset = timeZone(tz).offsetMs(ms);
  const w = wallOf(ms, offset);
  return (
    `${pad4(w.getUTCFullYear())}/${pad2(w.getUTCMonth() + 1)}/${pad2(w.getUTCDate())} ` +
    `${pad2(w.getUTCHours())}:${pad2(w.getUTCMinutes())}:${pad2(w.getUTCSeconds())} ${formatOffset(offset)}`
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
  const w = wallOf(ms, tz ? timeZone(tz).offsetMs(ms) : 0);
  return `${pad4(w.getUTCFullYear())}/${pad2(w.getUTCMonth() + 1)}/${pad2(w.getUTCDate())}`;
}
