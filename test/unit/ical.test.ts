import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { escapeText, fold, toICalendar, type ICalEntry } from '../../src/modules/calendar/ical';
import { occurrencesBetween, type RecurrenceRules } from '../../src/modules/calendar/recurrence';

const NOW = new Date('2026-06-01T12:00:00Z');
const OPTIONS = { calendarName: 'Sales, team; "main"', uidDomain: 'crm.example.com', now: NOW };

function event(over: Partial<ICalEntry> = {}): ICalEntry {
  return {
    id: 1,
    kind: 'event',
    name: 'Standup',
    description: null,
    start: new Date('2026-10-19T07:00:00Z'),
    end: new Date('2026-10-19T07:30:00Z'),
    dueDate: null,
    allDay: false,
    timeZone: 'Europe/Paris',
    complete: false,
    completedAt: null,
    createdAt: new Date('2026-01-01T08:00:00Z'),
    updatedAt: new Date('2026-01-02T09:30:00Z'),
    category: null,
    priority: null,
    rules: null,
    ...over,
  };
}

function task(over: Partial<ICalEntry> = {}): ICalEntry {
  return event({ kind: 'task', start: null, end: null, dueDate: '2026-10-30', allDay: true, ...over });
}

const rules = (r: Partial<RecurrenceRules>): RecurrenceRules => ({ rrule: null, rdate: null, exrule: null, exdate: null, ...r });

function parse(text: string) {
  return new ICAL.Component(ICAL.parse(text));
}

function components(text: string, name: 'vevent' | 'vtodo') {
  return parse(text).getAllSubcomponents(name);
}

/** Occurrence starts ical.js expands from the first component, from <= start < to. */
function icalOccurrences(text: string, name: 'vevent' | 'vtodo', from: Date, to: Date): Date[] {
  const comp = parse(text).getFirstSubcomponent(name)!;
  const iterator = new ICAL.Event(comp).iterator();
  const out: Date[] = [];
  for (let next = iterator.next(); next; next = iterator.next()) {
    const date = next.toJSDate();
    if (date >= to) break;
    if (date >= from) out.push(date);
  }
  return out;
}

const iso = (dates: readonly Date[]) => dates.map((d) => d.toISOString());

