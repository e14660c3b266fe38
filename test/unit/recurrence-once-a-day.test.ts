import { DateTime } from 'luxon';
import {
  checkRecurrence,
  expandSeries,
  normalizeRecurrence,
  RecurrenceInvalid,
  type RecurrenceField,
  type RecurrenceRules,
  type SeriesAnchor,
} from '../../src/modules/calendar/recurrence';

/**
 * Issue 21 §4: a series repeats at most once a day. FREQ=HOURLY/MINUTELY/SECONDLY was refused, but
 * FREQ=DAILY;BYHOUR=1,2,3;BYMINUTE=0,15,30,45 made 12 occurrences a day. Any rule (rrule or exrule)
 * with more than one time of day is refused now, whatever its frequency, BYDAY or BYSETPOS; one
 * BYHOUR/BYMINUTE/BYSECOND value only sets the time and stays allowed.
 */

const rules = (r: Partial<RecurrenceRules>): RecurrenceRules => ({ rrule: null, rdate: null, exrule: null, exdate: null, ...r });
const PARIS_MONDAY_9: SeriesAnchor = { start: new Date('2026-10-19T07:00:00Z'), timeZone: 'Europe/Paris', allDay: false };

function refusal(r: Partial<RecurrenceRules>): RecurrenceInvalid {
  try {
    checkRecurrence(rules(r), PARIS_MONDAY_9);
  } catch (error) {
    if (error instanceof RecurrenceInvalid) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(r)} to be refused`);
}

describe('a series repeats at most once a day', () => {
  it('refuses several times of day in a daily rule, saying how often it would repeat and what to do', () => {
    const error = refusal({ rrule: 'FREQ=DAILY;BYHOUR=1,2,3;BYMINUTE=0,15,30,45' });
    expect(error.field).toBe('rrule');
    expect(error.message).toBe(
      'rrule gives 12 times a day (BYHOUR=1,2,3 with BYMINUTE=0,15,30,45): a calendar series repeats at most once a day. ' +
        'Give one value at most in each of BYHOUR, BYMINUTE and BYSECOND (they set the time of day), or make one series per time.',
    );
  });

  it('refuses every rule with several times of day, whatever its frequency or BYSETPOS', () => {
    const cases: Array<[Partial<RecurrenceRules>, RecurrenceField, RegExp]> = [
      [{ rrule: 'FREQ=DAILY;BYHOUR=9,17' }, 'rrule', /gives 2 times a day \(BYHOUR=9,17\)/],
      [{ rrule: 'FREQ=DAILY;BYMINUTE=0,30' }, 'rrule', /gives 2 times a day \(BYMINUTE=0,30\)/],
      [{ rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0,30' }, 'rrule', /gives 2 times a day \(BYSECOND=0,30\)/],
      [{ rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=9,17' }, 'rrule', /2 times a day/],
      [{ rrule: 'FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9,12,15' }, 'rrule', /3 times a day/],
      [{ rrule: 'FREQ=YEARLY;BYMONTH=10;BYMONTHDAY=19;BYMINUTE=0,1' }, 'rrule', /2 times a day/],
      // BYSETPOS picks among the period's occurrences: it may leave several on one day (here the
      // first two of each day), so a rule with several times is refused whatever it picks.
      [{ rrule: 'FREQ=DAILY;BYHOUR=9,12,15;BYSETPOS=1,2' }, 'rrule', /3 times a day/],
      [{ rrule: 'FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,17;BYSETPOS=-1' }, 'rrule', /2 times a day/],
      // A repeated value is one time.
      [{ rrule: 'FREQ=DAILY', exrule: 'FREQ=DAILY;BYHOUR=9,10' }, 'exrule', /exrule gives 2 times a day/],
      [{ rrule: 'FREQ=HOURLY' }, 'rrule', /cannot repeat HOURLY: a calendar series repeats at most once a day/],
      [{ rrule: 'FREQ=DAILY', exrule: 'FREQ=MINUTELY' }, 'exrule', /cannot repeat MINUTELY/],
    ];
    for (const [r, field, pattern] of cases) {
      const error = refusal(r);
      expect({ rule: r, field: error.field }).toEqual({ rule: r, field });
      expect(error.message).toMatch(pattern);
    }
  });

  it('takes a single BYHOUR, BYMINUTE and BYSECOND (they set the time of day), and repeated values as one', () => {
    expect(normalizeRecurrence(rules({ rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=30;BYSECOND=0;COUNT=3' }), PARIS_MONDAY_9).rrule).toBe(
      'FREQ=DAILY;COUNT=3;BYSECOND=0;BYMINUTE=30;BYHOUR=9',
    );
    expect(normalizeRecurrence(rules({ rrule: 'FREQ=DAILY;BYHOUR=9,9' }), PARIS_MONDAY_9).rrule).toBe('FREQ=DAILY;BYHOUR=9');
    expect(normalizeRecurrence(rules({ rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17' }), PARIS_MONDAY_9).rrule).toBe(
      'FREQ=MONTHLY;BYHOUR=17;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
    );
  });

  it('one time of day never gives a day two occurrences, whatever the rule', () => {
    const day = (d: Date) => DateTime.fromJSDate(d, { zone: 'Europe/Paris' }).toISODate();
    for (const rrule of [
      'FREQ=DAILY;BYHOUR=9',
      'FREQ=WEEKLY;BYDAY=MO,TU,WE;BYHOUR=9',
      'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,2,-1',
      'FREQ=YEARLY;BYWEEKNO=43,44;BYDAY=MO,TU',
    ]) {
      const r = normalizeRecurrence(rules({ rrule }), PARIS_MONDAY_9);
      const days = expandSeries(r, PARIS_MONDAY_9, { until: new Date('2028-01-01T00:00:00Z'), max: 300 }).map(day);
      expect(days.length).toBeGreaterThan(1);
      expect(new Set(days).size).toBe(days.length);
    }
  });

  it('a rule stored before the refusal still expands (read as stored, not refused when read)', () => {
    const stored = rules({ rrule: 'FREQ=DAILY;BYHOUR=9,17;COUNT=4' });
    expect(expandSeries(stored, PARIS_MONDAY_9, { until: new Date('2027-01-01T00:00:00Z') })).toHaveLength(3);
  });
});
