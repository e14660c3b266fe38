import ICAL from 'ical.js';
import { FixedClock } from '../../src/common/clock';
import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestResponse, type TestServer, type V3Client } from '../support/test-server';

/**
 * Issue 14 §5: GET /api/v3/calendar_entries.ics, read back with an independent iCalendar parser
 * (ical.js): one component per entry of no series and per series (its base with its rules), times
 * in the series' zone, rules that expand to the stored occurrences, the list's conditions,
 * visibility and errors. Europe/Berlin springs forward on Sunday 2026-03-29.
 */

const NOW = '2026-03-20T12:00:00Z';

interface Feed {
  readonly res: TestResponse;
  readonly events: ICAL.Component[];
  readonly todos: ICAL.Component[];
}

function parse(text: string): { events: ICAL.Component[]; todos: ICAL.Component[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  // The feed's own VTIMEZONEs, so that TZID times read as the instants they are.
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return { events: calendar.getAllSubcomponents('vevent'), todos: calendar.getAllSubcomponents('vtodo') };
}

const summaries = (components: readonly ICAL.Component[]) => components.map((c) => String(c.getFirstPropertyValue('summary'))).sort();
const byName = (components: readonly ICAL.Component[], name: string) => {
  const found = components.filter((c) => c.getFirstPropertyValue('summary') === name);
  expect(found).toHaveLength(1);
  return found[0];
};

/** Every start a component's recurrence set yields, as ical.js expands it (RRULE, RDATE, EXDATE). */
function expand(component: ICAL.Component, limit = 100): string[] {
  const dtstart = component.getFirstPropertyValue('dtstart') as ICAL.Time;
  const iterator = new ICAL.RecurExpansion({ component, dtstart });
  const out: string[] = [];
  for (let next = iterator.next(); next && out.length < limit; next = iterator.next()) out.push(next.isDate ? next.toString() : next.toJSDate().toISOString());
  return out;
}

describe('GET /api/v3/calendar_entries.ics', () => {
  const clock = new FixedClock(NOW);
  let server: TestServer;
  let account: TestAccount;
  let berlin: { id: number; apiKey: string };
  let api: V3Client;
  const ids: Record<string, number> = {};

  const feed = async (key: string | undefined, query: Record<string, string | number> = {}, headers: Record<string, string> = {}): Promise<Feed> => {
    const res = await server.request('GET', '/api/v3/calendar_entries.ics', { apiKey: key, query, headers });
    if (res.status !== 200) return { res, events: [], todos: [] };
    return { res, ...parse(res.text) };
  };
  const create = async (key: string, attrs: Record<string, unknown>): Promise<number> => {
    const res = await server.v3(key).post('/calendar_entries.json', { calendar_entry: attrs });
    expect(res.status).toBe(200);
    return res.body.id;
  };
  /** Starts of the stored, active entries of a series (base first), as the list answers them. */
  const storedStarts = async (base: number, field: 'start_time' | 'due_date'): Promise<string[]> => {
    const res = await server.graphql(
      berlin.apiKey,
      `query($f: CalendarEntryFilter) { calendarEntries(filter: $f, first: 200, orderBy: [{field: ID, direction: ASC}]) { nodes { startTime dueDate } } }`,
      {
        f: { or: [{ databaseId: { in: [base] } }, { baseEntryId: { in: [base] } }] },
      },
    );
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.calendarEntries.nodes as Array<{ startTime: string | null; dueDate: string | null }>;
    return nodes.map((n) => (field === 'start_time' ? new Date(n.startTime!).toISOString() : n.dueDate!)).sort();
  };

  beforeAll(async () => {
    server = await startTestServer({}, { clock });
    account = await server.createAccount({ timeZone: 'UTC' });
    berlin = await account.addUser({ timeZone: 'Europe/Berlin', visibility: Visibility.OWN, firstName: 'Bea', lastName: 'Berlin' });
    api = server.v3(berlin.apiKey);
    const key = berlin.apiKey;
    // Times without an offset are the viewer's (Berlin) wall times.
    ids.kickoff = await create(key, {
      type: 'CalendarEvent',
      name: 'Kickoff; phase 1, "alpha"',
      description: 'Line one\nLine two',
      start_time: '2026-03-23 10:00',
      end_time: '2026-03-23 11:30',
    });
    ids.offer = await create(key, { type: 'CalendarTask', name: 'Send offer', due_date: '2026-03-24' });
    ids.done = await create(key, { type: 'CalendarTask', name: 'Done already', due_date: '2026-03-21', complete: true });
    ids.someday = await create(key, { type: 'CalendarTask', name: 'Someday maybe' });
    // Weekly on Mondays at 09:00 Berlin across the DST change, one date left out by the rule.
    ids.sync = await create(key, {
      type: 'CalendarEvent',
      name: 'Weekly sync',
      start_time: '2026-03-23 09:00',
      end_time: '2026-03-23 09:30',
      rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=8',
      exdate: '20260406',
    });
    ids.daily = await create(key, { type: 'CalendarTask', name: 'Daily check', due_date: '2026-03-25', rrule: 'FREQ=DAILY;COUNT=4' });
    // An all-day event over two days.
    ids.offsite = await create(key, { type: 'CalendarEvent', name: 'Offsite', all_day: true, start_time: '2026-04-02 00:00', end_time: '2026-04-04 00:00' });
    // Someone else's entry in the account (the admin's), and one in another account.
    ids.admins = await create(account.admin.apiKey, { type: 'CalendarTask', name: 'Admin only', due_date: '2026-03-24' });
    const other = await server.createAccount();
    ids.foreign = await create(other.admin.apiKey, { type: 'CalendarTask', name: 'Other account', due_date: '2026-03-24' });
  }, 60_000);
  afterAll(() => server.close());

  it('answers a VCALENDAR (text/calendar, inline calendar.ics) that an independent parser reads: one component per entry and per series', async () => {
    const { res, events, todos } = await feed(berlin.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="calendar.ics"');
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    // Every line ends in CRLF and takes at most 75 octets.
    for (const line of res.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    // The own user's entries only, each series once (not its stored occurrences).
    expect(summaries(events)).toEqual(['Kickoff; phase 1, "alpha"', 'Offsite', 'Weekly sync']);
    expect(summaries(todos)).toEqual(['Daily check', 'Done already', 'Send offer', 'Someday maybe']);
    const uids = [...events, ...todos].map((c) => c.getFirstPropertyValue('uid'));
    expect(new Set(uids).size).toBe(uids.length);
    expect(byName(events, 'Weekly sync').getFirstPropertyValue('uid')).toBe(`calendar-entry-${ids.sync}@127.0.0.1`);
    expect(res.text).not.toContain('Admin only');
    expect(res.text).not.toContain('Other account');
  });

  it('writes times in the series zone (TZID with its VTIMEZONE), text escaped, all-day entries as dates', async () => {
    const { events, todos } = await feed(berlin.apiKey);
    const kickoff = byName(events, 'Kickoff; phase 1, "alpha"');
    expect(kickoff.getFirstPropertyValue('description')).toBe('Line one\nLine two');
    const start = kickoff.getFirstProperty('dtstart')!;
    expect(start.getParameter('tzid')).toBe('Europe/Berlin');
    expect((start.getFirstValue() as ICAL.Time).toString()).toBe('2026-03-23T10:00:00');
    // Read through the VTIMEZONE: 10:00 CET is 09:00 UTC; the end after the DST change would differ.
    expect((start.getFirstValue() as ICAL.Time).toJSDate().toISOString()).toBe('2026-03-23T09:00:00.000Z');
    expect((kickoff.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString()).toBe('2026-03-23T10:30:00.000Z');

    const offsite = byName(events, 'Offsite');
    const allDay = offsite.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect({ isDate: allDay.isDate, start: allDay.toString(), end: String(offsite.getFirstPropertyValue('dtend')) }).toEqual({
      isDate: true,
      start: '2026-04-02',
      end: '2026-04-04',
    });

    const offer = byName(todos, 'Send offer');
    const due = offer.getFirstPropertyValue('due') as ICAL.Time;
    expect({ isDate: due.isDate, due: due.toString(), status: offer.getFirstPropertyValue('status') }).toEqual({
      isDate: true,
      due: '2026-03-24',
      status: 'NEEDS-ACTION',
    });
    expect(byName(todos, 'Done already').getFirstPropertyValue('status')).toBe('COMPLETED');
    expect(byName(todos, 'Someday maybe').getFirstPropertyValue('due')).toBeNull();
  });

  it('states a series by its rules: ical.js expands them to the stored occurrences, wall time kept across DST, exdates and cancelled occurrences left out', async () => {
    // One occurrence cancelled on its own (v3: active false on update).
    const occurrences = (await api.get('/calendar_entries.json', { 'conditions[recurrences_of]': ids.sync, sort: 'start_time' })).body.entries as Array<{
      id: number;
      start_time: string;
    }>;
    const cancelled = occurrences.find((o) => o.start_time.startsWith('2026/04/13'))!;
    expect((await api.put(`/calendar_entries/${cancelled.id}.json`, { calendar_entry: { active: false } })).status).toBe(200);

    const { events, todos } = await feed(berlin.apiKey);
    const sync = byName(events, 'Weekly sync');
    expect(sync.getFirstPropertyValue('rrule')!.toString()).toContain('FREQ=WEEKLY');
    expect(sync.getAllProperties('exdate').length).toBeGreaterThan(0);
    const starts = expand(sync);
    expect(starts).toEqual(await storedStarts(ids.sync, 'start_time'));
    expect(starts).toHaveLength(6); // 8 by COUNT, one left out by the rule, one cancelled
    expect(starts).not.toContain('2026-04-06T07:00:00.000Z');
    expect(starts).not.toContain('2026-04-13T07:00:00.000Z');
    // 09:00 in Berlin before (UTC+1) and after (UTC+2) the change.
    expect(starts.slice(0, 2)).toEqual(['2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z']);

    const daily = byName(todos, 'Daily check');
    expect(expand(daily)).toEqual(await storedStarts(ids.daily, 'due_date'));
    expect(expand(daily)).toEqual(['2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28']);
  });

  it("takes the list's conditions: a condition met by one occurrence brings its series (once); non-series filters apply", async () => {
    const tasks = await feed(berlin.apiKey, { 'conditions[kind]': 'task' });
    expect({ events: summaries(tasks.events), todos: summaries(tasks.todos) }).toEqual({
      events: [],
      todos: ['Daily check', 'Done already', 'Send offer', 'Someday maybe'],
    });
    const named = await feed(berlin.apiKey, { 'conditions[named]': 'Send offer' });
    expect(summaries([...named.events, ...named.todos])).toEqual(['Send offer']);
    // 2026-04-20 holds only a stored occurrence of the weekly series: the series comes as its base, with its rule.
    const day = await feed(berlin.apiKey, { 'conditions[within][from_date]': '2026-04-20', 'conditions[within][to_date]': '2026-04-20' });
    expect(summaries(day.events)).toEqual(['Weekly sync']);
    expect(day.events[0].getFirstPropertyValue('uid')).toBe(`calendar-entry-${ids.sync}@127.0.0.1`);
    expect(day.events[0].getFirstPropertyValue('rrule')).not.toBeNull();
    const single = await feed(berlin.apiKey, { 'conditions[non_recurring]': 'true', 'conditions[incomplete]': 'true' });
    expect(summaries([...single.events, ...single.todos])).toEqual(['Kickoff; phase 1, "alpha"', 'Offsite', 'Send offer', 'Someday maybe']);
  });

  it('answers errors as the list does: a bad condition is the same 422, an unknown one is ignored, no key the same 401 (JSON)', async () => {
    const bad: Array<Record<string, string>> = [
      { 'conditions[kind]': 'meeting' },
      { 'conditions[within][from_date]': 'soon' },
      { 'conditions[recurrences_of]': 'x' },
    ];
    for (const query of bad) {
      const list = await api.get('/calendar_entries.json', query);
      const ics = await server.request('GET', '/api/v3/calendar_entries.ics', { apiKey: berlin.apiKey, query });
      expect(list.status).toBe(422);
      expect({ status: ics.status, body: ics.body, type: ics.headers.get('content-type') }).toEqual({
        status: 422,
        body: list.body,
        type: 'application/json; charset=utf-8',
      });
    }
    // v3 ignores condition names a list does not know (DECISIONS), the feed too.
    expect((await api.get('/calendar_entries.json', { 'conditions[bogus]': '1' })).status).toBe(200);
    const ignored = await feed(berlin.apiKey, { 'conditions[bogus]': '1' });
    expect(ignored.res.status).toBe(200);
    expect(ignored.events.length + ignored.todos.length).toBe(7);
    for (const key of [undefined, 'f'.repeat(64)]) {
      const res = await server.request('GET', '/api/v3/calendar_entries.ics', { apiKey: key });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'Unknown api_key' } });
    }
    // Not a path that merely looks like it.
    expect((await server.request('GET', '/api/v3/calendar_entriesXics', { apiKey: berlin.apiKey })).status).toBe(404);
  });

  it("lists what the viewer may see: an admin sees the account's entries, never another account's", async () => {
    const { events, todos } = await feed(account.admin.apiKey);
    expect(summaries(todos)).toEqual(['Admin only', 'Daily check', 'Done already', 'Send offer', 'Someday maybe']);
    expect(summaries(events)).toEqual(['Kickoff; phase 1, "alpha"', 'Offsite', 'Weekly sync']);
  });

  it('runs a saved search (search_id), other parameters ignored', async () => {
    const search = await server.graphql(
      berlin.apiKey,
      `mutation($input: SavedSearchCreateInput!) { createSearch(input: $input) { search { databaseId } userErrors { message } } }`,
      {
        input: { name: 'Open tasks', searchType: 'CALENDAR_ENTRIES', query: { kind: ['task'], incomplete: [true] } },
      },
    );
    expect(search.body.errors).toBeUndefined();
    const id = search.body.data.createSearch.search.databaseId;
    const { res, events, todos } = await feed(berlin.apiKey, { search_id: id, 'conditions[named]': 'ignored' });
    expect(res.status).toBe(200);
    expect({ events: summaries(events), todos: summaries(todos) }).toEqual({ events: [], todos: ['Daily check', 'Send offer', 'Someday maybe'] });
    expect((await feed(berlin.apiKey, { search_id: 2_000_000_000 })).res.status).toBe(404);
  });

  it('answers an ETag: a matching If-None-Match is a 304 without the body; a change makes a new tag', async () => {
    const first = await feed(berlin.apiKey);
    const etag = first.res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // The clock moving does not change the text (DTSTAMP is the data's latest change).
    clock.set('2026-03-21T08:00:00Z');
    const again = await server.request('GET', '/api/v3/calendar_entries.ics', { apiKey: berlin.apiKey, headers: { 'if-none-match': `W/"nope", ${etag}` } });
    expect({ status: again.status, text: again.text, etag: again.headers.get('etag') }).toEqual({ status: 304, text: '', etag });
    await create(berlin.apiKey, { type: 'CalendarTask', name: 'New task', due_date: '2026-03-30' });
    const changed = await server.request('GET', '/api/v3/calendar_entries.ics', { apiKey: berlin.apiKey, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.text).toContain('SUMMARY:New task');
    clock.set(NOW);
  });

  it('is the GraphQL calendarFeed too: the entries written and the same text', async () => {
    const res = await server.graphql(berlin.apiKey, `{ calendarFeed(filter: {kind: {eq: EVENT}}) { truncated entries { databaseId } ics } }`);
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data.calendarFeed;
    expect(data.truncated).toBe(false);
    expect(data.entries.map((e: { databaseId: number }) => e.databaseId)).toEqual([ids.sync, ids.kickoff, ids.offsite]);
    expect(summaries(parse(data.ics).events)).toEqual(['Kickoff; phase 1, "alpha"', 'Offsite', 'Weekly sync']);
  });
});
