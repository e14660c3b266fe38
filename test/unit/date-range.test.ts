import { BadInputError } from '../../src/common/errors';
import { storableInstant } from '../../src/db/sql';
import { boundedDate, boundedInstant } from '../../src/graphql/filters';
import { dateProblem, instantProblem, localYear, NOT_A_DATE, OUT_OF_RANGE } from '../../src/common/dates';
import { toDate, toDateTime, toDateTimeBound } from '../../src/kit/v3/coerce';
import { V3InputError } from '../../src/kit/v3/input-error';
import { normalizeRecurrence, RecurrenceInvalid, type RecurrenceRules, type SeriesAnchor } from '../../src/modules/calendar/recurrence';

/**
 * Issue 21 §3: one range for every date and datetime a client sends (src/common/dates.ts), years 1
 * to 9999 in UTC and, for an instant read in a zone, in that zone too (0001-01-01T02:00Z is
 * 0000-12-31 in New York); the v3 coercion, the GraphQL inputs and the rule dates all use it.
 */

function failure(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

const NY = 'America/New_York'; // west of UTC; before 1883 on local mean time, -4:56:02
const TOKYO = 'Asia/Tokyo'; // east of UTC

describe('instantProblem', () => {
  it('takes years 1 to 9999 in UTC', () => {
    expect(instantProblem(new Date('0001-01-01T00:00:00Z'))).toBeNull();
    expect(instantProblem(new Date('9999-12-31T23:59:59.999Z'))).toBeNull();
    expect(instantProblem(new Date('0000-12-31T23:59:59.999Z'))).toBe(OUT_OF_RANGE);
    expect(instantProblem(new Date('+010000-01-01T00:00:00Z'))).toBe(OUT_OF_RANGE);
    expect(instantProblem(new Date(Number.NaN))).toBe('is not a valid datetime');
    expect(OUT_OF_RANGE).toBe('is out of range (years 1 to 9999)');
  });

  it('checks the year again on the wall clocks of a zone, after the shift', () => {
    // In range in UTC, out of it in the zone it is read in.
    expect(instantProblem(new Date('0001-01-01T02:00:00Z'), NY)).toBe(`is out of range (years 1 to 9999 in ${NY})`);
    expect(instantProblem(new Date('9999-12-31T20:00:00Z'), TOKYO)).toBe(`is out of range (years 1 to 9999 in ${TOKYO})`);
    // Local mean time has seconds: 04:56:01Z is still 0000-12-31 in New York, 04:56:02Z its first instant of year 1.
    expect(localYear(Date.parse('0001-01-01T04:56:01Z'), NY)).toBe(0);
    expect(instantProblem(new Date('0001-01-01T04:56:02Z'), NY)).toBeNull();
    expect(instantProblem(new Date('9999-12-31T14:59:59.999Z'), TOKYO)).toBeNull();
    // Out of range in UTC says so first, whatever the zone.
    expect(instantProblem(new Date('+010000-01-01T02:00:00Z'), NY)).toBe(OUT_OF_RANGE);
  });

  it("an unknown zone is a server-side problem (RangeError), not the client's", () => {
    expect(() => instantProblem(new Date('2026-01-01T00:00:00Z'), 'Mars/Olympus')).toThrow(RangeError);
  });

  it('storableInstant (every GraphQL datetime write) is the same check', () => {
    expect(storableInstant(new Date('0001-01-01T00:00:00Z'))).toBe(true);
    expect(storableInstant(new Date('0000-12-31T23:59:59Z'))).toBe(false);
    expect(storableInstant(new Date('+010000-01-01T00:00:00Z'))).toBe(false);
  });
});

describe('dateProblem', () => {
  it('takes a day that exists, YYYY-MM-DD, years 1 to 9999', () => {
    for (const ok of ['0001-01-01', '2024-02-29', '9999-12-31']) expect(dateProblem(ok)).toBeNull();
    for (const bad of ['2026-02-29', '2026-13-01', '2026-00-10', '2026-1-1', '2026/01/01', ' 2026-01-01', '', null, 20260101, '+002026-01-31']) {
      expect(dateProblem(bad)).toBe(NOT_A_DATE);
    }
    for (const far of ['0000-12-31', '+010000-01-01', '-000001-06-01']) expect(dateProblem(far)).toBe(OUT_OF_RANGE);
  });
});

describe('GraphQL inputs', () => {
  it('boundedInstant and boundedDate refuse with BAD_USER_INPUT naming the argument path', () => {
    const instant = failure(() => boundedInstant(new Date('0001-01-01T00:00:00Z'), 'filter.within.from', NY)) as BadInputError;
    expect(instant).toBeInstanceOf(BadInputError);
    expect(instant.argument).toBe('filter.within.from');
    expect(instant.message).toBe(`filter.within.from: is out of range (years 1 to 9999 in ${NY})`);
    expect(boundedInstant(new Date('0001-01-01T00:00:00Z'), 'filter.createdAt.gte').toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect((failure(() => boundedInstant('2026-01-01', 'x')) as BadInputError).message).toBe('x: is not a valid datetime');
    expect((failure(() => boundedDate('0000-01-01', 'filter.dueDate.gte')) as BadInputError).message).toBe(
      'filter.dueDate.gte: is out of range (years 1 to 9999)',
    );
    expect(boundedDate('2026-01-31', 'd')).toBe('2026-01-31');
  });
});

describe('v3 coercion', () => {
  it('a far-past date in a zone west of UTC is its exact local midnight (not 2 seconds off into year 0)', () => {
    // luxon writes New York's -04:56:02 as -04:56: the text would name 0000-12-31T23:59:58 there.
    const from = toDateTimeBound('0001-01-01', 'conditions[within][from_date]', NY, 'from')!;
    expect(new Date(from).toISOString()).toBe('0001-01-01T04:56:02.000Z');
    expect(instantProblem(new Date(from), NY)).toBeNull();
    expect(new Date(toDateTime('0001-01-01 00:00', 'start_time', NY)!).toISOString()).toBe('0001-01-01T04:56:02.000Z');
    // Offsets in whole minutes keep their form.
    expect(toDateTime('2014-05-19 08:54:59', 'created_at', NY)).toBe('2014-05-19T08:54:59.000-04:00');
  });

  it("refuses, naming the parameter, a value whose year leaves 1..9999 in UTC or in the viewer's zone", () => {
    const cases: Array<[() => unknown, string, string]> = [
      [
        () => toDateTimeBound('0000-12-31T23:00:00-05:00', 'conditions[within][from_date]', NY, 'from'),
        'conditions[within][from_date]',
        `is out of range (years 1 to 9999 in ${NY})`,
      ],
      [
        () => toDateTimeBound('0001-01-01T00:00:00Z', 'conditions[within][from_date]', NY, 'from'),
        'conditions[within][from_date]',
        `is out of range (years 1 to 9999 in ${NY})`,
      ],
      // Checked on the bound as sent: the end of 9999-12-31 in New York is in 10000 UTC.
      [() => toDateTimeBound('9999-12-31', 'conditions[within][to_date]', NY, 'to'), 'conditions[within][to_date]', OUT_OF_RANGE],
      [
        () => toDateTimeBound('9999-12-31T23:00:00Z', 'conditions[within][to_date]', TOKYO, 'to'),
        'conditions[within][to_date]',
        `is out of range (years 1 to 9999 in ${TOKYO})`,
      ],
      [
        () => toDateTime('9999-12-31T20:00:00Z', 'calendar_entry[start_time]', TOKYO),
        'calendar_entry[start_time]',
        `is out of range (years 1 to 9999 in ${TOKYO})`,
      ],
      [() => toDateTime('9999-12-31T23:00', 'deal[created_at]', NY), 'deal[created_at]', OUT_OF_RANGE],
      [() => toDate('0000-12-31', 'deal[expected_close_date]'), 'deal[expected_close_date]', OUT_OF_RANGE],
      [() => toDate('9999-12-31T23:00:00Z', 'conditions[x][to_date]', TOKYO), 'conditions[x][to_date]', OUT_OF_RANGE],
      [() => toDate('0001-01-01T01:00:00Z', 'conditions[x][from_date]', NY), 'conditions[x][from_date]', OUT_OF_RANGE],
    ];
    for (const [fn, field, message] of cases) {
      const error = failure(fn);
      expect(error).toBeInstanceOf(V3InputError);
      expect({ field: (error as V3InputError).field, message: error.message, status: (error as V3InputError).status }).toEqual({
        field,
        message,
        status: 422,
      });
    }
  });

  it("takes the edges that stay inside in the viewer's zone", () => {
    expect(toDateTimeBound('9999-12-31', 'conditions[within][to_date]', TOKYO, 'to')).toBe('9999-12-31T23:59:59.999+09:00');
    // East of UTC the first local day starts in year 0 UTC: the day after is the first one whole.
    expect(failure(() => toDateTimeBound('0001-01-01', 'conditions[within][from_date]', TOKYO, 'from')).message).toBe(OUT_OF_RANGE);
    expect(new Date(toDateTimeBound('0001-01-02', 'conditions[within][from_date]', TOKYO, 'from')!).toISOString()).toBe('0001-01-01T14:41:01.000Z');
    expect(toDate('9999-12-31T23:00:00Z', 'conditions[x][to_date]', NY)).toBe('9999-12-31');
    expect(toDate('0001-01-01', 'due_date')).toBe('0001-01-01');
  });
});

describe('rule dates (rdate, exdate, UNTIL) written to a series', () => {
  const rules = (r: Partial<RecurrenceRules>): RecurrenceRules => ({ rrule: null, rdate: null, exrule: null, exdate: null, ...r });
  const anchor: SeriesAnchor = { start: new Date('2026-04-01T14:00:00Z'), timeZone: NY, allDay: false };
  const refusal = (r: Partial<RecurrenceRules>) => failure(() => normalizeRecurrence(rules(r), anchor)) as RecurrenceInvalid;

  it('refuses a date the stored text could not be read back from, naming its field', () => {
    // 9999-12-31 23:00 at -05:00 is 10000-01-01T04:00Z: stored as "100000101T040000Z", unreadable afterwards.
    for (const [r, field] of [
      [{ rdate: '9999-12-31T23:00-05:00' }, 'rdate'],
      [{ rrule: 'FREQ=WEEKLY', exdate: '9999-12-31T23:00-05:00' }, 'exdate'],
      [{ rrule: 'FREQ=WEEKLY;UNTIL=9999-12-31T23:00-05:00' }, 'rrule'],
      [{ rrule: 'FREQ=WEEKLY', exrule: 'FREQ=DAILY;UNTIL=99991231T230000' }, 'exrule'],
    ] as const) {
      const error = refusal(r);
      expect(error).toBeInstanceOf(RecurrenceInvalid);
      expect(error.field).toBe(field);
      expect(error.message).toMatch(/is out of range \(years 1 to 9999\)/);
    }
    // An instant in range in UTC but not on the series' wall clock (it is written with TZID).
    const tokyo = failure(() =>
      normalizeRecurrence(rules({ rdate: '99991231T200000Z' }), { start: new Date('2026-04-01T01:00:00Z'), timeZone: TOKYO, allDay: false }),
    ) as RecurrenceInvalid;
    expect(tokyo.message).toBe(`rdate value "99991231T200000Z" is out of range (years 1 to 9999 in ${TOKYO}).`);
  });

  it('takes the far dates that stay in range', () => {
    expect(normalizeRecurrence(rules({ rrule: 'FREQ=WEEKLY;UNTIL=99991231T000000Z' }), anchor).rrule).toBe('FREQ=WEEKLY;UNTIL=99991231T000000Z');
    expect(normalizeRecurrence(rules({ rrule: 'FREQ=WEEKLY', exdate: '99991231' }), anchor).exdate).toBe('99991231');
  });
});
