/*
 * Time zones: the one engine that turns UTC instants into wall-clock time in an IANA zone and back,
 * for every reader of a zone: the date range check (src/common/dates.ts), calendar recurrence and its
 * iCalendar export (src/modules/calendar), v3 datetimes (rest-facade/response/datetime.ts).
 *
 * Offsets come from Intl, as luxon's do (IANAZone.offset formats the instant in the zone and reads
 * the fields back), but read directly: one Intl.DateTimeFormat per zone, `format` and a regular
 * expression, about 2µs a read where luxon takes 7µs (formatToParts and a Date per call). The era
 * is read too, as luxon does, so that 1 BC (0001-01-01T02:00Z is 0000-12-31 in New York) is not
 * taken for AD 1. An offset is a whole number of seconds, kept in ms: local mean time has seconds
 * (New York's was -4:56:02 until 1883).
 *
 * A zone caches the offset of each UTC day it is asked about that holds no change: two reads the
 * first time the day is seen, none after. A day with a change is read exactly on every call. This
 * runs for every datetime of every v3 list and every occurrence of a series, hence the cache.
 * Assumption, true of the tz database: a zone never changes its offset and changes it back within
 * one UTC day (such a pair would be missed by the day check and by `transitions`).
 */

const SECOND = 1000;
const DAY = 86_400_000;
/** The last instant a Date holds (ECMA-262: ±8.64e15 ms). */
const MAX_MS = 8.64e15;
const MAX_CACHED_DAYS = 50_000; // ~137 years per zone; cleared wholesale beyond that
const CHANGE_DAY = Number.NaN; // a day with an offset change: read per call

/** Names Intl resolves to a zone that is UTC at every instant: written as `…Z` in iCalendar, never looked up. */
const UTC_NAMES: ReadonlySet<string> = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/GMT',
  'GMT',
  'Etc/UCT',
  'UCT',
  'Etc/Zulu',
  'Zulu',
  'Etc/Universal',
  'Universal',
  'Etc/GMT0',
  'Etc/GMT+0',
  'Etc/GMT-0',
  'GMT0',
  'GMT+0',
  'GMT-0',
  'Etc/Greenwich',
  'Greenwich',
]);

/** en-US with the era and a 24-hour clock: `12/31/1 BC, 21:03:58`. */
const WALL_TEXT = /^(\d+)\/(\d+)\/(\d+)\s(AD|BC),?\s(\d+):(\d+):(\d+)$/;

/** One change of a zone's offset (ms east of UTC). */
export interface Transition {
  /** First instant with the new offset. */
  readonly at: number;
  readonly from: number;
  readonly to: number;
}

/**
 * An IANA zone. Wall-clock ("floating", RFC 5545 §3.3.5) times are kept as ms numbers whose UTC
 * fields are the local fields: `new Date(zone.toFloating(ms)).getUTCHours()` is the local hour.
 */
export class TimeZone {
  /** The zone's IANA name as Intl resolves it (`US/Eastern` → `America/New_York`). */
  readonly canonical: string;
  /** UTC at every instant (offset 0, no lookup). */
  readonly utc: boolean;
  private readonly wall: Intl.DateTimeFormat;
  private readonly days = new Map<number, number>();
  private readonly abbreviations = new Map<string, Intl.DateTimeFormat>();

  /** Use `timeZone(name)`: it checks the name and shares one instance per name. */
  constructor(readonly name: string) {
    this.wall = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    this.canonical = this.wall.resolvedOptions().timeZone;
    this.utc = UTC_NAMES.has(this.canonical);
  }

  /** The offset (ms east of UTC) in force at instant `ms`. An instant Date cannot hold throws RangeError. */
  offsetMs(ms: number): number {
    if (this.utc) {
      if (!(Math.abs(ms) <= MAX_MS)) throw new RangeError(`Not an instant: ${ms}`);
      return 0;
    }
    const day = Math.floor(ms / DAY);
    let offset = this.days.get(day);
    if (offset === undefined) {
      const start = this.read(day * DAY);
      const end = this.read(Math.min(day * DAY + DAY - 1, MAX_MS));
      offset = start === end ? start : CHANGE_DAY;
      if (this.days.size >= MAX_CACHED_DAYS) this.days.clear();
      this.days.set(day, offset);
    }
    return Number.isNaN(offset) ? this.read(ms) : offset;
  }

  /** The wall-clock time of instant `ms`, as floating ms. */
  toFloating(ms: number): number {
    return ms + this.offsetMs(ms);
  }