describe('toICalendar: the calendar', () => {
  const text = toICalendar([event()], OPTIONS);

  it('is a VCALENDAR with CRLF line endings and the calendar properties', () => {
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//CRM Service//Calendar Export//EN\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const cal = parse(text);
    expect(cal.getFirstPropertyValue('version')).toBe('2.0');
    expect(text).toContain('NAME:Sales\\, team\\; "main"\r\n'); // RFC 7986 NAME is TEXT: escaped
    expect(text).toContain('X-WR-CALNAME:Sales\\, team\\; "main"\r\n');
    expect(cal.getFirstProperty('name')).not.toBeNull(); // ical.js has no RFC 7986 value types: it keeps the raw text
    expect(toICalendar([], { ...OPTIONS, productId: '-//Acme//CRM//EN' })).toContain('PRODID:-//Acme//CRM//EN\r\n');
  });

  it('gives each entry a UID, DTSTAMP, CREATED and LAST-MODIFIED', () => {
    const [vevent] = components(text, 'vevent');
    expect(vevent.getFirstPropertyValue('uid')).toBe('calendar-entry-1@crm.example.com');
    expect(text).toContain('DTSTAMP:20260601T120000Z\r\n');
    expect(text).toContain('CREATED:20260101T080000Z\r\n');
    expect(text).toContain('LAST-MODIFIED:20260102T093000Z\r\n');
    expect((vevent.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate()).toEqual(NOW);
  });
});

describe('toICalendar: events', () => {
  it('writes a timed event in its zone, with a VTIMEZONE that ical.js reads back', () => {
    const text = toICalendar([event({ category: 'Meeting', priority: 'High', description: 'Daily' })], OPTIONS);
    expect(text).toContain('DTSTART;TZID=Europe/Paris:20261019T090000\r\n');
    expect(text).toContain('DTEND;TZID=Europe/Paris:20261019T093000\r\n');
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\n');
    const ev = new ICAL.Event(components(text, 'vevent')[0]);
    expect(ev.summary).toBe('Standup');
    expect(ev.description).toBe('Daily');
    expect(ev.startDate.toJSDate().toISOString()).toBe('2026-10-19T07:00:00.000Z');
    expect(ev.endDate.toJSDate().toISOString()).toBe('2026-10-19T07:30:00.000Z');
    expect(ev.startDate.zone.tzid).toBe('Europe/Paris');
    expect(ev.component.getFirstPropertyValue('categories')).toBe('Meeting');
    expect(ev.component.getFirstPropertyValue('priority')).toBe(3);
  });

  it('writes UTC times with Z and no VTIMEZONE, and an unknown zone as UTC', () => {
    const text = toICalendar([event({ timeZone: 'Etc/UTC' }), event({ id: 2, timeZone: 'Not/AZone' })], OPTIONS);
    expect(text).not.toContain('VTIMEZONE');
    expect(text.match(/DTSTART:20261019T070000Z\r\n/g)).toHaveLength(2);
  });

  it('writes an all-day event as dates, DTEND the day after its last day', () => {
    const oneDay = event({ allDay: true, start: new Date('2026-10-18T22:00:00Z'), end: new Date('2026-10-18T22:00:00Z') });
    const threeDays = event({ id: 2, allDay: true, start: new Date('2026-10-18T22:00:00Z'), end: new Date('2026-10-21T21:00:00Z') });
    const midnightEnd = event({ id: 3, allDay: true, start: new Date('2026-10-18T22:00:00Z'), end: new Date('2026-10-20T22:00:00Z') });
    const text = toICalendar([oneDay, threeDays, midnightEnd], OPTIONS);
    const [a, b, c] = components(text, 'vevent').map((comp) => new ICAL.Event(comp));
    expect(a.startDate.isDate).toBe(true);
    expect([a.startDate.toString(), a.endDate.toString()]).toEqual(['2026-10-19', '2026-10-20']);
    expect([b.startDate.toString(), b.endDate.toString()]).toEqual(['2026-10-19', '2026-10-22']);
    expect([c.startDate.toString(), c.endDate.toString()]).toEqual(['2026-10-19', '2026-10-21']);
    expect(text).toContain('DTSTART;VALUE=DATE:20261019\r\nDTEND;VALUE=DATE:20261020\r\n');
    expect(text).not.toContain('VTIMEZONE');
  });

  it('leaves out an event without a start, and DTEND when the end is missing or before the start', () => {
    const text = toICalendar([event({ start: null }), event({ id: 2, end: null }), event({ id: 3, end: new Date('2026-10-19T06:00:00Z') })], OPTIONS);
    const events = components(text, 'vevent');
    expect(events.map((e) => e.getFirstPropertyValue('uid'))).toEqual(['calendar-entry-2@crm.example.com', 'calendar-entry-3@crm.example.com']);
    expect(text).not.toContain('DTEND');
  });

  it('maps priorities to 1..9 and leaves unknown ones out', () => {
    const text = toICalendar(
      ['Urgent', 'high', 'Medium', 'low', '2', 'Whenever', null].map((priority, i) => event({ id: i + 1, priority })),
      OPTIONS,
    );
    expect(components(text, 'vevent').map((e) => e.getFirstPropertyValue('priority'))).toEqual([1, 3, 5, 7, 2, null, null]);
  });
});

describe('toICalendar: tasks', () => {
  it('writes VTODOs: DUE as a date, STATUS and COMPLETED', () => {
    const open = task();
    const done = task({ id: 2, complete: true, completedAt: new Date('2026-10-29T16:45:00Z') });
    const doneUnknown = task({ id: 3, complete: true, dueDate: null });
    const text = toICalendar([open, done, doneUnknown], OPTIONS);
    const [a, b, c] = components(text, 'vtodo');
    expect(a.getFirstPropertyValue('status')).toBe('NEEDS-ACTION');
    expect((a.getFirstPropertyValue('due') as ICAL.Time).toString()).toBe('2026-10-30');
    expect((a.getFirstPropertyValue('due') as ICAL.Time).isDate).toBe(true);
    expect(a.getFirstPropertyValue('completed')).toBeNull();
    expect(a.getFirstProperty('dtstart')).toBeNull();
    expect(b.getFirstPropertyValue('status')).toBe('COMPLETED');
    expect((b.getFirstPropertyValue('completed') as ICAL.Time).toJSDate().toISOString()).toBe('2026-10-29T16:45:00.000Z');
    expect(b.getFirstPropertyValue('percent-complete')).toBe(100);
    expect(c.getFirstProperty('due')).toBeNull();
    expect((c.getFirstPropertyValue('completed') as ICAL.Time).toJSDate()).toEqual(doneUnknown.updatedAt); // completed_at unknown
    expect(text).not.toContain('VEVENT');
  });
});

describe('toICalendar: text', () => {
  it('escapes backslash, semicolon, comma and newlines, and ical.js reads them back', () => {
    const name = 'Call: Smith, Jones; re \\share\\ deal';
    const description = 'Line one\nLine two\r\nLine three\rend; a, b \\ c\u0007';
    const text = toICalendar([event({ name, description, category: 'Follow-up, urgent' })], OPTIONS);
    expect(text).toContain('SUMMARY:Call: Smith\\, Jones\\; re \\\\share\\\\ deal\r\n');
    const ev = new ICAL.Event(components(text, 'vevent')[0]);
    expect(ev.summary).toBe(name);
    expect(ev.description).toBe('Line one\nLine two\nLine three\nend; a, b \\ c'); // the control character dropped
    expect(escapeText('a\\;,\n')).toBe('a\\\\\\;\\,\\n');
    expect(ev.component.getFirstProperty('categories')!.getValues()).toEqual(['Follow-up, urgent']);
  });

  it('folds long UTF-8 lines at 75 octets without splitting a character', () => {
    const description = `Compte rendu — réunion ${'é'.repeat(40)} 日本語のテキスト ${'🙂'.repeat(30)} ${'x'.repeat(200)} fin.`;
    const text = toICalendar([event({ description, name: '€'.repeat(100) })], OPTIONS);
    const physical = text.split('\r\n');
    for (const line of physical) {
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
      expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line); // no half of a surrogate pair
    }
    // Decoding the bytes line by line (as a reader splitting on CRLF would) loses nothing.
    const bytes = Buffer.from(text, 'utf8');
    const pieces: string[] = [];
    for (let start = 0; start < bytes.length;) {
      const end = bytes.indexOf('\r\n', start);
      pieces.push(bytes.subarray(start, end).toString('utf8'));
      start = end + 2;
    }
    expect(pieces.join('\r\n') + '\r\n').toBe(text);
    expect(pieces.some((piece) => piece.includes('\uFFFD'))).toBe(false);
    expect(physical.filter((line) => line.startsWith(' ')).length).toBeGreaterThan(5);
    const ev = new ICAL.Event(components(text, 'vevent')[0]);
    expect(ev.description).toBe(description);
    expect(ev.summary).toBe('€'.repeat(100));
    expect(fold('a'.repeat(75))).toBe('a'.repeat(75));
    expect(fold('a'.repeat(76))).toBe(`${'a'.repeat(75)}\r\n a`);
    expect(
      fold('é'.repeat(38))
        .split('\r\n')
        .map((l) => Buffer.byteLength(l)),
    ).toEqual([74, 3]);
  });
});

