import { occurrencesInWindow, type SeriesSource } from '../../src/modules/calendar/occurrences';
import type { RecurrenceRules } from '../../src/modules/calendar/recurrence';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const rules = (r: Partial<RecurrenceRules>): RecurrenceRules => ({ rrule: null, rdate: null, exrule: null, exdate: null, ...r });

function source(entryId: number, start: string, durationMs: number, r: RecurrenceRules | null = null, timeZone = 'Europe/Paris', allDay = false): SeriesSource {
  return { entryId, anchor: { start: new Date(start), timeZone, allDay }, durationMs, rules: r };
}

const show = (list: ReturnType<typeof occurrencesInWindow>) =>
  list.map((o) => `${o.entryId} ${o.start.toISOString().slice(0, 16)}–${o.end.toISOString().slice(11, 16)}`);

describe('occurrencesInWindow', () => {
  const from = new Date('2026-10-19T00:00:00Z');
  const to = new Date('2026-10-26T00:00:00Z');

  it('gives a non-recurring entry when it overlaps the window, [from, to)', () => {
    const list = occurrencesInWindow(
      [
        source(1, '2026-10-18T23:00:00Z', 2 * HOUR), // started before, ends inside: overlaps
        source(2, '2026-10-18T22:00:00Z', 2 * HOUR), // ends exactly at `from`: does not
        source(3, '2026-10-19T00:00:00Z', 0), // no duration, at `from`: inside
        source(4, '2026-10-26T00:00:00Z', HOUR), // starts at `to`: outside
        source(5, '2026-10-20T10:00:00Z', HOUR, rules({ exdate: '20261021' })), // exdate alone: no series
        source(6, '2026-10-10T00:00:00Z', 30 * DAY), // spans the whole window
      ],
      from,
      to,
      100,
    );
    expect(show(list)).toEqual(['6 2026-10-10T00:00–00:00', '1 2026-10-18T23:00–01:00', '3 2026-10-19T00:00–00:00', '5 2026-10-20T10:00–11:00']);
  });

  it('expands a series in its zone, with occurrences that started before the window when they overlap it', () => {
    const daily = source(7, '2026-10-01T21:30:00Z', 3 * HOUR, rules({ rrule: 'FREQ=DAILY', exdate: '20261022' })); // 23:30 Paris
    const list = occurrencesInWindow([daily], from, new Date('2026-10-27T00:00:00Z'), 100);
    expect(show(list)).toEqual([
      '7 2026-10-18T21:30–00:30', // overlaps the window's first hour
      '7 2026-10-19T21:30–00:30',
      '7 2026-10-20T21:30–00:30',
      '7 2026-10-21T21:30–00:30',
      // 22 October (Paris) removed
      '7 2026-10-23T21:30–00:30',
      '7 2026-10-24T21:30–00:30',
      '7 2026-10-25T22:30–01:30', // winter time: 23:30 Paris is an hour later in UTC
      '7 2026-10-26T22:30–01:30',
    ]);
  });

  it('sorts by start then entry id, and stops at max', () => {
    const sources = [
      source(9, '2026-10-19T08:00:00Z', HOUR, rules({ rrule: 'FREQ=DAILY' })),
      source(8, '2026-10-19T08:00:00Z', HOUR, rules({ rrule: 'FREQ=DAILY;COUNT=2' })),
      source(10, '2026-10-19T07:00:00Z', HOUR),
    ];
    expect(show(occurrencesInWindow(sources, from, to, 5))).toEqual([
      '10 2026-10-19T07:00–08:00',
      '8 2026-10-19T08:00–09:00',
      '9 2026-10-19T08:00–09:00',
      '8 2026-10-20T08:00–09:00',
      '9 2026-10-20T08:00–09:00',
    ]);
    expect(occurrencesInWindow(sources, from, to, 0)).toEqual([]);
    expect(occurrencesInWindow(sources, to, from, 10)).toEqual([]);
  });

  it('keeps only the earliest `max` across many sources', () => {
    const sources = Array.from({ length: 500 }, (_, i) =>
      source(i + 1, new Date(Date.UTC(2026, 9, 19, 0, 0) + (500 - i) * 60_000).toISOString(), 60_000, rules({ rrule: 'FREQ=DAILY' })),
    );
    const list = occurrencesInWindow(sources, from, to, 10);
    expect(list).toHaveLength(10);
    expect(list.map((o) => o.entryId)).toEqual([500, 499, 498, 497, 496, 495, 494, 493, 492, 491]);
  });

  it('shows only the base of a series whose stored rules no longer compile', () => {
    const broken = source(11, '2026-10-20T08:00:00Z', HOUR, rules({ rrule: 'FREQ=HOURLY' }));
    expect(show(occurrencesInWindow([broken], from, to, 10))).toEqual(['11 2026-10-20T08:00–09:00']);
  });

  it('gives an all-day task series day by day', () => {
    const task = source(12, '2026-10-30T04:00:00Z', DAY, rules({ rrule: 'FREQ=DAILY;COUNT=4' }), 'America/New_York', true);
    expect(show(occurrencesInWindow([task], new Date('2026-10-29T00:00:00Z'), new Date('2026-11-10T00:00:00Z'), 10))).toEqual([
      '12 2026-10-30T04:00–04:00',
      '12 2026-10-31T04:00–04:00',
      '12 2026-11-01T04:00–04:00',
      '12 2026-11-02T05:00–05:00',
    ]);
  });

  it('refuses a window wider than windowDays, and invalid dates', () => {
    expect(() => occurrencesInWindow([], from, new Date(from.getTime() + 367 * DAY), 10)).toThrow(RangeError);
    expect(() => occurrencesInWindow([], new Date('bad'), to, 10)).toThrow(RangeError);
    expect(() => occurrencesInWindow([source(1, '2026-10-20T08:00:00Z', HOUR, rules({ rrule: 'FREQ=DAILY' }), 'Mars/Base')], from, to, 10)).toThrow(RangeError);
  });

  it('stays cheap for thousands of series started years ago', () => {
    const sources = Array.from({ length: 2000 }, (_, i) =>
      source(i + 1, new Date(Date.UTC(2016, 0, 1) + i * HOUR).toISOString(), HOUR, rules({ rrule: i % 2 ? 'FREQ=DAILY' : 'FREQ=WEEKLY;BYDAY=MO,TH' })),
    );
    const started = Date.now();
    const list = occurrencesInWindow(sources, from, to, 200);
    expect(list).toHaveLength(200);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
