import { DateTime } from 'luxon';
import { RRule } from 'rrule';
import {
  checkRecurrence,
  expandSeries,
  hasRecurrence,
  normalizeRecurrence,
  occurrencesBetween,
  occurrencesInSpan,
  RECURRENCE_LIMITS,
  RecurrenceInvalid,
  recurrenceForExport,
  seriesEnd,
  type RecurrenceField,
  type RecurrenceRules,
  type SeriesAnchor,
} from '../../src/modules/calendar/recurrence';

const rules = (r: Partial<RecurrenceRules>): RecurrenceRules => ({ rrule: null, rdate: null, exrule: null, exdate: null, ...r });
const iso = (dates: readonly Date[]) => dates.map((d) => d.toISOString().replace('.000Z', 'Z'));
const at = (zone: string, start: string, allDay = false): SeriesAnchor => ({ start: new Date(start), timeZone: zone, allDay });
/** Local wall times of instants in a zone, `YYYY-MM-DD HH:mm`. */
const local = (dates: readonly Date[], zone: string) => dates.map((d) => DateTime.fromJSDate(d, { zone }).toFormat('yyyy-MM-dd HH:mm'));
const far = new Date('2100-01-01T00:00:00Z');

// 2026-10-19 is a Monday; Paris leaves DST on Sunday 2026-10-25, New York on Sunday 2026-11-01
// and enters it on Sunday 2026-03-08.
const PARIS_MONDAY_9 = at('Europe/Paris', '2026-10-19T07:00:00Z'); // 09:00 CEST
const NY_9 = at('America/New_York', '2026-10-29T13:00:00Z'); // Thursday 09:00 EDT

function refusal(fn: () => unknown): RecurrenceInvalid {
  try {
    fn();
  } catch (error) {
    if (error instanceof RecurrenceInvalid) return error;
    throw error;
  }
  throw new Error('expected RecurrenceInvalid');
}

