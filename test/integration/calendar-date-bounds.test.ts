import { FixedClock } from '../../src/common/clock';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 21 §3 and §4, on real PostgreSQL.
 *
 * §3: a date far in the past or future answered 500: `conditions[within][from_date]=0001-01-01`
 * for a user west of UTC became 0000-12-31 (luxon wrote New York's local mean time, -4:56:02, as
 * -04:56, two seconds off), which PostgreSQL refuses; GraphQL instants in range in UTC but not in
 * the viewer's zone did the same. Every date and datetime input now takes years 1 to 9999 in UTC
 * and in the zone it is read in, and anything else is a 422 (v3, naming the parameter) or
 * BAD_USER_INPUT / OUT_OF_RANGE (GraphQL, naming the argument), never a 500.
 *
 * §4: a rule repeating more than once a day (several BYHOUR/BYMINUTE/BYSECOND values) is refused
 * like FREQ=HOURLY, on create and update, over v3 and GraphQL.
 */

const NY = 'America/New_York';
const TOKYO = 'Asia/Tokyo';

const LIST = 'query($f: CalendarEntryFilter) { calendarEntries(filter: $f, first: 100) { nodes { databaseId } } }';
const FEED = 'query($f: CalendarEntryFilter) { calendarFeed(filter: $f) { entries { databaseId } truncated } }';
const OCCURRENCES = 'query($from: DateTimeISO!, $to: DateTimeISO!) { occurrences(from: $from, to: $to) { entry { databaseId } start } }';
const CREATE =
  'mutation($i: CalendarEntryCreateInput!) { createCalendarEntry(input: $i) { calendarEntry { databaseId rrule } userErrors { field code message } } }';
const UPDATE =
  'mutation($id: Int!, $i: CalendarEntryUpdateInput!) { updateCalendarEntry(id: $id, input: $i) { calendarEntry { databaseId rrule } userErrors { field code message } } }';

const SUB_DAILY = 'FREQ=DAILY;BYHOUR=1,2,3;BYMINUTE=0,15,30,45';
const SUB_DAILY_MESSAGE =
  'rrule gives 12 times a day (BYHOUR=1,2,3 with BYMINUTE=0,15,30,45): a calendar series repeats at most once a day. ' +
  'Give one value at most in each of BYHOUR, BYMINUTE and BYSECOND (they set the time of day), or make one series per time.';

