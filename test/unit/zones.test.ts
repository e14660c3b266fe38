import { IANAZone } from 'luxon';
import { formatOffset, isTimeZone, timeZone } from '../../src/common/zones';

/**
 * Issue 23 §5: one time-zone engine (src/common/zones.ts) for calendar recurrence, the iCalendar
 * writer, v3 datetimes and the date range check. Europe/Paris enters DST on 2026-03-29 at 01:00Z
 * (02:00 CET → 03:00 CEST) and leaves it on 2026-10-25 at 01:00Z (03:00 CEST → 02:00 CET).
 */
const HOUR = 3_600_000;
const ms = (text: string) => Date.parse(text);
const wall = (f: number) => new Date(f).toISOString().slice(0, 19);

describe('offsets', () => {
  const paris = timeZone('Europe/Paris');

  it('change at the transition instant itself, to the millisecond', () => {
    expect(paris.offsetMs(ms('2026-03-29T00:59:59.999Z'))).toBe(HOUR);
    expect(paris.offsetMs(ms('2026-03-29T01:00:00.000Z'))).toBe(2 * HOUR);
    expect(paris.offsetMs(ms('2026-10-25T00:59:59.999Z'))).toBe(2 * HOUR);
    expect(paris.offsetMs(ms('2026-10-25T01:00:00.000Z'))).toBe(HOUR);
    // Asked again: days without a change come from the cache and must agree.
    expect(paris.offsetMs(ms('2026-03-28T12:00:00Z'))).toBe(HOUR);
    expect(paris.offsetMs(ms('2026-03-28T12:00:00Z'))).toBe(HOUR);
    expect(paris.offsetMs(ms('2026-03-29T01:00:00.000Z'))).toBe(2 * HOUR);
  });

  it('keep the seconds of local mean time, and read the era (1 BC is not AD 1)', () => {
    const ny = timeZone('America/New_York');
    expect(ny.offsetMs(ms('1883-11-18T16:59:59Z'))).toBe(-(4 * HOUR + 56 * 60_000 + 2_000)); // -4:56:02
    expect(ny.offsetMs(ms('1883-11-18T17:00:00Z'))).toBe(-5 * HOUR);
    expect(wall(ny.toFloating(ms('0001-01-01T02:00:00Z')))).toBe('0000-12-31T21:03:58');
  });

  it('agree with luxon (what the calendar read before) across zones and years', () => {
    for (const name of ['America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/St_Johns', 'Africa/Casablanca', 'Europe/Dublin']) {
      const zone = timeZone(name);
      const luxon = IANAZone.create(name);
      for (let t = Date.UTC(1850, 0, 1); t < Date.UTC(2060, 0, 1); t += 7_919_993_017) {
        expect(zone.offsetMs(t)).toBe(Math.round(luxon.offset(t) * 60_000));
      }
    }
  });

  it('of UTC and its aliases are 0 without a lookup; an instant a Date cannot hold throws', () => {
    for (const name of ['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT0', 'utc']) {
      expect(timeZone(name).utc).toBe(true);
      expect(timeZone(name).offsetMs(ms('2026-07-01T00:00:00Z'))).toBe(0);
    }
    expect(timeZone('Etc/GMT+5').utc).toBe(false);
    expect(timeZone('Etc/GMT+5').offsetMs(ms('2026-07-01T00:00:00Z'))).toBe(-5 * HOUR);
    expect(() => timeZone('UTC').offsetMs(1e16)).toThrow(RangeError);
    expect(() => paris.offsetMs(Number.NaN)).toThrow(RangeError);
  });
});

describe('wall time to instant (RFC 5545 §3.3.5)', () => {
  const paris = timeZone('Europe/Paris');
  const f = (text: string) => ms(`${text}Z`);

  it('a skipped wall time takes the offset before the gap; the first wall time after it is itself', () => {
    expect(new Date(paris.toInstant(f('2026-03-29T02:30:00'))).toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    expect(new Date(paris.toInstant(f('2026-03-29T03:00:00'))).toISOString()).toBe('2026-03-29T01:00:00.000Z'); // 03:00 CEST
    expect(new Date(paris.toInstant(f('2026-03-29T01:59:59'))).toISOString()).toBe('2026-03-29T00:59:59.000Z'); // CET
  });

  it('a repeated wall time is its first; the first wall time after the repeat is itself', () => {
    expect(new Date(paris.toInstant(f('2026-10-25T02:30:00'))).toISOString()).toBe('2026-10-25T00:30:00.000Z'); // 02:30 CEST
    expect(new Date(paris.toInstant(f('2026-10-25T03:00:00'))).toISOString()).toBe('2026-10-25T02:00:00.000Z'); // 03:00 CET
  });

  it('round-trips every wall time that exists', () => {
    for (let t = ms('2026-03-28T00:00:00Z'); t < ms('2026-03-30T00:00:00Z'); t += 15 * 60_000) {
      expect(paris.toInstant(paris.toFloating(t))).toBe(t);
    }
  });
});

describe('transitions, daylight and abbreviations (VTIMEZONE)', () => {
  it('finds each change of a year to the second, with its offsets', () => {
    const paris = timeZone('Europe/Paris');
    expect(paris.transitions(Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))).toEqual([
      { at: ms('2026-03-29T01:00:00Z'), from: HOUR, to: 2 * HOUR },
      { at: ms('2026-10-25T01:00:00Z'), from: 2 * HOUR, to: HOUR },
    ]);
    expect(paris.isDaylight(ms('2026-03-29T01:00:00Z'))).toBe(true);
    expect(paris.isDaylight(ms('2026-10-25T01:00:00Z'))).toBe(false);
    expect(paris.abbreviation(ms('2026-07-01T00:00:00Z'), 'en-GB')).toBe('CEST');
    expect(timeZone('America/New_York').abbreviation(ms('2026-07-01T00:00:00Z'), 'en-US')).toBe('EDT');
  });

  it('knows Dublin’s winter as standard time, as luxon does (IST is its summer offset)', () => {
    const dublin = timeZone('Europe/Dublin');
    expect(dublin.isDaylight(ms('2026-07-01T00:00:00Z'))).toBe(true);
    expect(dublin.isDaylight(ms('2026-01-01T00:00:00Z'))).toBe(false);
  });
});

describe('names', () => {
  it('are checked by Intl, resolved to their canonical name, and an unknown one throws RangeError', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('europe/paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(timeZone('US/Eastern').canonical).toBe('America/New_York');
    expect(timeZone('Europe/Paris')).toBe(timeZone('Europe/Paris')); // shared
    expect(() => timeZone('Mars/Olympus')).toThrow(new RangeError('Unknown time zone: Mars/Olympus'));
  });
});

describe('formatOffset', () => {
  it('writes +hhmm (v3 §1.6, seconds dropped) or +hhmm[ss] (RFC 5545 §3.3.14)', () => {
    expect(formatOffset(0)).toBe('+0000');
    expect(formatOffset(-4 * HOUR)).toBe('-0400');
    expect(formatOffset(5.5 * HOUR)).toBe('+0530');
    expect(formatOffset(12.75 * HOUR)).toBe('+1245');
    const newYorkMean = -(4 * HOUR + 56 * 60_000 + 2_000);
    expect(formatOffset(newYorkMean)).toBe('-0456');
    expect(formatOffset(newYorkMean, true)).toBe('-045602');
    expect(formatOffset(-4 * HOUR, true)).toBe('-0400');
  });
});