function expectRefused(r: Partial<RecurrenceRules>, field: RecurrenceField, pattern: RegExp, anchor = PARIS_MONDAY_9): void {
  const error = refusal(() => checkRecurrence(rules(r), anchor));
  expect(error.field).toBe(field);
  expect(error.message).toMatch(pattern);
  expect(error.message).not.toMatch(/\bat \w+ \(|node_modules|Error:/); // no stack text
}

describe('limits', () => {
  it('are the documented bounds', () => {
    expect(RECURRENCE_LIMITS).toEqual({ maxOccurrences: 366, horizonDays: 730, maxRuleLength: 1000, maxDates: 366, windowDays: 366 });
    expect(Object.isFrozen(RECURRENCE_LIMITS)).toBe(true);
  });
});

describe('hasRecurrence', () => {
  it('is true for a non-blank rrule or rdate only', () => {
    expect(hasRecurrence(rules({}))).toBe(false);
    expect(hasRecurrence(rules({ rrule: '  ', rdate: '' }))).toBe(false);
    expect(hasRecurrence(rules({ exrule: 'FREQ=DAILY', exdate: '20261201' }))).toBe(false);
    expect(hasRecurrence(rules({ rrule: 'FREQ=DAILY' }))).toBe(true);
    expect(hasRecurrence(rules({ rdate: '20261201' }))).toBe(true);
  });
});

describe('expandSeries', () => {
  it('daily COUNT: the base counts as the first of COUNT', () => {
    const r = rules({ rrule: 'FREQ=DAILY;COUNT=4' });
    expect(iso(expandSeries(r, PARIS_MONDAY_9, { until: far }))).toEqual(['2026-10-20T07:00:00Z', '2026-10-21T07:00:00Z', '2026-10-22T07:00:00Z']);
    expect(expandSeries(rules({ rrule: 'FREQ=DAILY;COUNT=1' }), PARIS_MONDAY_9, { until: far })).toEqual([]);
  });

  it('weekly BYDAY, in order', () => {
    const r = rules({ rrule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR' });
    const anchor = at('UTC', '2026-01-05T10:00:00Z'); // a Monday
    expect(iso(expandSeries(r, anchor, { until: new Date('2026-01-16T10:00:00Z') }))).toEqual([
      '2026-01-07T10:00:00Z',
      '2026-01-09T10:00:00Z',
      '2026-01-12T10:00:00Z',
      '2026-01-14T10:00:00Z',
      '2026-01-16T10:00:00Z', // until is inclusive
    ]);
  });

  it('weekly with INTERVAL and WKST keeps its fortnight grid', () => {
    const anchor = at('UTC', '2026-01-06T10:00:00Z'); // a Tuesday
    const r = rules({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU' });
    expect(iso(expandSeries(r, anchor, { until: new Date('2026-02-01T00:00:00Z') }))).toEqual(['2026-01-18T10:00:00Z', '2026-01-20T10:00:00Z']);
  });

  it('monthly BYMONTHDAY=31 skips the months without a 31st', () => {
    const anchor = at('Europe/Paris', '2026-01-31T08:00:00Z');
    const dates = expandSeries(rules({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=31' }), anchor, { until: new Date('2027-01-01T00:00:00Z') });
    expect(local(dates, 'Europe/Paris')).toEqual([
      '2026-03-31 09:00',
      '2026-05-31 09:00',
      '2026-07-31 09:00',
      '2026-08-31 09:00',
      '2026-10-31 09:00',
      '2026-12-31 09:00',
    ]);
  });

  it('monthly on the last Friday and yearly on 29 February', () => {
    const anchor = at('UTC', '2026-01-30T12:00:00Z');
    expect(iso(expandSeries(rules({ rrule: 'FREQ=MONTHLY;BYDAY=-1FR' }), anchor, { until: new Date('2026-04-30T00:00:00Z') }))).toEqual([
      '2026-02-27T12:00:00Z',
      '2026-03-27T12:00:00Z',
      '2026-04-24T12:00:00Z',
    ]);
    const leap = at('UTC', '2024-02-29T12:00:00Z');
    expect(iso(expandSeries(rules({ rrule: 'FREQ=YEARLY' }), leap, { until: new Date('2036-12-31T00:00:00Z') }))).toEqual([
      '2028-02-29T12:00:00Z',
      '2032-02-29T12:00:00Z',
      '2036-02-29T12:00:00Z',
    ]);
  });

  it('UNTIL in UTC, as a local date-time, and as a date (that whole local day)', () => {
    const utc = rules({ rrule: 'FREQ=DAILY;UNTIL=20261022T070000Z' });
    expect(local(expandSeries(utc, PARIS_MONDAY_9, { until: far }), 'Europe/Paris')).toEqual(['2026-10-20 09:00', '2026-10-21 09:00', '2026-10-22 09:00']);
    const floating = rules({ rrule: 'FREQ=DAILY;UNTIL=20261022T085959' });
    expect(expandSeries(floating, PARIS_MONDAY_9, { until: far })).toHaveLength(2);
    const date = rules({ rrule: 'FREQ=DAILY;UNTIL=20261022' });
    expect(local(expandSeries(date, PARIS_MONDAY_9, { until: far }), 'Europe/Paris').pop()).toBe('2026-10-22 09:00');
    const isoUntil = rules({ rrule: 'FREQ=DAILY;UNTIL=2026-10-22T07:00:00Z' });
    expect(expandSeries(isoUntil, PARIS_MONDAY_9, { until: far })).toHaveLength(3);
  });

  it('RDATE adds occurrences in every accepted form, in order, without duplicates', () => {
    const r = rules({
      rrule: 'FREQ=WEEKLY;COUNT=2',
      rdate: '20261021T120000Z,20261022T150000, 20261023,2026-10-24T10:00:00+02:00,20261026T080000Z',
    });
    expect(local(expandSeries(r, PARIS_MONDAY_9, { until: far }), 'Europe/Paris')).toEqual([
      '2026-10-21 14:00', // UTC
      '2026-10-22 15:00', // floating: local
      '2026-10-23 09:00', // a date: the anchor's time of day
      '2026-10-24 10:00', // ISO with an offset
      '2026-10-26 09:00', // also the rule's second occurrence: once
    ]);
  });

  it('RDATE alone makes a series; the base stays the first occurrence', () => {
    const r = rules({ rdate: 'RDATE;TZID=America/New_York:20261105T090000,20261112T090000' });
    expect(iso(expandSeries(r, NY_9, { until: far }))).toEqual(['2026-11-05T14:00:00Z', '2026-11-12T14:00:00Z']);
    expect(iso(occurrencesBetween(r, NY_9, new Date('2026-10-01'), new Date('2026-12-01')))).toEqual([
      '2026-10-29T13:00:00Z',
      '2026-11-05T14:00:00Z',
      '2026-11-12T14:00:00Z',
    ]);
  });

  it('EXDATE removes by instant, a date-only EXDATE by local date (every time that day)', () => {
    const anchor = at('Europe/Paris', '2026-10-19T07:00:00Z');
    const r = rules({
      rrule: 'FREQ=DAILY;BYHOUR=9,17;COUNT=8',
      exdate: 'EXDATE;TZID=Europe/Paris:20261020T170000,20261021',
    });
    expect(local(expandSeries(r, anchor, { until: far }), 'Europe/Paris')).toEqual([
      '2026-10-19 17:00',
      '2026-10-20 09:00',
      '2026-10-22 09:00',
      '2026-10-22 17:00',
    ]);
    // An exdate that matches nothing (another time of day) removes nothing.
    const miss = rules({ rrule: 'FREQ=DAILY;COUNT=3', exdate: '20261020T080000Z' });
    expect(expandSeries(miss, anchor, { until: far })).toHaveLength(2);
  });

  it('EXDATE also removes an RDATE', () => {
    const r = rules({ rdate: '20261101T080000Z,20261108T080000Z', exdate: '2026-11-01T08:00:00Z' });
    expect(iso(expandSeries(r, PARIS_MONDAY_9, { until: far }))).toEqual(['2026-11-08T08:00:00Z']);
  });

  it('EXRULE removes what it yields (never the base)', () => {
    const anchor = at('UTC', '2026-01-05T09:00:00Z'); // a Monday
    const r = rules({ rrule: 'FREQ=DAILY;COUNT=14', exrule: 'EXRULE:FREQ=WEEKLY;BYDAY=SA,SU' });
    const days = expandSeries(r, anchor, { until: far }).map((d) => d.getUTCDay());
    expect(days).toEqual([2, 3, 4, 5, 1, 2, 3, 4, 5]);
    const all = rules({ rrule: 'FREQ=DAILY;COUNT=5', exrule: 'FREQ=DAILY' });
    expect(expandSeries(all, anchor, { until: far })).toEqual([]);
    expect(occurrencesBetween(all, anchor, new Date('2026-01-01'), new Date('2026-02-01'))).toHaveLength(1);
  });

  it('stops at `max` (default maxOccurrences) and at `until`', () => {
    const r = rules({ rrule: 'FREQ=DAILY' });
    const anchor = at('UTC', '2026-01-01T09:00:00Z');
    expect(expandSeries(r, anchor, { until: new Date('2030-01-01') })).toHaveLength(RECURRENCE_LIMITS.maxOccurrences);
    expect(iso(expandSeries(r, anchor, { until: new Date('2030-01-01'), max: 2 }))).toEqual(['2026-01-02T09:00:00Z', '2026-01-03T09:00:00Z']);
    expect(expandSeries(r, anchor, { until: new Date('2026-01-11T09:00:00Z') })).toHaveLength(10);
    expect(expandSeries(r, anchor, { until: new Date('2026-01-11T08:59:59Z') })).toHaveLength(9);
    expect(expandSeries(r, anchor, { until: new Date('2025-01-01') })).toEqual([]);
    expect(expandSeries(r, anchor, { until: new Date('2030-01-01'), max: 0 })).toEqual([]);
    // A horizon of 730 days from "now" (the caller's clock), as the calendar module stores them.
    const horizon = new Date(Date.UTC(2026, 0, 1) + RECURRENCE_LIMITS.horizonDays * 86_400_000);
    expect(expandSeries(rules({ rrule: 'FREQ=WEEKLY' }), anchor, { until: horizon })).toHaveLength(104);
  });

  it('is empty without rrule or rdate', () => {
    expect(expandSeries(rules({ exdate: '20261201' }), PARIS_MONDAY_9, { until: far })).toEqual([]);
  });
});

describe('time zones', () => {
  it('Europe/Paris: Monday 09:00 stays 09:00 across the end of DST (UTC moves by an hour)', () => {
    const dates = expandSeries(rules({ rrule: 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3' }), PARIS_MONDAY_9, { until: far });
    expect(iso(dates)).toEqual(['2026-10-26T08:00:00Z', '2026-11-02T08:00:00Z']);
    expect(local(dates, 'Europe/Paris')).toEqual(['2026-10-26 09:00', '2026-11-02 09:00']);
  });

  it('America/New_York: daily 09:00 across the November change', () => {
    const dates = expandSeries(rules({ rrule: 'FREQ=DAILY;COUNT=6' }), NY_9, { until: far });
    expect(iso(dates)).toEqual(['2026-10-30T13:00:00Z', '2026-10-31T13:00:00Z', '2026-11-01T14:00:00Z', '2026-11-02T14:00:00Z', '2026-11-03T14:00:00Z']);
  });

  it('America/New_York: a wall time the November change repeats is its first (daylight) one', () => {
    const anchor = at('America/New_York', '2026-10-31T05:30:00Z'); // Saturday 01:30 EDT
    expect(iso(expandSeries(rules({ rrule: 'FREQ=DAILY;COUNT=3' }), anchor, { until: far }))).toEqual([
      '2026-11-01T05:30:00Z', // 01:30 EDT, not 01:30 EST an hour later
      '2026-11-02T06:30:00Z',
    ]);
  });

  it('America/New_York: a wall time the March change skips moves past the gap (RFC 5545 §3.3.5)', () => {
    const anchor = at('America/New_York', '2026-03-07T07:30:00Z'); // Saturday 02:30 EST
    const dates = expandSeries(rules({ rrule: 'FREQ=DAILY;COUNT=3' }), anchor, { until: far });
    expect(iso(dates)).toEqual(['2026-03-08T07:30:00Z', '2026-03-09T06:30:00Z']); // 03:30 EDT, then 02:30 EDT
    expect(local(dates, 'America/New_York')).toEqual(['2026-03-08 03:30', '2026-03-09 02:30']);
  });

  it('a wall time right after a change is itself: Sunday 03:00 Paris stays 03:00 both days of change', () => {
    // 03:00 is the first wall time after the March gap and after the October repeat. The series'
    // old offset cache answered the offset before the change at the change instant itself, giving
    // 04:00 CEST in March and 02:00 CET in October (src/common/zones.ts is exact to the millisecond).
    const march = expandSeries(rules({ rrule: 'FREQ=WEEKLY;BYDAY=SU;COUNT=3' }), at('Europe/Paris', '2026-03-22T02:00:00Z'), { until: far });
    expect(iso(march)).toEqual(['2026-03-29T01:00:00Z', '2026-04-05T01:00:00Z']);
    expect(local(march, 'Europe/Paris')).toEqual(['2026-03-29 03:00', '2026-04-05 03:00']);
    const october = expandSeries(rules({ rrule: 'FREQ=WEEKLY;BYDAY=SU;COUNT=3' }), at('Europe/Paris', '2026-10-18T01:00:00Z'), { until: far });
    expect(iso(october)).toEqual(['2026-10-25T02:00:00Z', '2026-11-01T02:00:00Z']);
    expect(local(october, 'Europe/Paris')).toEqual(['2026-10-25 03:00', '2026-11-01 03:00']);
  });

  it('an all-day task series stays on local midnight (daily and weekly, New York and Paris)', () => {
    const ny = at('America/New_York', '2026-10-30T04:00:00Z', true); // due 2026-10-30, 00:00 EDT
    const daily = expandSeries(rules({ rrule: 'FREQ=DAILY;COUNT=4' }), ny, { until: far });
    expect(iso(daily)).toEqual(['2026-10-31T04:00:00Z', '2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z']);
    expect(local(daily, 'America/New_York')).toEqual(['2026-10-31 00:00', '2026-11-01 00:00', '2026-11-02 00:00']);
    const paris = at('Europe/Paris', '2026-10-18T22:00:00Z', true); // due Monday 2026-10-19
    const weekly = expandSeries(rules({ rrule: 'FREQ=WEEKLY;UNTIL=20261102' }), paris, { until: far });
    expect(local(weekly, 'Europe/Paris')).toEqual(['2026-10-26 00:00', '2026-11-02 00:00']);
    expect(iso(weekly)).toEqual(['2026-10-25T23:00:00Z', '2026-11-01T23:00:00Z']);
  });

  it('an all-day series matches every exdate and rdate by local date', () => {
    const paris = at('Europe/Paris', '2026-10-18T22:00:00Z', true);
    const r = rules({ rrule: 'FREQ=DAILY;COUNT=5', exdate: '20261020T120000Z,2026-10-21', rdate: '20261101T150000Z' });
    expect(local(expandSeries(r, paris, { until: far }), 'Europe/Paris')).toEqual(['2026-10-22 00:00', '2026-10-23 00:00', '2026-11-01 00:00']);
    expect(normalizeRecurrence(r, paris)).toEqual({ rrule: 'FREQ=DAILY;COUNT=5', rdate: '20261101', exrule: null, exdate: '20261020,20261021' });
  });

  it('UNTIL in an all-day series is a date, inclusive', () => {
    const ny = at('America/New_York', '2026-10-30T04:00:00Z', true);
    const r = rules({ rrule: 'FREQ=DAILY;UNTIL=20261102T040000Z' }); // 2026-11-01 23:00 EST
    expect(normalizeRecurrence(r, ny).rrule).toBe('FREQ=DAILY;UNTIL=20261101');
    expect(expandSeries(r, ny, { until: far })).toHaveLength(2);
  });

  it('agrees with rrule run directly in floating time, for windows far from the start (fast-forward)', () => {
    const cases: [string, string, string][] = [
      ['FREQ=DAILY;INTERVAL=3', 'Europe/Paris', '2026-10-19T07:00:00Z'],
      ['FREQ=DAILY;BYHOUR=8,13;BYMINUTE=15', 'America/New_York', '2026-02-02T14:00:00Z'],
      ['FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', 'Europe/Paris', '2026-10-22T07:00:00Z'],
      ['FREQ=WEEKLY;INTERVAL=3;WKST=SU;BYDAY=SU,SA', 'Asia/Kolkata', '2026-01-04T04:30:00Z'],
      ['FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=31,-1', 'America/New_York', '2026-01-31T15:00:00Z'],
      ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', 'Europe/Paris', '2026-01-30T08:00:00Z'],
      ['FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU,-1FR', 'Australia/Sydney', '2026-01-13T23:00:00Z'],
      ['FREQ=YEARLY;INTERVAL=2;BYMONTH=3,11;BYDAY=1SU', 'America/New_York', '2026-03-01T15:00:00Z'],
      ['FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO', 'UTC', '2026-05-11T09:00:00Z'],
      ['FREQ=YEARLY;BYYEARDAY=1,-1', 'Europe/Paris', '2026-01-01T08:00:00Z'],
      ['FREQ=DAILY;UNTIL=20400101T000000Z', 'Europe/Paris', '2026-10-19T07:00:00Z'],
    ];
    for (const [rule, zone, start] of cases) {
      const anchor = at(zone, start);
      const startLocal = DateTime.fromJSDate(anchor.start, { zone });
      const dtstart = new Date(Date.UTC(startLocal.year, startLocal.month - 1, startLocal.day, startLocal.hour, startLocal.minute, startLocal.second));
      const reference = new RRule({ ...RRule.parseString(rule), dtstart });
      for (const year of [2027, 2031, 2039]) {
        const from = new Date(Date.UTC(year, 1, 10));
        const to = new Date(Date.UTC(year, 9, 10));
        const expected = reference
          .between(new Date(from.getTime() - 86_400_000), new Date(to.getTime() + 86_400_000), true)
          .map((f) =>
            DateTime.fromObject(
              { year: f.getUTCFullYear(), month: f.getUTCMonth() + 1, day: f.getUTCDate(), hour: f.getUTCHours(), minute: f.getUTCMinutes() },
              { zone },
            ).toJSDate(),
          )
          .filter((d) => d >= from && d < to);
        expect([rule, year, iso(occurrencesBetween(rules({ rrule: rule }), anchor, from, to, 10_000))]).toEqual([rule, year, iso(expected)]);
      }
    }
  });
});

describe('occurrencesBetween', () => {
  const r = rules({ rrule: 'FREQ=WEEKLY;BYDAY=MO' });

  it('includes the base when it falls inside, with from <= start < to', () => {
    expect(iso(occurrencesBetween(r, PARIS_MONDAY_9, new Date('2026-10-19T07:00:00Z'), new Date('2026-11-02T08:00:00Z')))).toEqual([
      '2026-10-19T07:00:00Z',
      '2026-10-26T08:00:00Z',
    ]);
    expect(iso(occurrencesBetween(r, PARIS_MONDAY_9, new Date('2026-10-19T07:00:01Z'), new Date('2026-11-02T08:00:01Z')))).toEqual([
      '2026-10-26T08:00:00Z',
      '2026-11-02T08:00:00Z',
    ]);
    expect(occurrencesBetween(r, PARIS_MONDAY_9, new Date('2026-01-01'), new Date('2026-10-19T07:00:00Z'))).toEqual([]);
    expect(occurrencesBetween(r, PARIS_MONDAY_9, new Date('2026-11-01'), new Date('2026-10-01'))).toEqual([]);
  });

  it('gives a non-recurring entry as itself', () => {
    expect(iso(occurrencesBetween(rules({}), PARIS_MONDAY_9, new Date('2026-10-01'), new Date('2026-11-01')))).toEqual(['2026-10-19T07:00:00Z']);
    expect(occurrencesBetween(rules({ exdate: '20261026' }), PARIS_MONDAY_9, new Date('2026-10-20'), new Date('2026-11-01'))).toEqual([]);
  });

  it('caps at max', () => {
    const dates = occurrencesBetween(rules({ rrule: 'FREQ=DAILY;BYHOUR=9,12,15' }), PARIS_MONDAY_9, new Date('2026-10-19'), new Date('2027-10-19'), 10);
    expect(dates).toHaveLength(10);
    expect(occurrencesBetween(rules({ rrule: 'FREQ=DAILY;BYHOUR=9,12,15' }), PARIS_MONDAY_9, new Date('2026-10-19'), new Date('2027-10-19'))).toHaveLength(366);
  });

  it('throws RangeError for a window wider than windowDays', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    expect(() => occurrencesBetween(r, PARIS_MONDAY_9, from, new Date(from.getTime() + 366 * 86_400_000 + 1))).toThrow(RangeError);
    expect(() => occurrencesBetween(r, PARIS_MONDAY_9, from, new Date(from.getTime() + 366 * 86_400_000))).not.toThrow();
    expect(() => occurrencesBetween(r, PARIS_MONDAY_9, new Date('x'), from)).toThrow(RangeError);
    // occurrencesInSpan is the same without the bound (callers bound it themselves).
    expect(occurrencesInSpan(r, PARIS_MONDAY_9, new Date('2026-01-01'), new Date('2028-01-01'))).toHaveLength(63);
  });

  it('is cheap far from the start (the rule is entered at the right period, not walked from its start)', () => {
    const started = Date.now();
    for (let i = 0; i < 50; i++) {
      const from = new Date(Date.UTC(2500 + i, 0, 1));
      expect(occurrencesBetween(rules({ rrule: 'FREQ=DAILY' }), PARIS_MONDAY_9, from, new Date(from.getTime() + 7 * 86_400_000))).toHaveLength(7);
    }
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an unknown zone or an invalid start with RangeError', () => {
    expect(() => occurrencesBetween(r, at('Mars/Olympus', '2026-01-01T00:00:00Z'), new Date('2026-01-01'), new Date('2026-02-01'))).toThrow(RangeError);
    expect(() => expandSeries(r, { start: new Date('nope'), timeZone: 'UTC', allDay: false }, { until: far })).toThrow(RangeError);
  });
});

describe('checkRecurrence refusals name their field', () => {
  it('accepts the usual forms', () => {
    for (const r of [
      { rrule: 'FREQ=WEEKLY;BYDAY=MO,WE' },
      { rrule: 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE' },
      { rrule: 'rrule:freq=weekly;byday=mo,we;' },
      { rrule: 'DTSTART;TZID=Europe/Paris:20261019T090000\nRRULE:FREQ=WEEKLY' },
      { rrule: 'DTSTART:20261019T070000Z\r\nRRULE:FREQ=WEEKLY' },
      { rrule: 'RRULE:FREQ=WEEKLY;BY\r\n DAY=MO' }, // folded
      { exrule: 'EXRULE:FREQ=MONTHLY', rrule: 'FREQ=DAILY' },
      { exrule: 'RRULE:FREQ=MONTHLY', rrule: 'FREQ=DAILY' },
      { rdate: 'RDATE:20261201T090000Z,20261202T090000Z' },
      { rdate: 'RDATE;VALUE=DATE:20261201,20261202' },
      { rdate: 'RDATE;TZID=America/New_York:20261201T090000\nRDATE:20261203' },
      { rdate: '2026-12-01T09:00:00Z, 2026-12-02 09:30 ,2026-12-03' },
      { exdate: 'EXDATE;TZID=Europe/Paris:20261201T090000', rrule: 'FREQ=DAILY' },
      { exdate: 'exdate:20261201t090000z', rrule: 'FREQ=DAILY' },
    ]) {
      expect(() => checkRecurrence(rules(r), PARIS_MONDAY_9)).not.toThrow();
    }
  });

  it('refuses unparsable rules', () => {
    expectRefused({ rrule: 'every monday' }, 'rrule', /not a rule part/);
    expectRefused({ rrule: 'BYDAY=MO' }, 'rrule', /needs FREQ/);
    expectRefused({ rrule: 'FREQ=FORTNIGHTLY' }, 'rrule', /not a frequency/);
    expectRefused({ rrule: 'FREQ=WEEKLY;BYDAY=XX' }, 'rrule', /BYDAY/);
    expectRefused({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=32' }, 'rrule', /BYMONTHDAY/);
    expectRefused({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=0' }, 'rrule', /BYMONTHDAY/);
    expectRefused({ rrule: 'FREQ=DAILY;INTERVAL=0' }, 'rrule', /INTERVAL/);
    expectRefused({ rrule: 'FREQ=DAILY;COUNT=abc' }, 'rrule', /COUNT/);
    expectRefused({ rrule: 'FREQ=DAILY;FREQ=WEEKLY' }, 'rrule', /FREQ twice/);
    expectRefused({ rrule: 'FREQ=DAILY;BYHOUR=' }, 'rrule', /BYHOUR needs a value/);
    expectRefused({ rrule: 'FREQ=YEARLY;BYEASTER=0' }, 'rrule', /BYEASTER/);
    expectRefused({ rrule: 'FREQ=WEEKLY;BYDAY=1MO' }, 'rrule', /numbered weekday\) needs FREQ=MONTHLY or YEARLY/);
    expectRefused({ rrule: 'FREQ=MONTHLY;BYDAY=6MO' }, 'rrule', /1 to 5/);
    expectRefused({ rrule: 'FREQ=MONTHLY;BYWEEKNO=3' }, 'rrule', /BYWEEKNO needs FREQ=YEARLY/);
    expectRefused({ rrule: 'FREQ=WEEKLY;BYMONTHDAY=3' }, 'rrule', /BYMONTHDAY cannot go with FREQ=WEEKLY/);
    expectRefused({ rrule: 'FREQ=MONTHLY;BYSETPOS=1' }, 'rrule', /BYSETPOS needs another/);
    expectRefused({ rrule: 'FREQ=DAILY;WKST=XX' }, 'rrule', /WKST/);
  });

  it('refuses lengths and counts over the bounds', () => {
    expectRefused({ rrule: `FREQ=DAILY;BYMONTH=${'1,'.repeat(500)}1` }, 'rrule', /too long/);
    expectRefused({ rrule: 'FREQ=DAILY;COUNT=1001' }, 'rrule', /COUNT/);
    expectRefused({ rrule: 'FREQ=DAILY;BYHOUR=1,2,3,4,5;BYMINUTE=0,10,20,30,40,50' }, 'rrule', /30 times a day/);
    const dates = Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2027, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)).join(',');
    expectRefused({ rdate: dates }, 'rdate', /more than 366 dates/);
    expectRefused({ rrule: 'FREQ=DAILY', exdate: dates }, 'exdate', /more than 366 dates/);
    expectRefused({ rdate: '2027-01-01,'.repeat(3000) }, 'rdate', /too long/);
  });

  it('refuses HOURLY, MINUTELY and SECONDLY, saying why', () => {
    for (const freq of ['HOURLY', 'MINUTELY', 'SECONDLY']) {
      expectRefused({ rrule: `FREQ=${freq};COUNT=3` }, 'rrule', /at most once a day/);
      expectRefused({ rrule: 'FREQ=DAILY', exrule: `FREQ=${freq}` }, 'exrule', new RegExp(freq));
    }
  });

  it('refuses several rules in one field', () => {
    expectRefused({ rrule: 'RRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY' }, 'rrule', /exactly one/);
    expectRefused({ rrule: 'FREQ=DAILY\nFREQ=WEEKLY' }, 'rrule', /exactly one/);
    expectRefused({ rrule: 'FREQ=DAILY', exrule: 'EXRULE:FREQ=DAILY\nEXRULE:FREQ=WEEKLY' }, 'exrule', /exactly one/);
    expectRefused({ rrule: 'RRULE:FREQ=DAILY\nEXDATE:20261201' }, 'rrule', /put EXDATE in exdate/);
    expectRefused({ rrule: 'EXRULE:FREQ=DAILY' }, 'rrule', /put EXRULE in exrule/);
  });

  it('refuses a DTSTART or UNTIL that contradicts the entry', () => {
    expectRefused({ rrule: 'DTSTART:20261020T070000Z\nRRULE:FREQ=DAILY' }, 'rrule', /DTSTART .* differs from the entry's start/);
    expectRefused({ rrule: 'DTSTART:garbage\nRRULE:FREQ=DAILY' }, 'rrule', /not a date/);
    expectRefused({ rrule: 'FREQ=DAILY;UNTIL=20261018' }, 'rrule', /UNTIL .* is before the series starts/);
    expectRefused({ rrule: 'FREQ=DAILY;UNTIL=yesterday' }, 'rrule', /UNTIL=YESTERDAY is not a date/);
    expectRefused({ rrule: 'FREQ=DAILY;UNTIL=20261231;COUNT=3' }, 'rrule', /both COUNT and UNTIL/);
    expectRefused({ rrule: 'FREQ=DAILY', exrule: 'FREQ=WEEKLY;UNTIL=20200101' }, 'exrule', /before the series starts/);
  });

  it('refuses rdate/exdate values that are not dates', () => {
    expectRefused({ rdate: 'tomorrow' }, 'rdate', /"tomorrow" is not a date/);
    expectRefused({ rdate: '20260230' }, 'rdate', /not a date/);
    expectRefused({ rdate: '20261201T250000Z' }, 'rdate', /not a date/);
    expectRefused({ rdate: 'RDATE;VALUE=PERIOD:20261201T090000Z/PT1H' }, 'rdate', /periods/);
    expectRefused({ rdate: 'RDATE;VALUE=DATE:20261201T090000Z' }, 'rdate', /VALUE=DATE/);
    expectRefused({ rdate: 'RDATE;TZID=Nowhere/City:20261201T090000' }, 'rdate', /unknown time zone/);
    expectRefused({ rdate: 'RRULE:FREQ=DAILY' }, 'rdate', /put the rule "RRULE:…" in rrule/);
    expectRefused({ rdate: ' , ' }, 'rdate', /no dates/);
    expectRefused({ rrule: 'FREQ=DAILY', exdate: '2026-13-01' }, 'exdate', /not a date/);
    expectRefused({ rrule: 'FREQ=DAILY', exdate: 'RDATE:20261201' }, 'exdate', /not RDATE/);
  });

  it('refuses an rrule that yields nothing, quickly (rrule is kept from walking to the year 9999)', () => {
    for (const rule of [
      'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
      'FREQ=DAILY;INTERVAL=2;BYMONTH=2;BYMONTHDAY=31',
      'FREQ=DAILY;INTERVAL=7;BYDAY=TU',
      'FREQ=WEEKLY;BYMONTH=4;BYDAY=MO;BYSETPOS=6',
      'FREQ=MONTHLY;INTERVAL=12;BYMONTH=3',
      'FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31',
    ]) {
      const started = Date.now();
      expectRefused({ rrule: rule }, 'rrule', /yields no occurrence/);
      expect(Date.now() - started).toBeLessThan(1000);
    }
    expectRefused({ rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=200' }, 'rrule', /COUNT=200 would run more than 100 years/);
    // Sparse but real: the next 29 February that is a Monday (2044).
    expect(() => checkRecurrence(rules({ rrule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO' }), PARIS_MONDAY_9)).not.toThrow();
  });

  it('refuses to remove the base, or to add a date before it', () => {
    expectRefused({ rrule: 'FREQ=DAILY', exdate: '20261019T070000Z' }, 'exdate', /first occurrence, which is the entry itself/);
    expectRefused({ rrule: 'FREQ=DAILY', exdate: '20261019' }, 'exdate', /first occurrence/);
    expectRefused({ rdate: '20261018T070000Z' }, 'rdate', /before the series starts/);
  });

  it('refuses times of day in an all-day series', () => {
    expectRefused({ rrule: 'FREQ=DAILY;BYHOUR=9' }, 'rrule', /all-day series has no time of day/, at('Europe/Paris', '2026-10-18T22:00:00Z', true));
  });

  it('names the first bad field in v3 order', () => {
    expect(refusal(() => checkRecurrence(rules({ rrule: 'nope', rdate: 'nope', exdate: 'nope' }), PARIS_MONDAY_9)).field).toBe('rrule');
    expect(refusal(() => checkRecurrence(rules({ rdate: 'nope', exrule: 'nope' }), PARIS_MONDAY_9)).field).toBe('rdate');
    expect(refusal(() => checkRecurrence(rules({ rrule: 'FREQ=DAILY', exrule: 'nope', exdate: 'nope' }), PARIS_MONDAY_9)).field).toBe('exrule');
  });

  it('expansion refuses what checkRecurrence refuses', () => {
    expect(refusal(() => expandSeries(rules({ rrule: 'FREQ=HOURLY' }), PARIS_MONDAY_9, { until: far })).field).toBe('rrule');
    expect(refusal(() => seriesEnd(rules({ rdate: 'soon' }), PARIS_MONDAY_9)).field).toBe('rdate');
  });
});

describe('normalizeRecurrence', () => {
  it('writes the four fields canonically, and is idempotent', () => {
    const input = rules({
      rrule: 'RRULE:byday=+1mo,-1fr;freq=monthly;until=2027-06-30',
      rdate: 'RDATE;TZID=Europe/Paris:20261201T100000,20261101T100000\nRDATE:20261201T090000Z',
      exrule: 'EXRULE:FREQ=YEARLY;BYMONTH=12;INTERVAL=1',
      exdate: 'EXDATE:20270101,20261231T080000Z',
    });
    const anchor = at('Europe/Paris', '2026-10-05T07:00:00Z'); // first Monday of October, 09:00
    const once = normalizeRecurrence(input, anchor);
    expect(once).toEqual({
      rrule: 'FREQ=MONTHLY;UNTIL=20270630T215959Z;BYDAY=1MO,-1FR',
      rdate: '20261101T090000Z,20261201T090000Z',
      exrule: 'FREQ=YEARLY;INTERVAL=1;BYMONTH=12',
      exdate: '20261231T080000Z,20270101',
    });
    expect(normalizeRecurrence(once, anchor)).toEqual(once);
    expect(iso(expandSeries(once, anchor, { until: far }))).toEqual(iso(expandSeries(input, anchor, { until: far })));
    expect(normalizeRecurrence(rules({ rrule: '  ', exdate: '' }), anchor)).toEqual(rules({}));
  });
});

describe('seriesEnd', () => {
  it('is the last occurrence of a COUNT or UNTIL rule, null for an open one', () => {
    expect(seriesEnd(rules({ rrule: 'FREQ=DAILY;COUNT=3' }), PARIS_MONDAY_9)?.toISOString()).toBe('2026-10-21T07:00:00.000Z');
    expect(seriesEnd(rules({ rrule: 'FREQ=WEEKLY;UNTIL=20261120' }), PARIS_MONDAY_9)?.toISOString()).toBe('2026-11-16T08:00:00.000Z');
    expect(seriesEnd(rules({ rrule: 'FREQ=WEEKLY' }), PARIS_MONDAY_9)).toBeNull();
    expect(seriesEnd(rules({ rrule: 'FREQ=WEEKLY;UNTIL=29991231' }), PARIS_MONDAY_9)).toBeNull(); // beyond 100 years: open
    expect(seriesEnd(rules({}), PARIS_MONDAY_9)).toBeNull();
  });

  it('accounts for RDATE, EXDATE and EXRULE', () => {
    expect(seriesEnd(rules({ rrule: 'FREQ=DAILY;COUNT=3', rdate: '20261224T080000Z' }), PARIS_MONDAY_9)?.toISOString()).toBe('2026-12-24T08:00:00.000Z');
    expect(seriesEnd(rules({ rrule: 'FREQ=DAILY;COUNT=3', exdate: '20261021' }), PARIS_MONDAY_9)?.toISOString()).toBe('2026-10-20T07:00:00.000Z');
    expect(seriesEnd(rules({ rrule: 'FREQ=DAILY;COUNT=2', exdate: '20261020' }), PARIS_MONDAY_9)?.toISOString()).toBe('2026-10-19T07:00:00.000Z');
    expect(seriesEnd(rules({ rdate: '20261105T080000Z,20261102T080000Z' }), PARIS_MONDAY_9)?.toISOString()).toBe('2026-11-05T08:00:00.000Z');
    const weekdays = rules({ rrule: 'FREQ=DAILY;UNTIL=20261122', exrule: 'FREQ=WEEKLY;BYDAY=SA,SU' });
    expect(seriesEnd(weekdays, PARIS_MONDAY_9)?.toISOString()).toBe('2026-11-20T08:00:00.000Z'); // Friday
    const years = rules({ rrule: 'FREQ=YEARLY;UNTIL=20701231' });
    expect(seriesEnd(years, PARIS_MONDAY_9)?.toISOString()).toBe('2070-10-19T07:00:00.000Z');
  });
});

describe('recurrenceForExport', () => {
  it('adds the base as an RDATE when RRULE does not yield it, and spells out date-only exdates', () => {
    const anchor = at('Europe/Paris', '2026-10-20T07:00:00Z'); // a Tuesday
    const exported = recurrenceForExport(rules({ rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=9,17', exdate: '20261026' }), anchor)!;
    expect(exported.rrule).toBe('FREQ=WEEKLY;BYHOUR=9,17;BYDAY=MO');
    expect(iso(exported.rdates)).toEqual(['2026-10-20T07:00:00Z']);
    expect(iso(exported.exdates)).toEqual(['2026-10-26T08:00:00Z', '2026-10-26T16:00:00Z']);
    expect(recurrenceForExport(rules({}), anchor)).toBeNull();
  });
});