describe('toICalendar: time zones', () => {
  /** Instants every ~5 days over the years, plus a few either side of the transitions. */
  function instants(zone: string, fromYear: number, toYear: number): Date[] {
    const out: Date[] = [];
    for (let ms = Date.UTC(fromYear, 0, 1, 9, 17); ms < Date.UTC(toYear, 0, 1); ms += 5 * 86_400_000 + 3_600_000) {
      const d = DateTime.fromMillis(ms, { zone });
      // Skip wall times a DST change repeats (ical.js, unlike RFC 5545, reads them as standard time).
      const back = DateTime.fromObject({ year: d.year, month: d.month, day: d.day, hour: d.hour, minute: d.minute }, { zone });
      const otherOffset =
        back.offset !== DateTime.fromMillis(ms - 3_600_000, { zone }).offset || back.offset !== DateTime.fromMillis(ms + 3_600_000, { zone }).offset;
      if (back.toMillis() === ms && !otherOffset) out.push(new Date(ms));
    }
    // And every hour of the days on which the offset changes.
    for (let day = Date.UTC(fromYear, 0, 1); day < Date.UTC(toYear, 0, 1); day += 86_400_000) {
      if (DateTime.fromMillis(day, { zone }).offset === DateTime.fromMillis(day + 86_400_000, { zone }).offset) continue;
      for (let ms = day - 3 * 3_600_000 + 60_000; ms < day + 27 * 3_600_000; ms += 3_600_000) {
        const d = DateTime.fromMillis(ms, { zone });
        const back = DateTime.fromObject({ year: d.year, month: d.month, day: d.day, hour: d.hour, minute: d.minute }, { zone });
        const near = [-3_600_000, 3_600_000].some((delta) => DateTime.fromMillis(ms + delta, { zone }).offset !== d.offset);
        if (back.toMillis() === ms && !near) out.push(new Date(ms));
      }
    }
    return out.sort((a, b) => a.getTime() - b.getTime());
  }

  it.each([
    ['Europe/Paris', 2024, 2029],
    ['America/New_York', 2025, 2028],
    ['Australia/Sydney', 2025, 2028], // DST across the new year
    ['Australia/Lord_Howe', 2025, 2027], // a 30-minute DST shift
    ['Asia/Kolkata', 2025, 2027], // no DST
    ['America/Sao_Paulo', 2017, 2021], // DST abolished in 2019
    ['Africa/Casablanca', 2025, 2027], // moves its offset around Ramadan
  ])('%s: ical.js maps every written wall time back to the same instant', (zone, from, to) => {
    const starts = instants(zone, from, to);
    const entries = starts.map((start, i) => event({ id: i + 1, timeZone: zone, start, end: new Date(start.getTime() + 3_600_000) }));
    const text = toICalendar(entries, OPTIONS);
    expect(parse(text).getAllSubcomponents('vtimezone')).toHaveLength(1);
    const read = components(text, 'vevent').map((comp) => new ICAL.Event(comp).startDate.toJSDate().toISOString());
    expect(read).toEqual(iso(starts));
  });

  it('keeps the zone right beyond the data (the yearly DST rule goes on as RRULEs)', () => {
    const text = toICalendar([event()], OPTIONS);
    expect(text).toMatch(/RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU/);
    expect(text).toMatch(/RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU/);
    const series = toICalendar([event({ rules: rules({ rrule: 'FREQ=WEEKLY;BYDAY=MO' }) })], OPTIONS);
    const from = new Date('2040-03-01T00:00:00Z');
    const to = new Date('2040-11-30T00:00:00Z');
    const expected = occurrencesBetween(rules({ rrule: 'FREQ=WEEKLY;BYDAY=MO' }), { start: event().start!, timeZone: 'Europe/Paris', allDay: false }, from, to);
    expect(iso(icalOccurrences(series, 'vevent', from, to))).toEqual(iso(expected));
    expect(new Set(expected.map((d) => DateTime.fromJSDate(d, { zone: 'Europe/Paris' }).toFormat('HH:mm')))).toEqual(new Set(['09:00']));
  });

  it('writes no yearly rule for a zone without a yearly pattern, and an unusual yearly rule as it is', () => {
    const casablanca = toICalendar([event({ timeZone: 'Africa/Casablanca' })], OPTIONS);
    const vtimezone = casablanca.slice(casablanca.indexOf('BEGIN:VTIMEZONE'), casablanca.indexOf('END:VTIMEZONE'));
    expect(vtimezone).not.toContain('RRULE');
    expect(vtimezone.match(/BEGIN:(STANDARD|DAYLIGHT)/g)!.length).toBeGreaterThan(10);
    // Israel: the Friday before the last Sunday of March.
    expect(toICalendar([event({ timeZone: 'Asia/Jerusalem' })], OPTIONS)).toContain('RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=23,24,25,26,27,28,29;BYDAY=FR\r\n');
  });

  it('writes one VTIMEZONE per zone used', () => {
    const text = toICalendar(
      [event(), event({ id: 2, timeZone: 'America/New_York' }), event({ id: 3 }), event({ id: 4, allDay: true, timeZone: 'Asia/Tokyo' })],
      OPTIONS,
    );
    expect(
      parse(text)
        .getAllSubcomponents('vtimezone')
        .map((c) => c.getFirstPropertyValue('tzid')),
    ).toEqual(['America/New_York', 'Europe/Paris']);
  });
});