  /**
   * The instant of wall-clock time `f` (RFC 5545 §3.3.5): a time that occurs twice is the first; a
   * time skipped by a DST gap uses the offset before the gap (02:30 → 03:30 after it).
   */
  toInstant(f: number): number {
    const before = this.offsetMs(f - DAY);
    const after = this.offsetMs(f + DAY);
    if (before === after && this.offsetMs(f - before) === before) return f - before; // no change near
    let best = Number.POSITIVE_INFINITY;
    for (const offset of before === after ? [before] : [before, after]) {
      const ms = f - offset;
      if (this.offsetMs(ms) === offset && ms < best) best = ms;
    }
    return Number.isFinite(best) ? best : f - before;
  }

  /** Every offset change in [from, to) (`from` a whole second), found day by day and pinned to the second. */
  transitions(from: number, to: number): Transition[] {
    const found: Transition[] = [];
    // Read uncached: a scan sees each day once, and one read per day is half the cache's two.
    let prev = this.read(from);
    for (let t = from + DAY; t < to + DAY; t += DAY) {
      const offset = this.read(t);
      if (offset === prev) continue;
      let lo = t - DAY;
      let hi = t;
      while (hi - lo > SECOND) {
        const mid = lo + Math.floor((hi - lo) / (2 * SECOND)) * SECOND;
        if (this.read(mid) === prev) lo = mid;
        else hi = mid;
      }
      found.push({ at: hi, from: prev, to: offset });
      prev = offset;
    }
    return found;
  }

  /**
   * Whether instant `ms` is in daylight time. Intl has no such flag; as luxon's `isInDST`: the
   * offset is above the one at the same wall time on January 1 or on the same day of May.
   */
  isDaylight(ms: number): boolean {
    const offset = this.offsetMs(ms);
    const wall = new Date(ms + offset);
    const january = new Date(wall);
    january.setUTCMonth(0, 1);
    const may = new Date(wall);
    may.setUTCMonth(4);
    return offset > this.offsetMs(this.toInstant(january.getTime())) || offset > this.offsetMs(this.toInstant(may.getTime()));
  }

  /** The zone's short name at `ms` in `locale` (`CEST`, or `GMT+2` where the locale has none); null when Intl gives none. */
  abbreviation(ms: number, locale: string): string | null {
    let format = this.abbreviations.get(locale);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, {
        timeZone: this.name,
        timeZoneName: 'short',
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
      this.abbreviations.set(locale, format);
    }
    return format.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? null;
  }

  /** The offset at `ms`, read from Intl: the wall clock read back as if it were UTC, minus the instant (to the second). */
  private read(ms: number): number {
    const m = WALL_TEXT.exec(this.wall.format(ms));
    if (!m) throw new RangeError(`Cannot read a wall time in ${this.name} at ${ms}`);
    const wall = new Date(0);
    // setUTCFullYear: years below 100 stay as given; 1 BC is year 0 (ISO 8601's astronomical years).
    wall.setUTCFullYear(m[4] === 'BC' ? 1 - Number(m[3]) : Number(m[3]), Number(m[1]) - 1, Number(m[2]));
    wall.setUTCHours(Number(m[5]), Number(m[6]), Number(m[7]), 0);
    return wall.getTime() - Math.floor(ms / SECOND) * SECOND;
  }
}

const zones = new Map<string, TimeZone>();

/** Whether Intl knows the zone (an IANA name, any case, or an alias such as `US/Eastern`). */
export function isTimeZone(name: string): boolean {
  if (zones.has(name)) return true;
  if (!name) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name }).format();
    return true;
  } catch {
    return false;
  }
}

/** A zone by name, shared. An unknown zone is a server-side data problem (a user's or a series' zone), not the client's: RangeError. */
export function timeZone(name: string): TimeZone {
  let zone = zones.get(name);
  if (!zone) {
    if (!isTimeZone(name)) throw new RangeError(`Unknown time zone: ${name}`);
    zone = new TimeZone(name);
    zones.set(name, zone);
  }
  return zone;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Offset texts by offset: v3 writes one per datetime of every list, and the tz database has a few hundred offsets. */
const offsetTexts = [new Map<number, string>(), new Map<number, string>()];

/**
 * An offset as `+hhmm` / `-hhmm` (v3 §1.6 datetimes: seconds dropped) or, `withSeconds`, with `ss`
 * added when not zero (RFC 5545 §3.3.14 UTC-OFFSET: local mean time has seconds).
 */
export function formatOffset(offsetMs: number, withSeconds = false): string {
  const texts = offsetTexts[withSeconds ? 1 : 0];
  let text = texts.get(offsetMs);
  if (text === undefined) {
    const total = Math.trunc(Math.abs(offsetMs) / SECOND);
    const seconds = total % 60;
    text = `${offsetMs < 0 ? '-' : '+'}${pad2(Math.trunc(total / 3600))}${pad2(Math.trunc((total % 3600) / 60))}`;
    if (withSeconds && seconds) text += pad2(seconds);
    texts.set(offsetMs, text);
  }
  return text;
}