describe('dates in range and once a day', () => {
  const clock = new FixedClock('2026-03-20T12:00:00Z');
  let server: TestServer;
  let account: TestAccount;
  let ny: { id: number; apiKey: string };
  let tokyo: { id: number; apiKey: string };
  let nyTask: number;
  let nyEvent: number;

  const count = async () => Number((await server.sql('select count(*)::int as n from calendar_entries where account_id = ?', [account.accountId]))[0].n);
  /** The v3 answer, whatever it is: a refusal must be a 422 naming the parameter, never a 500. */
  const v3 = async (key: string, path: string, query: Record<string, string>) => {
    const res = await server.request('GET', `/api/v3${path}`, { apiKey: key, query });
    return { status: res.status, body: path.endsWith('.ics') && res.status === 200 ? res.text : res.body };
  };
  /** The GraphQL refusal: its code and argument, or the data when it answered. */
  const gql = async (key: string, query: string, variables: Record<string, unknown>) => {
    const res = await server.graphql(key, query, variables);
    expect(res.status).toBe(200);
    const error = res.body.errors?.[0];
    return error ? { code: error.extensions?.code, argument: error.extensions?.argument, message: error.message } : { data: res.body.data };
  };

  beforeAll(async () => {
    server = await startTestServer({}, { clock });
    account = await server.createAccount({ timeZone: 'UTC' });
    ny = await account.addUser({ timeZone: NY, firstName: 'Nia', lastName: 'York' });
    tokyo = await account.addUser({ timeZone: TOKYO, firstName: 'Toshi', lastName: 'Tokyo' });
    const api = server.v3(ny.apiKey);
    const task = await api.post('/calendar_entries.json', { calendar_entry: { type: 'CalendarTask', name: 'Call back', due_date: '2026-04-01' } });
    const event = await api.post('/calendar_entries.json', {
      calendar_entry: { type: 'CalendarEvent', name: 'Stand-up', start_time: '2026-04-01 10:00', end_time: '2026-04-01 10:15' },
    });
    expect([task.status, event.status]).toEqual([200, 200]);
    nyTask = task.body.id;
    nyEvent = event.body.id;
  }, 60_000);
  afterAll(() => server.close());

  describe('a date far in the past, as a user west of UTC', () => {
    it('v3 list and .ics: from_date=0001-01-01 answers the entries (never a 500)', async () => {
      const list = await v3(ny.apiKey, '/calendar_entries.json', { 'conditions[within][from_date]': '0001-01-01' });
      expect(list.status).toBe(200);
      expect(list.body.entries.map((e: { id: number }) => e.id).sort()).toEqual([nyTask, nyEvent].sort());
      const feed = await v3(ny.apiKey, '/calendar_entries.ics', { 'conditions[within][from_date]': '0001-01-01' });
      expect(feed.status).toBe(200);
      expect(feed.body).toContain('SUMMARY:Call back');
      expect(feed.body).toContain('SUMMARY:Stand-up');
      // to_date there: nothing falls before it.
      expect((await v3(ny.apiKey, '/calendar_entries.json', { 'conditions[within][to_date]': '0001-01-01' })).body.entries).toEqual([]);
    });

    it("v3 list and .ics: a bound in year 0 on the viewer's wall clock is a 422 naming the condition", async () => {
      for (const path of ['/calendar_entries.json', '/calendar_entries.ics']) {
        for (const [param, value] of [
          ['conditions[within][from_date]', '0000-12-31T23:00:00-05:00'],
          ['conditions[within][from_date]', '0001-01-01T00:00:00Z'],
          ['conditions[within][to_date]', '0000-12-31'],
          ['conditions[starting_at]', '0001-01-01T01:00:00Z'],
          ['conditions[calendar_entry_modified][from_date]', '0000-12-31T23:00:00-05:00'],
        ]) {
          const res = await v3(ny.apiKey, path, { [param]: value });
          expect({ path, param, status: res.status, body: res.body }).toEqual({
            path,
            param,
            status: 422,
            body: [
              {
                field: param,
                humanized_field: expect.any(String),
                msg: expect.stringMatching(/^is out of range \(years 1 to 9999( in America\/New_York)?\)$/),
              },
            ],
          });
        }
      }
    });

    it("GraphQL calendarEntries and calendarFeed: within.from in year 0 in the viewer's zone is BAD_USER_INPUT naming it (never a 500)", async () => {
      for (const query of [LIST, FEED]) {
        expect(await gql(ny.apiKey, query, { f: { within: { from: '0001-01-01T00:00:00Z' } } })).toEqual({
          code: 'BAD_USER_INPUT',
          argument: 'filter.within.from',
          message: `filter.within.from: is out of range (years 1 to 9999 in ${NY})`,
        });
        expect(await gql(ny.apiKey, query, { f: { and: [{ within: { to: '0001-01-01T03:00:00Z' } }] } })).toMatchObject({
          code: 'BAD_USER_INPUT',
          argument: 'filter.and[0].within.to',
        });
        expect(await gql(ny.apiKey, query, { f: { dueDate: { gte: '0000-12-31' } } })).toMatchObject({
          code: 'BAD_USER_INPUT',
          argument: 'filter.dueDate.gte',
        });
      }
      // Local midnight of year 1 in New York (local mean time, -4:56:02) is the first instant it takes.
      const first = await gql(ny.apiKey, LIST, { f: { within: { from: '0001-01-01T04:56:02Z' } } });
      expect((first as { data: any }).data.calendarEntries.nodes.map((n: { databaseId: number }) => n.databaseId).sort()).toEqual([nyTask, nyEvent].sort());
      const feed = await gql(ny.apiKey, FEED, { f: { within: { from: '0001-01-01T04:56:02Z' } } });
      expect((feed as { data: any }).data.calendarFeed.entries).toHaveLength(2);
    });

    it("GraphQL occurrences: a window starting in year 0 in the viewer's zone is BAD_USER_INPUT naming from", async () => {
      expect(await gql(ny.apiKey, OCCURRENCES, { from: '0001-01-01T00:00:00Z', to: '0001-06-01T00:00:00Z' })).toEqual({
        code: 'BAD_USER_INPUT',
        argument: 'from',
        message: `from: is out of range (years 1 to 9999 in ${NY})`,
      });
      expect(await gql(ny.apiKey, OCCURRENCES, { from: '0001-01-02T00:00:00Z', to: '0001-06-01T00:00:00Z' })).toEqual({ data: { occurrences: [] } });
    });

    it("writes: times and dates in year 0 on the writer's wall clock are refused, naming the field", async () => {
      const before = await count();
      const api = server.v3(ny.apiKey);
      const event = await api.post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarEvent', name: 'Far', start_time: '0000-12-31 23:30', end_time: '0001-01-01 00:30' },
      });
      expect(event.status).toBe(422);
      expect(event.body).toEqual([{ field: 'start_time', humanized_field: 'Start time', msg: `is out of range (years 1 to 9999 in ${NY})` }]);
      const task = await api.post('/calendar_entries.json', { calendar_entry: { type: 'CalendarTask', name: 'Far', due_date: '0000-12-31' } });
      expect(task.body).toEqual([{ field: 'due_date', humanized_field: 'Due date', msg: 'is out of range (years 1 to 9999)' }]);
      const moved = await api.put(`/calendar_entries/${nyEvent}.json`, { calendar_entry: { start_time: '0000-12-31T23:00:00-05:00' } });
      expect([moved.status, moved.body[0]?.field]).toEqual([422, 'start_time']);
      const created = await gql(ny.apiKey, CREATE, { i: { kind: 'EVENT', name: 'Far', startTime: '0001-01-01T01:00:00Z', endTime: '0001-01-01T02:00:00Z' } });
      expect((created as { data: any }).data.createCalendarEntry).toEqual({
        calendarEntry: null,
        userErrors: [
          { field: ['input', 'startTime'], code: 'OUT_OF_RANGE', message: `is out of range (years 1 to 9999 in ${NY})` },
          { field: ['input', 'endTime'], code: 'OUT_OF_RANGE', message: `is out of range (years 1 to 9999 in ${NY})` },
        ],
      });
      expect(await count()).toBe(before);
    });

    it('a v3 datetime of year 1 in New York is stored as that exact instant and read back as written', async () => {
      const deal = await server.v3(ny.apiKey).post('/deals.json', { deal: { name: 'Old deal', created_at: '0001-01-01 00:00:00' } });
      expect(deal.status).toBe(200);
      expect(deal.body.created_at).toBe('0001/01/01 00:00:00 -0456');
      const [row] = await server.sql("select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') as at from deals where id = ?", [
        deal.body.id,
      ]);
      expect(row.at).toBe('0001-01-01T04:56:02');
      const far = await server.v3(ny.apiKey).post('/deals.json', { deal: { name: 'Far deal', expected_close_date: '0000-12-31T23:00:00-05:00' } });
      expect([far.status, far.body]).toEqual([
        422,
        [{ field: 'expected_close_date', humanized_field: 'Expected close date', msg: 'is out of range (years 1 to 9999)' }],
      ]);
    });
  });

  describe('a date far in the future, as a user east of UTC', () => {
    it("v3 list and .ics: a bound past 9999 on the viewer's wall clock is a 422 naming the condition (it named base)", async () => {
      for (const path of ['/calendar_entries.json', '/calendar_entries.ics']) {
        const to = await v3(tokyo.apiKey, path, { 'conditions[within][to_date]': '9999-12-31T23:00:00Z' });
        expect([to.status, to.body]).toEqual([
          422,
          [{ field: 'conditions[within][to_date]', humanized_field: expect.any(String), msg: `is out of range (years 1 to 9999 in ${TOKYO})` }],
        ]);
        const from = await v3(tokyo.apiKey, path, { 'conditions[within][from_date]': '9999-12-31T20:00:00Z' });
        expect([from.status, from.body[0]?.field]).toEqual([422, 'conditions[within][from_date]']);
        // The end of 9999-12-31 in New York is in 10000 UTC: refused by the condition's name too.
        const nyEnd = await v3(ny.apiKey, path, { 'conditions[within][to_date]': '9999-12-31' });
        expect([nyEnd.status, nyEnd.body]).toEqual([
          422,
          [{ field: 'conditions[within][to_date]', humanized_field: expect.any(String), msg: 'is out of range (years 1 to 9999)' }],
        ]);
        // The last day in Tokyo is taken.
        expect((await v3(tokyo.apiKey, path, { 'conditions[within][to_date]': '9999-12-31' })).status).toBe(200);
      }
    });

    it("GraphQL calendarEntries, calendarFeed and occurrences: past 9999 in the viewer's zone is BAD_USER_INPUT naming the argument (never a 500)", async () => {
      for (const query of [LIST, FEED]) {
        expect(await gql(tokyo.apiKey, query, { f: { within: { to: '9999-12-31T23:00:00Z' } } })).toEqual({
          code: 'BAD_USER_INPUT',
          argument: 'filter.within.to',
          message: `filter.within.to: is out of range (years 1 to 9999 in ${TOKYO})`,
        });
        expect(await gql(tokyo.apiKey, query, { f: { within: { to: '9999-12-31T14:59:59.999Z' } } })).toHaveProperty('data');
      }
      expect(await gql(tokyo.apiKey, OCCURRENCES, { from: '9999-06-01T00:00:00Z', to: '9999-12-31T23:00:00Z' })).toMatchObject({
        code: 'BAD_USER_INPUT',
        argument: 'to',
      });
      expect(await gql(tokyo.apiKey, OCCURRENCES, { from: '9999-06-01T00:00:00Z', to: '9999-12-31T14:00:00Z' })).toEqual({ data: { occurrences: [] } });
    });

    it("writes: a time past 9999 on the writer's wall clock is refused, naming the field", async () => {
      const before = await count();
      const v3Event = await server.v3(tokyo.apiKey).post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarEvent', name: 'Far', start_time: '9999-12-31T20:00:00Z', end_time: '9999-12-31T21:00:00Z' },
      });
      expect([v3Event.status, v3Event.body]).toEqual([
        422,
        [{ field: 'start_time', humanized_field: 'Start time', msg: `is out of range (years 1 to 9999 in ${TOKYO})` }],
      ]);
      const created = await gql(tokyo.apiKey, CREATE, {
        i: { kind: 'EVENT', name: 'Far', startTime: '9999-12-31T20:00:00Z', endTime: '9999-12-31T21:00:00Z' },
      });
      expect(
        (created as { data: any }).data.createCalendarEntry.userErrors.map((e: { field: string[]; code: string }) => `${e.field.join('.')}: ${e.code}`),
      ).toEqual(['input.startTime: OUT_OF_RANGE', 'input.endTime: OUT_OF_RANGE']);
      // A rule date the stored text could not hold (10000-01-01T04:00Z) is refused before it is stored.
      const rdate = await server.v3(ny.apiKey).post('/calendar_entries.json', {
        calendar_entry: {
          type: 'CalendarEvent',
          name: 'Far rdate',
          start_time: '2026-04-01 10:00',
          end_time: '2026-04-01 11:00',
          rdate: '9999-12-31T23:00-05:00',
        },
      });
      expect([rdate.status, rdate.body[0]?.field, rdate.body[0]?.msg]).toEqual([
        422,
        'rdate',
        'rdate value "9999-12-31T23:00-05:00" is out of range (years 1 to 9999).',
      ]);
      expect(await count()).toBe(before);
    });
  });

  describe('a series repeats at most once a day', () => {
    it('v3 create refuses a rule with several times a day (rrule and exrule), naming the field, writing nothing', async () => {
      const before = await count();
      const api = server.v3(ny.apiKey);
      const event = { type: 'CalendarEvent', name: 'Every 15 minutes', start_time: '2026-04-01 01:00', end_time: '2026-04-01 01:10' };
      const res = await api.post('/calendar_entries.json', { calendar_entry: { ...event, rrule: SUB_DAILY } });
      expect([res.status, res.body]).toEqual([422, [{ field: 'rrule', humanized_field: 'Rrule', msg: SUB_DAILY_MESSAGE }]]);
      const weekly = await api.post('/calendar_entries.json', { calendar_entry: { ...event, rrule: 'FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9,17;BYSETPOS=-1' } });
      expect([weekly.status, weekly.body[0]?.field, weekly.body[0]?.msg]).toEqual([422, 'rrule', expect.stringContaining('2 times a day (BYHOUR=9,17)')]);
      const exrule = await api.post('/calendar_entries.json', {
        calendar_entry: { ...event, rrule: 'FREQ=DAILY;COUNT=5', exrule: 'FREQ=DAILY;BYMINUTE=0,30' },
      });
      expect([exrule.status, exrule.body[0]?.field]).toEqual([422, 'exrule']);
      expect(await count()).toBe(before);
      // One BYHOUR/BYMINUTE sets the time of day: still a series.
      const once = await api.post('/calendar_entries.json', { calendar_entry: { ...event, rrule: 'FREQ=DAILY;BYHOUR=1;BYMINUTE=0;COUNT=3' } });
      expect([once.status, once.body.rrule]).toEqual([200, 'FREQ=DAILY;COUNT=3;BYMINUTE=0;BYHOUR=1']);
      expect(await count()).toBe(before + 3);
    });

    it('v3 update refuses it too, leaving the entry as it was', async () => {
      const api = server.v3(ny.apiKey);
      const res = await api.put(`/calendar_entries/${nyEvent}.json`, { calendar_entry: { rrule: SUB_DAILY } });
      expect([res.status, res.body]).toEqual([422, [{ field: 'rrule', humanized_field: 'Rrule', msg: SUB_DAILY_MESSAGE }]]);
      const [row] = await server.sql('select rrule, part_of_recurring_series from calendar_entries where id = ?', [nyEvent]);
      expect(row).toEqual({ rrule: null, part_of_recurring_series: false });
      expect(Number((await server.sql('select count(*)::int as n from calendar_entries where base_entry_id = ?', [nyEvent]))[0].n)).toBe(0);
    });

    it('GraphQL create and update refuse it as an INVALID user error on input.rrule', async () => {
      const before = await count();
      const created = await gql(ny.apiKey, CREATE, {
        i: { kind: 'EVENT', name: 'Quarter-hourly', startTime: '2026-04-01T05:00:00Z', endTime: '2026-04-01T05:10:00Z', rrule: SUB_DAILY },
      });
      expect((created as { data: any }).data.createCalendarEntry).toEqual({
        calendarEntry: null,
        userErrors: [{ field: ['input', 'rrule'], code: 'INVALID', message: SUB_DAILY_MESSAGE }],
      });
      const updated = await gql(ny.apiKey, UPDATE, { id: nyEvent, i: { rrule: SUB_DAILY } });
      expect((updated as { data: any }).data.updateCalendarEntry).toEqual({
        calendarEntry: null,
        userErrors: [{ field: ['input', 'rrule'], code: 'INVALID', message: SUB_DAILY_MESSAGE }],
      });
      const task = await gql(ny.apiKey, UPDATE, { id: nyTask, i: { rrule: 'FREQ=DAILY', exrule: 'FREQ=WEEKLY;BYHOUR=0,12' } });
      // A task's series is all-day: BYHOUR is refused there already, on exrule.
      expect((task as { data: any }).data.updateCalendarEntry.userErrors).toEqual([
        { field: ['input', 'exrule'], code: 'INVALID', message: expect.any(String) },
      ]);
      expect(await count()).toBe(before);
    });
  });
});