describe('toICalendar: series', () => {
  /** ical.js's expansion of the written series equals occurrencesBetween's. */
  function expectSameOccurrences(entry: ICalEntry, from: Date, to: Date, name: 'vevent' | 'vtodo' = 'vevent') {
    const text = toICalendar([entry], OPTIONS);
    const components = parse(text).getAllSubcomponents(name);
    expect(components).toHaveLength(1); // ONE component for the series
    const anchor =
      entry.kind === 'event'
        ? { start: entry.start!, timeZone: entry.timeZone, allDay: entry.allDay }
        : { start: DateTime.fromISO(entry.dueDate!, { zone: entry.timeZone }).toJSDate(), timeZone: entry.timeZone, allDay: true };
    const ours = occurrencesBetween(entry.rules!, anchor, from, to);
    expect(ours.length).toBeGreaterThan(1);
    if (anchor.allDay) {
      const day = (d: Date) => DateTime.fromJSDate(d, { zone: entry.timeZone }).toISODate();
      const theirs = icalOccurrencesAllDay(text, name, from, to);
      expect(theirs).toEqual(ours.map(day));
    } else {
      expect(iso(icalOccurrences(text, name, from, to))).toEqual(iso(ours));
    }
    return text;
  }

  function icalOccurrencesAllDay(text: string, name: 'vevent' | 'vtodo', from: Date, to: Date): string[] {
    const comp = parse(text).getFirstSubcomponent(name)!;
    const iterator = new ICAL.Event(comp).iterator();
    const out: string[] = [];
    const [first, last] = [from, to].map((d) => d.toISOString().slice(0, 10));
    for (let next = iterator.next(); next; next = iterator.next()) {
      expect(next.isDate).toBe(true);
      const day = next.toString();
      if (day >= last) break;
      if (day >= first) out.push(day);
    }
    return out;
  }

  it('weekly across the Paris DST change, with EXDATEs (an instant and a whole day)', () => {
    const entry = event({
      rules: rules({ rrule: 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE', exdate: 'EXDATE;TZID=Europe/Paris:20261028T090000,20261104' }),
    });
    const text = expectSameOccurrences(entry, new Date('2026-10-01T00:00:00Z'), new Date('2027-04-30T00:00:00Z'));
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n');
    expect(text).toContain('EXDATE;TZID=Europe/Paris:20261028T090000,20261104T090000\r\n');
    expect(text).not.toContain('RRULE:RRULE');
  });

  it('daily COUNT across the New York change, and an UNTIL', () => {
    const start = new Date('2026-10-29T13:00:00Z');
    expectSameOccurrences(
      event({ timeZone: 'America/New_York', start, end: null, rules: rules({ rrule: 'FREQ=DAILY;COUNT=10' }) }),
      new Date('2026-10-01'),
      new Date('2026-12-01'),
    );
    const text = expectSameOccurrences(
      event({ timeZone: 'America/New_York', start, end: null, rules: rules({ rrule: 'FREQ=DAILY;INTERVAL=2;UNTIL=20261115' }) }),
      new Date('2026-10-01'),
      new Date('2026-12-01'),
    );
    expect(text).toContain('RRULE:FREQ=DAILY;UNTIL=20261116T045959Z;INTERVAL=2\r\n');
  });

  it('monthly BYMONTHDAY=31 with RDATEs, in UTC', () => {
    const entry = event({
      timeZone: 'UTC',
      start: new Date('2026-01-31T10:00:00Z'),
      rules: rules({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=31', rdate: '20260415T100000Z,2026-06-30T10:00:00Z' }),
    });
    const text = expectSameOccurrences(entry, new Date('2026-01-01'), new Date('2027-01-01'));
    expect(text).toContain('RDATE:20260415T100000Z,20260630T100000Z\r\n');
  });

  it('a base that the rule does not yield stays the first occurrence (written as an RDATE)', () => {
    const tuesday = event({ start: new Date('2026-10-20T07:00:00Z'), rules: rules({ rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3' }) });
    const text = expectSameOccurrences(tuesday, new Date('2026-10-01'), new Date('2027-01-01'));
    expect(text).toContain('RDATE;TZID=Europe/Paris:20261020T090000\r\n');
  });

  it('an all-day daily task series and a weekly all-day event series, as dates', () => {
    const daily = task({ timeZone: 'America/New_York', rules: rules({ rrule: 'FREQ=DAILY;COUNT=6', exdate: '20261101' }) });
    const text = expectSameOccurrences(daily, new Date('2026-10-01T00:00:00Z'), new Date('2026-12-01T00:00:00Z'), 'vtodo');
    expect(text).toContain('DTSTART;VALUE=DATE:20261030\r\nDUE;VALUE=DATE:20261030\r\nRRULE:FREQ=DAILY;COUNT=6\r\nEXDATE;VALUE=DATE:20261101\r\n');
    const weekly = event({
      allDay: true,
      start: new Date('2026-10-18T22:00:00Z'),
      end: new Date('2026-10-18T22:00:00Z'),
      rules: rules({ rrule: 'FREQ=WEEKLY;UNTIL=20261207', rdate: '20261224', exdate: '20261102' }),
    });
    const weeklyText = expectSameOccurrences(weekly, new Date('2026-10-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z'));
    expect(weeklyText).toContain('RRULE:FREQ=WEEKLY;UNTIL=20261207\r\n');
    expect(weeklyText).toContain('RDATE;VALUE=DATE:20261224\r\n');
  });

  it('writes EXRULE (deprecated in RFC 5545, still read by most readers) normalised', () => {
    const text = toICalendar([event({ rules: rules({ rrule: 'FREQ=DAILY', exrule: 'exrule:freq=weekly;byday=sa,su' }) })], OPTIONS);
    expect(text).toContain('RRULE:FREQ=DAILY\r\nEXRULE:FREQ=WEEKLY;BYDAY=SA,SU\r\n');
  });

  it('exports an entry whose stored rule no longer compiles as a single occurrence', () => {
    const text = toICalendar([event({ rules: rules({ rrule: 'FREQ=HOURLY' }) })], OPTIONS);
    expect(components(text, 'vevent')).toHaveLength(1);
    expect(components(text, 'vevent')[0].getFirstProperty('rrule')).toBeNull();
  });
});

describe('toICalendar: size', () => {
  it('is linear: thousands of entries in a few zones', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC'];
    const entries = Array.from({ length: 5000 }, (_, i) =>
      i % 3 === 2
        ? task({ id: i + 1, name: `Task ${i}`, dueDate: '2026-11-01', complete: i % 2 === 0 })
        : event({
            id: i + 1,
            name: `Event ${i}`,
            description: 'Notes '.repeat(i % 40),
            timeZone: zones[i % zones.length],
            start: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000),
            end: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000 + 1_800_000),
            rules: i % 10 === 0 ? rules({ rrule: 'FREQ=WEEKLY', exdate: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000 + 7 * 86_400_000).toISOString() }) : null,
          }),
    );
    const started = Date.now();
    const text = toICalendar(entries, OPTIONS);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(components(text, 'vevent').length + components(text, 'vtodo').length).toBe(5000);
  });
});
