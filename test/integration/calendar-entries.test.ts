import { FixedClock } from '../../src/common/clock';
import { createContext } from '../../src/context/context';
import { CalendarAssociationType, CalendarEntryService } from '../../src/modules/calendar';
import { viewerForUser } from '../../src/modules/users/user.viewer';
import { RECURRENCE_LIMITS } from '../../src/modules/calendar/recurrence';
import { fixtures } from '../support/fixtures';
import { formEncode, startTestServer, type TestAccount, type TestServer, type V3Client } from '../support/test-server';

/**
 * Issue 14 §1–§3: calendar entries over v3 and GraphQL, on a fixed clock. The conditions are pinned
 * around midnight and across daylight-saving changes in two zones: Europe/Paris springs forward on
 * Sunday 2026-03-29 (a 23-hour day), America/New_York falls back on Sunday 2026-11-01 (25 hours).
 */

/** The v3 §2.1 keys, in order, then the priority. */
const KEYS = [
  'id',
  'type',
  'owner_id',
  'owner',
  'category_id',
  'category',
  'name',
  'description',
  'start_time',
  'end_time',
  'all_day',
  'due_date',
  'complete',
  'completed_at',
  'association_id',
  'association_type',
  'base_entry_id',
  'active',
  'created_at',
  'updated_at',
  'google_calendar_id',
  'company_id',
  'rrule',
  'rdate',
  'exrule',
  'exdate',
  'part_of_recurring_series',
  'recurrence_end',
  'calendar_entry_priority_id',
  'calendar_entry_priority',
  // Issue 22: as recorded, the record it is about and the company it is tied to (test/contract/recorded-keys.contract.test.ts).
  'association',
  'associated_company',
];

/** 01:30 in Paris (CET) on the night clocks go forward; 20:30 the evening before in New York (EDT). */
const START = '2026-03-29T00:30:00Z';

describe('calendar entries', () => {
  const clock = new FixedClock(START);
  let server: TestServer;
  let account: TestAccount;
  let admin: V3Client;
  let adminKey: string;
  let paris: { id: number; apiKey: string };
  let newYork: { id: number; apiKey: string };
  let own: { id: number; apiKey: string };

  const count = async (where = 'true', params: unknown[] = []) =>
    Number((await server.sql(`select count(*)::int as n from calendar_entries where account_id = ? and ${where}`, [account.accountId, ...params]))[0].n);
  const gql = async (key: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.graphql(key, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  beforeAll(async () => {
    server = await startTestServer({}, { clock });
    account = await server.createAccount({ timeZone: 'UTC' });
    adminKey = account.admin.apiKey;
    admin = server.v3(adminKey);
    paris = await account.addUser({ timeZone: 'Europe/Paris', firstName: 'Paula', lastName: 'Paris' });
    newYork = await account.addUser({ timeZone: 'America/New_York', firstName: 'Ned', lastName: 'York' });
    own = await account.addUser({ visibility: 'own' as never, firstName: 'Olga', lastName: 'Own' });
  }, 60_000);
  afterAll(() => server.close());
  beforeEach(() => clock.set(START));

  describe('entries over v3', () => {
    it('creates a task with the §2.1 fields and defaults (form body), and an event (JSON), each answered whole', async () => {
      const category = await fixtures.eventCategory(server, adminKey);
      const priority = await fixtures.calendarEntryPriority(server, adminKey);
      const deal = await fixtures.deal(server, adminKey);
      const task = await server.request('POST', '/api/v3/calendar_entries.json', {
        apiKey: adminKey,
        body: formEncode({
          calendar_entry: {
            type: 'CalendarTask',
            name: 'Call back',
            due_date: '2026/04/01',
            category_id: category,
            association_type: 'Deal',
            association_id: deal,
            calendar_entry_priority_id: priority,
            owner_id: 999,
          },
        }),
      });
      expect(task.status).toBe(200);
      expect(Object.keys(task.body)).toEqual(KEYS);
      expect(task.body).toMatchObject({
        type: 'CalendarTask',
        owner_id: account.admin.id,
        owner: { id: account.admin.id, first_name: 'Ada', last_name: expect.any(String), full_name: expect.stringContaining('Ada') },
        category_id: category,
        category: { id: category, name: expect.any(String) },
        name: 'Call back',
        start_time: null,
        end_time: null,
        all_day: true,
        due_date: '2026/04/01',
        complete: false,
        completed_at: null,
        association_id: deal,
        association_type: 'Deal',
        base_entry_id: null,
        active: true,
        created_at: '2026/03/29 00:30:00 +0000',
        google_calendar_id: null,
        company_id: null,
        rrule: null,
        part_of_recurring_series: false,
        recurrence_end: null,
        calendar_entry_priority_id: priority,
        calendar_entry_priority: { id: priority, name: expect.any(String) },
      });

      const event = await server.v3(paris.apiKey).post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarEvent', name: 'Demo', start_time: '2026-04-02 10:00', end_time: '2026-04-02T11:30:00+02:00' },
      });
      expect(event.status).toBe(200);
      // Read in the writer's zone (Paris, summer time by then) and shown in it.
      expect(event.body).toMatchObject({
        type: 'CalendarEvent',
        all_day: false,
        start_time: '2026/04/02 10:00:00 +0200',
        end_time: '2026/04/02 11:30:00 +0200',
        due_date: null,
        owner_id: paris.id,
      });
      expect((await admin.get(`/calendar_entries/${event.body.id}.json`)).body).toMatchObject({ start_time: '2026/04/02 08:00:00 +0000' });
    });

    it('refuses bad input with bare 422 arrays naming each field, writing nothing', async () => {
      const hiddenDeal = await fixtures.deal(server, adminKey);
      const v3 = server.v3(own.apiKey);
      const before = await count();
      const cases: Array<[Record<string, unknown>, Array<[string, string]>]> = [
        [{ name: 'No type' }, [['type', "can't be blank"]]],
        [{ type: 'CalendarMeeting' }, [['type', 'must be one of CalendarTask, CalendarEvent']]],
        [
          { type: 'CalendarEvent' },
          [
            ['start_time', "can't be blank"],
            ['end_time', "can't be blank"],
          ],
        ],
        [{ type: 'CalendarEvent', start_time: '2026-04-02 10:00', end_time: '2026-04-02 09:00' }, [['end_time', 'must not be before the start time']]],
        [
          { type: 'CalendarEvent', start_time: '2026-04-02 10:00', end_time: '2026-04-02 11:00', due_date: '2026-04-02' },
          [['due_date', 'is only for tasks (an event has a start and an end time)']],
        ],
        [{ type: 'CalendarTask', start_time: '2026-04-02 10:00' }, [['start_time', 'is only for events (a task has a due date)']]],
        [{ type: 'CalendarTask', due_date: '2026/02/30' }, [['due_date', 'is not a valid date']]],
        [{ type: 'CalendarTask', start_time: 'tomorrow-ish' }, [['start_time', 'is not a valid datetime']]],
        [{ type: 'CalendarTask', association_type: 'Robot', association_id: 1 }, [['association_type', 'must be one of Deal, Company, Person']]],
        [{ type: 'CalendarTask', association_type: 'Deal', association_id: hiddenDeal }, [['association_id', 'does not exist']]],
        [{ type: 'CalendarTask', association_type: 'Deal' }, [['association_id', "can't be blank"]]],
        [{ type: 'CalendarTask', company_id: 2_000_000_000 }, [['company_id', 'does not exist']]],
        [{ type: 'CalendarTask', category_id: 2_000_000_000 }, [['category_id', 'does not exist']]],
        [{ type: 'CalendarTask', due_date: '2026-04-01', rrule: 'FREQ=SOMETIMES' }, [['rrule', expect.any(String) as unknown as string]]],
        [{ type: 'CalendarTask', rrule: 'FREQ=DAILY;COUNT=3' }, [['due_date', "can't be blank"]]],
        [
          { type: 'CalendarEvent', start_time: '2026-04-02 10:00', end_time: '2026-04-02 11:00', exdate: 'not a date' },
          [['exdate', expect.any(String) as unknown as string]],
        ],
      ];
      for (const [attrs, problems] of cases) {
        const res = await v3.post('/calendar_entries.json', { calendar_entry: attrs });
        expect({ attrs, status: res.status, body: res.body }).toEqual({
          attrs,
          status: 422,
          body: problems.map(([field, msg]) => ({ field, humanized_field: expect.any(String), msg })),
        });
      }
      expect(await count()).toBe(before);
    });

    it('a missing entry is a 404 with an empty body on show, update and delete', async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { calendar_entry: { name: 'x' } }],
        ['DELETE', undefined],
      ] as const) {
        const res = await server.request(method, '/api/v3/calendar_entries/2000000000.json', { apiKey: adminKey, body });
        expect({ method, status: res.status, text: res.text }).toEqual({ method, status: 404, text: '' });
      }
    });

    it('complete false→true sets completed_at (the clock), true→false clears it; a record PUT back whole changes nothing else', async () => {
      const id = await fixtures.calendarEntry(server, adminKey, { name: 'Finish me' });
      clock.set('2026-03-29T09:15:00Z');
      const done = await admin.put(`/calendar_entries/${id}.json`, { calendar_entry: { complete: true } });
      expect(done.body).toMatchObject({ complete: true, completed_at: '2026/03/29 09:15:00 +0000', updated_at: '2026/03/29 09:15:00 +0000' });
      clock.set('2026-03-29T10:00:00Z');
      const back = await admin.put(`/calendar_entries/${id}.json`, { calendar_entry: done.body });
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({
        complete: true,
        completed_at: '2026/03/29 09:15:00 +0000',
        name: 'Finish me',
        due_date: '2026/04/01',
        type: 'CalendarTask',
      });
      const undone = await admin.put(`/calendar_entries/${id}.json`, { calendar_entry: { complete: 'false' } });
      expect(undone.body).toMatchObject({ complete: false, completed_at: null });
    });

    it('a company association is the company the entry is tied to; association and company_id agree or the one that changed wins', async () => {
      const [a, b, c] = [await fixtures.company(server, adminKey), await fixtures.company(server, adminKey), await fixtures.company(server, adminKey)];
      const made = await admin.post('/calendar_entries.json', { calendar_entry: { type: 'CalendarTask', association_type: 'Company', association_id: a } });
      expect(made.body).toMatchObject({ association_type: 'Company', association_id: a, company_id: a });
      const conflict = await admin.post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarTask', association_type: 'Company', association_id: a, company_id: b },
      });
      expect(conflict.status).toBe(422);
      expect(conflict.body[0]).toMatchObject({ field: 'company_id' });
      // Sent back whole with a new association_id: the association moved, company_id follows.
      const moved = await admin.put(`/calendar_entries/${made.body.id}.json`, { calendar_entry: { ...made.body, association_id: b } });
      expect(moved.body).toMatchObject({ association_type: 'Company', association_id: b, company_id: b });
      const person = await fixtures.person(server, adminKey);
      const toPerson = await admin.put(`/calendar_entries/${made.body.id}.json`, {
        calendar_entry: { association_type: 'Person', association_id: person, company_id: c },
      });
      expect(toPerson.body).toMatchObject({ association_type: 'Person', association_id: person, company_id: c });
      const none = await admin.put(`/calendar_entries/${made.body.id}.json`, { calendar_entry: { association_type: null, association_id: null } });
      expect(none.body).toMatchObject({ association_type: null, association_id: null, company_id: c });
    });
  });

  describe("conditions in the viewer's zone", () => {
    const ids: Record<string, number> = {};
    let ownerId: number;

    beforeAll(async () => {
      // The fixtures of this block are an owner's own: owner_id narrows every list to them.
      const owner = await account.addUser({ timeZone: 'UTC', firstName: 'Cal', lastName: 'Endar' });
      ownerId = owner.id;
      const task = (name: string, dueDate: string | null, extra: Record<string, unknown> = {}) =>
        fixtures.calendarEntry(server, owner.apiKey, { name, dueDate, ...extra });
      const event = (name: string, startTime: string, endTime: string, extra: Record<string, unknown> = {}) =>
        fixtures.calendarEntry(server, owner.apiKey, { kind: 'EVENT', name, startTime, endTime, ...extra });
      ids.t27 = await task('due 27th', '2026-03-27');
      ids.t28 = await task('due 28th', '2026-03-28');
      ids.t29 = await task('due 29th', '2026-03-29');
      ids.t30 = await task('due 30th', '2026-03-30');
      ids.t06 = await task('due 6 April', '2026-04-06');
      ids.t13 = await task('due 13 April', '2026-04-13');
      ids.someday = await task('someday', null);
      ids.done27 = await task('done, due 27th', '2026-03-27', { complete: true });
      // 23:30 Paris on the 29th (CEST), 17:30 in New York.
      ids.e1 = await event('late evening in Paris', '2026-03-29T21:30:00Z', '2026-03-29T21:45:00Z');
      // 00:15 Paris on the 30th: tomorrow there, though within 24 hours of the 29th's midnight.
      ids.e2 = await event('just after midnight in Paris', '2026-03-29T22:15:00Z', '2026-03-29T22:45:00Z');
      // Ended before now (00:30Z).
      ids.ended = await event('ended at midnight UTC', '2026-03-28T23:00:00Z', '2026-03-29T00:00:00Z');
      // A week-long event from Friday the 27th to Wednesday April 1st: this week and next week.
      ids.long = await event('conference', '2026-03-27T08:00:00Z', '2026-04-01T17:00:00Z');
    });

    const names = (res: { status: number; body: { entries: Array<{ id: number }> } }) => {
      expect(res.status).toBe(200);
      const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
      return res.body.entries.map((e) => byId.get(e.id)).sort();
    };
    const list = (key: string, conditions: Record<string, unknown>) =>
      server.request('GET', `/api/v3/calendar_entries.json?${formEncode({ conditions: { owner_id: ownerId, ...conditions } })}`, { apiKey: key });

    it('today, tomorrow, late and someday in Paris on the night clocks go forward, and in New York the evening before', async () => {
      expect(names(await list(paris.apiKey, { today: true }))).toEqual(['e1', 'ended', 'long', 't29']);
      expect(names(await list(paris.apiKey, { tomorrow: 'true' }))).toEqual(['e2', 'long', 't30']);
      expect(names(await list(paris.apiKey, { late: 1 }))).toEqual(['ended', 't27', 't28']);
      // New York: 20:30 on Saturday the 28th.
      expect(names(await list(newYork.apiKey, { today: true }))).toEqual(['ended', 'long', 't28']);
      expect(names(await list(newYork.apiKey, { tomorrow: true }))).toEqual(['e1', 'e2', 'long', 't29']);
      expect(names(await list(newYork.apiKey, { late: true }))).toEqual(['ended', 't27']);
      expect(names(await list(paris.apiKey, { someday: true }))).toEqual(['someday']);
      // "passed as true": false is no condition.
      expect(names(await list(paris.apiKey, { today: 'false', someday: '0', kind: 'task' }))).toHaveLength(8);
    });

    it('weeks start on Monday: Sunday the 29th ends this week in both zones', async () => {
      expect(names(await list(paris.apiKey, { this_week: true }))).toEqual(['done27', 'e1', 'ended', 'long', 't27', 't28', 't29']);
      expect(names(await list(paris.apiKey, { next_week: true }))).toEqual(['e2', 'long', 't30']);
      expect(names(await list(paris.apiKey, { future: true }))).toEqual(['t06', 't13']);
      expect(names(await list(newYork.apiKey, { next_week: true }))).toEqual(['long', 't30']);
      // Two periods: both must hold.
      expect(names(await list(paris.apiKey, { this_week: true, next_week: true }))).toEqual(['long']);
    });

    it('moves with the clock: just past midnight in Paris it is Monday the 30th there, still Sunday in New York', async () => {
      clock.set('2026-03-29T22:05:00Z');
      expect(names(await list(paris.apiKey, { today: true }))).toEqual(['e2', 'long', 't30']);
      expect(names(await list(paris.apiKey, { late: true }))).toEqual(['e1', 'ended', 't27', 't28', 't29']);
      expect(names(await list(paris.apiKey, { this_week: true }))).toEqual(['e2', 'long', 't30']);
      expect(names(await list(newYork.apiKey, { today: true }))).toEqual(['e1', 'e2', 'long', 't29']);
    });

    it('the other conditions: completed, incomplete, kind, named, within, starting_at, ending_at, calendar_entry_modified', async () => {
      expect(names(await list(paris.apiKey, { completed: true }))).toEqual(['done27']);
      expect(names(await list(paris.apiKey, { incomplete: true, kind: 'event' }))).toEqual(['e1', 'e2', 'ended', 'long']);
      expect(names(await list(paris.apiKey, { named: 'due 28th' }))).toEqual(['t28']);
      // A date-only span in Paris: the 30th from its midnight (22:00Z on the 29th) through its end.
      expect(names(await list(paris.apiKey, { within: { from_date: '2026-03-30', to_date: '2026-03-30' } }))).toEqual(['e2', 'long', 't30']);
      expect(names(await list(newYork.apiKey, { within: { from_date: '2026-03-30' } }))).toEqual(['long', 't06', 't13', 't30']);
      expect(names(await list(paris.apiKey, { starting_at: '2026-03-29 23:30' }))).toEqual(['e1']);
      expect(names(await list(newYork.apiKey, { ending_at: '2026/03/29 18:45:00 -0400' }))).toEqual(['e2']);
      expect(names(await list(paris.apiKey, { calendar_entry_modified: { from_date: '2026-03-29' } }))).toHaveLength(Object.keys(ids).length);
      expect(names(await list(paris.apiKey, { calendar_entry_modified: { to_date: '2026-03-28' } }))).toEqual([]);
      const bad = await list(paris.apiKey, { within: { from_date: 'soon' } });
      expect({ status: bad.status, body: bad.body }).toEqual({
        status: 422,
        body: [{ field: 'conditions[within][from_date]', humanized_field: expect.any(String), msg: 'is not a valid datetime' }],
      });
    });

    it('sorts by the §4.1 whitelist; anything else is a 422 naming sort', async () => {
      const sorted = await server.request(
        'GET',
        `/api/v3/calendar_entries.json?${formEncode({ conditions: { owner_id: ownerId, kind: 'task' }, sort: 'due_date' })}`,
        { apiKey: adminKey },
      );
      expect(names(sorted)).toHaveLength(8);
      expect(sorted.body.entries.map((e: { due_date: string | null }) => e.due_date)).toEqual([
        '2026/03/27',
        '2026/03/27',
        '2026/03/28',
        '2026/03/29',
        '2026/03/30',
        '2026/04/06',
        '2026/04/13',
        null,
      ]);
      const starts = await server.request(
        'GET',
        `/api/v3/calendar_entries.json?${formEncode({ conditions: { owner_id: ownerId, kind: 'event' }, sort: '-calendar_entries.start_time' })}`,
        { apiKey: adminKey },
      );
      expect(starts.body.entries.map((e: { id: number }) => e.id)).toEqual([ids.e2, ids.e1, ids.ended, ids.long]);
      for (const sort of ['name', '-deals.due_date', 'completed_at']) {
        const res = await server.request('GET', '/api/v3/calendar_entries.json', { apiKey: adminKey, query: { sort } });
        expect({ sort, status: res.status, field: res.body[0]?.field }).toEqual({ sort, status: 422, field: 'sort' });
      }
    });

    it('GraphQL takes the same conditions in the filter (due, within) and runs saved searches of type calendar_entries', async () => {
      const q = `query($f: CalendarEntryFilter, $s: Int) { calendarEntries(filter: $f, searchId: $s, orderBy: [{field: ID}]) { nodes { databaseId } totalCount } }`;
      const data = await gql(paris.apiKey, q, { f: { ownerId: { eq: ownerId }, due: { in: ['TODAY', 'SOMEDAY'] } } });
      expect(data.calendarEntries.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(
        [ids.t29, ids.someday, ids.e1, ids.ended, ids.long].sort((a, b) => a - b),
      );
      const within = await gql(newYork.apiKey, q, {
        f: { ownerId: { eq: ownerId }, kind: { eq: 'EVENT' }, within: { from: '2026-03-29T22:00:00Z', to: '2026-03-29T22:20:00Z' } },
      });
      expect(within.calendarEntries.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([ids.e2, ids.long].sort((a, b) => a - b));

      const saved = await gql(
        paris.apiKey,
        `mutation($i: SavedSearchCreateInput!) { createSearch(input: $i) { search { databaseId } userErrors { field message } } }`,
        {
          i: { name: 'Late', searchType: 'CALENDAR_ENTRIES', isShared: true, query: { late: [true], owner_id: [ownerId] }, order: '-due_date' },
        },
      );
      expect(saved.createSearch.userErrors).toEqual([]);
      const searchId = saved.createSearch.search.databaseId;
      const v3 = await server.v3(paris.apiKey).get('/calendar_entries.json', { search_id: searchId, 'conditions[today]': 'true' });
      // Descending puts entries without a due date (events) first.
      expect(v3.body.entries.map((e: { id: number }) => e.id)).toEqual([ids.ended, ids.t28, ids.t27]);
      // A shared search runs in the runner's zone: New York's "late" is one task less.
      const other = await gql(newYork.apiKey, q, { s: searchId });
      expect(other.calendarEntries.totalCount).toBe(2);
    });
  });

  describe('a 25-hour day: New York when clocks go back (2026-11-01)', () => {
    it('today runs from local midnight to local midnight, 25 hours apart', async () => {
      clock.set('2026-11-01T12:00:00Z');
      const owner = await account.addUser({ timeZone: 'UTC' });
      const early = await fixtures.calendarEntry(server, owner.apiKey, {
        kind: 'EVENT',
        name: 'early',
        startTime: '2026-11-01T04:10:00Z',
        endTime: '2026-11-01T04:20:00Z',
      });
      const late = await fixtures.calendarEntry(server, owner.apiKey, {
        kind: 'EVENT',
        name: 'late',
        startTime: '2026-11-02T04:30:00Z',
        endTime: '2026-11-02T04:45:00Z',
      });
      const next = await fixtures.calendarEntry(server, owner.apiKey, {
        kind: 'EVENT',
        name: 'next day',
        startTime: '2026-11-02T05:00:00Z',
        endTime: '2026-11-02T05:10:00Z',
      });
      const res = await server.v3(newYork.apiKey).get('/calendar_entries.json', { 'conditions[owner_id]': owner.id, 'conditions[today]': 'true' });
      expect(res.body.entries.map((e: { id: number }) => e.id).sort()).toEqual([early, late].sort());
      // 23:30 EST, the second hour of the day's repeated hour passed.
      expect(res.body.entries.find((e: { id: number }) => e.id === late).start_time).toBe('2026/11/01 23:30:00 -0500');
      const tomorrow = await server.v3(newYork.apiKey).get('/calendar_entries.json', { 'conditions[owner_id]': owner.id, 'conditions[tomorrow]': 'true' });
      expect(tomorrow.body.entries.map((e: { id: number }) => e.id)).toEqual([next]);
    });
  });

  describe('recurring series', () => {
    const v3Entries = async (key: string, conditions: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const res = await server.request('GET', `/api/v3/calendar_entries.json?${formEncode({ conditions, per_page: 100, sort: 'id', ...extra })}`, {
        apiKey: key,
      });
      expect(res.status).toBe(200);
      return res.body.entries as Array<Record<string, any>>;
    };

    it("a bounded rule stores one entry per occurrence, keeping the duration and the writer's wall time across a DST change", async () => {
      const before = await count();
      // 10:00 Paris on Friday the 27th (CET), daily five times: the 29th on is summer time.
      const base = await server.v3(paris.apiKey).post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarEvent', name: 'Stand-up', start_time: '2026-03-27 10:00', end_time: '2026-03-27 10:15', rrule: 'FREQ=DAILY;COUNT=5' },
      });
      expect(base.status).toBe(200);
      expect(base.body).toMatchObject({ rrule: 'FREQ=DAILY;COUNT=5', base_entry_id: null, part_of_recurring_series: true, recurrence_end: '2026/03/31' });
      expect(await count()).toBe(before + 5);
      const series = await v3Entries(paris.apiKey, { recurrences_of: base.body.id });
      expect(series.map((e) => [e.start_time, e.end_time])).toEqual([
        ['2026/03/28 10:00:00 +0100', '2026/03/28 10:15:00 +0100'],
        ['2026/03/29 10:00:00 +0200', '2026/03/29 10:15:00 +0200'],
        ['2026/03/30 10:00:00 +0200', '2026/03/30 10:15:00 +0200'],
        ['2026/03/31 10:00:00 +0200', '2026/03/31 10:15:00 +0200'],
      ]);
      for (const e of series)
        expect(e).toMatchObject({
          base_entry_id: base.body.id,
          part_of_recurring_series: true,
          recurrence_end: '2026/03/31',
          name: 'Stand-up',
          rrule: null,
          owner_id: paris.id,
        });
      // recurrences_of also takes an occurrence: the others of its series, its base included.
      expect((await v3Entries(paris.apiKey, { recurrences_of: series[1].id })).map((e) => e.id)).toEqual([
        base.body.id,
        series[0].id,
        series[2].id,
        series[3].id,
      ]);
      expect((await v3Entries(paris.apiKey, { base_entries: true, named: 'Stand-up' })).map((e) => e.id)).toEqual([base.body.id]);
      expect(await v3Entries(paris.apiKey, { non_recurring: 'yes', named: 'Stand-up' })).toEqual([]);
    });

    it('a task series repeats its due date; an open rule stops at the horizon, and at the count bound', async () => {
      const weekly = await admin.post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarTask', name: 'Weekly report', due_date: '2026-03-30', rrule: 'FREQ=WEEKLY;BYDAY=MO' },
      });
      expect(weekly.status).toBe(200);
      const [first] = await v3Entries(adminKey, { recurrences_of: weekly.body.id });
      expect(first).toMatchObject({ due_date: '2026/04/06', all_day: true, base_entry_id: weekly.body.id });
      // The horizon: RECURRENCE_LIMITS.horizonDays after the later of now and the series' start.
      const horizon = new Date(Date.parse('2026-03-30T00:00:00Z') + RECURRENCE_LIMITS.horizonDays * 86_400_000).toISOString().slice(0, 10);
      const [reach] = await server.sql(
        `select count(*)::int as n, to_char(max(due_date), 'YYYY/MM/DD') as last from calendar_entries where base_entry_id = ?`,
        [weekly.body.id],
      );
      expect(reach.n).toBe(Math.floor(RECURRENCE_LIMITS.horizonDays / 7));
      expect(reach.last <= horizon.replace(/-/g, '/')).toBe(true);
      expect(weekly.body.recurrence_end).toBe(reach.last);
      // Daily and open: the count bound comes first.
      const daily = await admin.post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarEvent', name: 'Every day', start_time: '2026-03-30 08:00', end_time: '2026-03-30 08:05', rrule: 'FREQ=DAILY' },
      });
      expect(daily.status).toBe(200);
      expect(await count('base_entry_id = ?', [daily.body.id])).toBe(RECURRENCE_LIMITS.maxOccurrences);
      // Sub-daily rules would be practically unbounded: refused, nothing written.
      const before = await count();
      const hourly = await admin.post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarEvent', start_time: '2026-03-30 08:00', end_time: '2026-03-30 08:05', rrule: 'FREQ=HOURLY' },
      });
      expect({ status: hourly.status, field: hourly.body[0]?.field }).toEqual({ status: 422, field: 'rrule' });
      expect(await count()).toBe(before);
    });

    it("completing one occurrence touches only it; changing the base's rule or times rebuilds the future and keeps what is done or past", async () => {
      const base = await admin.post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarEvent', name: 'Series', start_time: '2026-03-27 09:00', end_time: '2026-03-27 10:00', rrule: 'FREQ=DAILY;COUNT=6' },
      });
      const [past, , future1, future2] = await v3Entries(adminKey, { recurrences_of: base.body.id });
      expect(past.start_time).toBe('2026/03/28 09:00:00 +0000');
      const done = await admin.put(`/calendar_entries/${future2.id}.json`, { calendar_entry: { complete: true } });
      expect(done.body).toMatchObject({ complete: true, base_entry_id: base.body.id });
      expect((await v3Entries(adminKey, { recurrences_of: base.body.id, completed: true })).map((e) => e.id)).toEqual([future2.id]);
      // A rule on an occurrence is refused; null (sent back as read) is not.
      const refused = await admin.put(`/calendar_entries/${future1.id}.json`, { calendar_entry: { rrule: 'FREQ=WEEKLY' } });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 422,
        body: [{ field: 'rrule', humanized_field: 'Rrule', msg: 'can only be set on the base entry of its series' }],
      });
      expect((await admin.put(`/calendar_entries/${future1.id}.json`, { calendar_entry: { ...future1, name: 'Moved' } })).body).toMatchObject({
        name: 'Moved',
        rrule: null,
      });

      // Now 09:30 on the 29th: a later start and a new rule for the series' future.
      clock.set('2026-03-29T09:30:00Z');
      const changed = await admin.put(`/calendar_entries/${base.body.id}.json`, {
        calendar_entry: { start_time: '2026-03-27 11:00', end_time: '2026-03-27 11:30', rrule: 'FREQ=DAILY;COUNT=8' },
      });
      expect(changed.status).toBe(200);
      const after = await v3Entries(adminKey, { recurrences_of: base.body.id });
      const shown = after.map((e) => [e.start_time, e.complete]);
      expect(shown).toEqual([
        // Past (before now): kept as they were.
        ['2026/03/28 09:00:00 +0000', false],
        ['2026/03/29 09:00:00 +0000', false],
        // future2 (the 31st) is done: kept, and no new occurrence on its start... at the old time it keeps.
        ['2026/03/31 09:00:00 +0000', true],
        // Rebuilt from the new rule, from now on.
        ['2026/03/29 11:00:00 +0000', false],
        ['2026/03/30 11:00:00 +0000', false],
        ['2026/03/31 11:00:00 +0000', false],
        ['2026/04/01 11:00:00 +0000', false],
        ['2026/04/02 11:00:00 +0000', false],
        ['2026/04/03 11:00:00 +0000', false],
      ]);
      expect(after.some((e) => e.id === future1.id)).toBe(false);
      expect(changed.body).toMatchObject({ recurrence_end: '2026/04/03', part_of_recurring_series: true });
      // Dropping the rule ends the series' future; the kept occurrences still make it a series.
      const ended = await admin.put(`/calendar_entries/${base.body.id}.json`, { calendar_entry: { rrule: '' } });
      expect(ended.body).toMatchObject({ rrule: null, part_of_recurring_series: true, recurrence_end: '2026/03/31' });
      expect((await v3Entries(adminKey, { recurrences_of: base.body.id })).map((e) => e.start_time)).toEqual([
        '2026/03/28 09:00:00 +0000',
        '2026/03/29 09:00:00 +0000',
        '2026/03/31 09:00:00 +0000',
      ]);
    });

    it('deleting any entry of a series deactivates it whole and answers every id; inactive entries are hidden unless include_inactive, and not found', async () => {
      const base = await admin.post('/calendar_entries.json', {
        calendar_entry: { type: 'CalendarTask', name: 'Doomed series', due_date: '2026-04-01', rrule: 'FREQ=DAILY;COUNT=3' },
      });
      const occurrences = await v3Entries(adminKey, { recurrences_of: base.body.id });
      const all = [base.body.id, ...occurrences.map((e) => e.id)];
      const deleted = await admin.del(`/calendar_entries/${occurrences[1].id}.json`);
      expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 200, body: all });
      expect(await count('id = any(?::int[]) and active = false', [`{${all.join(',')}}`])).toBe(3);
      expect(await v3Entries(adminKey, { named: 'Doomed series' })).toEqual([]);
      const inactive = await v3Entries(adminKey, { named: 'Doomed series', include_inactive: 1 });
      expect(inactive.map((e) => [e.id, e.active])).toEqual(all.map((id) => [id, false]));
      for (const id of all) {
        expect((await admin.get(`/calendar_entries/${id}.json`)).status).toBe(404);
        expect((await admin.put(`/calendar_entries/${id}.json`, { calendar_entry: { name: 'back?' } })).status).toBe(404);
        expect((await admin.del(`/calendar_entries/${id}.json`)).status).toBe(404);
      }
      const node = await gql(adminKey, `query($id: ID!) { node(id: $id) { id } }`, { id: Buffer.from(`CalendarEntry:${base.body.id}`).toString('base64url') });
      expect(node.node).toBeNull();

      // An entry of no series is removed and answers its own id.
      const single = await fixtures.calendarEntry(server, adminKey);
      const gone = await admin.del(`/calendar_entries/${single}.json`);
      expect({ status: gone.status, body: gone.body }).toEqual({ status: 200, body: [single] });
      expect(await count('id = ?', [single])).toBe(0);
    });

    it('GraphQL: create a series, read its occurrences and base, delete it with the affected ids', async () => {
      const created = await gql(
        adminKey,
        `mutation($i: CalendarEntryCreateInput!) { createCalendarEntry(input: $i) { calendarEntry { databaseId kind partOfRecurringSeries recurrences(orderBy: [{field: START_TIME}]) { totalCount nodes { databaseId startTime baseEntry { databaseId } } } } userErrors { field code message } } }`,
        {
          i: {
            kind: 'EVENT',
            name: 'GraphQL series',
            startTime: '2026-04-06T09:00:00Z',
            endTime: '2026-04-06T09:30:00Z',
            rrule: 'FREQ=WEEKLY;COUNT=3',
            exdate: '20260413T090000Z',
          },
        },
      );
      const entry = created.createCalendarEntry.calendarEntry;
      expect(created.createCalendarEntry.userErrors).toEqual([]);
      expect(entry).toMatchObject({ kind: 'EVENT', partOfRecurringSeries: true });
      expect(entry.recurrences.nodes.map((n: { startTime: string }) => n.startTime)).toEqual(['2026-04-20T09:00:00.000Z']);
      expect(entry.recurrences.nodes[0].baseEntry).toEqual({ databaseId: entry.databaseId });

      const bad = await gql(
        adminKey,
        `mutation($i: CalendarEntryCreateInput!) { createCalendarEntry(input: $i) { calendarEntry { databaseId } userErrors { field code message } } }`,
        {
          i: { kind: 'TASK', dueDate: '2026-04-06', rrule: 'FREQ=DAILY;INTERVAL=0' },
        },
      );
      expect(bad.createCalendarEntry).toMatchObject({ calendarEntry: null, userErrors: [{ field: ['input', 'rrule'], code: 'INVALID' }] });

      const deleted = await gql(
        adminKey,
        `mutation($id: Int!) { deleteCalendarEntry(id: $id) { deletedDatabaseId affectedDatabaseIds seriesDeactivated userErrors { code } } }`,
        { id: entry.recurrences.nodes[0].databaseId },
      );
      expect(deleted.deleteCalendarEntry).toEqual({
        deletedDatabaseId: entry.recurrences.nodes[0].databaseId,
        affectedDatabaseIds: [entry.databaseId, entry.recurrences.nodes[0].databaseId],
        seriesDeactivated: true,
        userErrors: [],
      });
      expect((await gql(adminKey, `query($id: Int!) { calendarEntry(id: $id) { databaseId } }`, { id: entry.databaseId })).calendarEntry).toBeNull();
      const again = await gql(
        adminKey,
        `mutation($id: Int!) { deleteCalendarEntry(id: $id) { deletedDatabaseId affectedDatabaseIds userErrors { field code } } }`,
        { id: entry.databaseId },
      );
      expect(again.deleteCalendarEntry).toEqual({ deletedDatabaseId: null, affectedDatabaseIds: [], userErrors: [{ field: ['id'], code: 'NOT_FOUND' }] });
    });
  });

  describe('the service surface other parts build on', () => {
    it("insertTasks makes tasks in one statement (todo templates); entries() lists the viewer's visible entries by conditions", async () => {
      const deal = await fixtures.deal(server, adminKey);
      const category = await fixtures.eventCategory(server, adminKey);
      const viewer = (await viewerForUser(server.orm.em.fork(), newYork.id))!;
      const ctx = createContext(server.orm, viewer, 'calendar-service-test', { clock });
      const service = new CalendarEntryService(ctx);
      const ids = await service.insertTasks([
        {
          ownerId: own.id,
          name: 'Call the client',
          dueDate: '2026-03-31',
          categoryId: category,
          association: { type: CalendarAssociationType.DEAL, id: deal },
        },
        { ownerId: own.id, name: 'Send a quote', dueDate: null },
      ]);
      expect(ids).toHaveLength(2);
      const rows = await server.sql(
        `select name, kind, owner_id, to_char(due_date, 'YYYY-MM-DD') as due, category_id, association_type, deal_id, all_day, time_zone, active from calendar_entries where id = any(?::int[]) order by id`,
        [`{${ids.join(',')}}`],
      );
      expect(rows).toEqual([
        {
          name: 'Call the client',
          kind: 'task',
          owner_id: own.id,
          due: '2026-03-31',
          category_id: category,
          association_type: 'Deal',
          deal_id: deal,
          all_day: true,
          time_zone: 'America/New_York',
          active: true,
        },
        {
          name: 'Send a quote',
          kind: 'task',
          owner_id: own.id,
          due: null,
          category_id: null,
          association_type: null,
          deal_id: null,
          all_day: true,
          time_zone: 'America/New_York',
          active: true,
        },
      ]);
      // The same conditions as the lists, in the viewer's zone (New York: Saturday the 28th).
      const thisWeek = await service.entries(
        { ownerId: { eq: own.id }, due: { eq: 'this_week' } } as never,
        [{ field: 'due_date', direction: 'ASC' }] as never,
      );
      expect(thisWeek.map((e) => e.id)).toEqual([]);
      const nextWeek = await service.entries({ ownerId: { eq: own.id }, due: { in: ['next_week', 'someday'] } } as never, null);
      expect(nextWeek.map((e) => e.id).sort()).toEqual([...ids].sort());
    });
  });

  describe('visibility: the owner, or a deal, person or company the viewer may see', () => {
    it('an own user sees their entries and those about their records; others are 404 / null everywhere', async () => {
      const ownDeal = await fixtures.deal(server, own.apiKey);
      const adminDeal = await fixtures.deal(server, adminKey);
      const mine = await fixtures.calendarEntry(server, own.apiKey, { name: 'mine' });
      const aboutMine = await fixtures.calendarEntry(server, adminKey, { name: 'about my deal', associationType: 'DEAL', associationId: ownDeal });
      const hidden = await fixtures.calendarEntry(server, adminKey, { name: 'hidden', associationType: 'DEAL', associationId: adminDeal });
      const v3 = server.v3(own.apiKey);
      const listed = (await v3.get('/calendar_entries.json')).body.entries.map((e: { id: number }) => e.id);
      expect(listed).toEqual(expect.arrayContaining([mine, aboutMine]));
      expect(listed).not.toContain(hidden);
      expect((await v3.get(`/calendar_entries/${aboutMine}.json`)).body).toMatchObject({ association_id: ownDeal, association_type: 'Deal' });
      for (const res of [
        await v3.get(`/calendar_entries/${hidden}.json`),
        await v3.put(`/calendar_entries/${hidden}.json`, { calendar_entry: { name: 'x' } }),
        await v3.del(`/calendar_entries/${hidden}.json`),
      ]) {
        expect({ status: res.status, text: res.text }).toEqual({ status: 404, text: '' });
      }
      expect((await v3.get(`/deals/${adminDeal}/calendar_entries.json`)).status).toBe(404);
      expect((await v3.get(`/deals/${ownDeal}/calendar_entries.json`)).body.entries.map((e: { id: number }) => e.id)).toEqual([aboutMine]);
      const data = await gql(
        own.apiKey,
        `query($a: Int!, $b: Int!, $h: ID!) { a: calendarEntry(id: $a) { association { ... on Deal { databaseId } } } b: calendarEntry(id: $b) { databaseId } node(id: $h) { id } deal(id: ${ownDeal}) { calendarEntries { nodes { databaseId } } } }`,
        {
          a: aboutMine,
          b: hidden,
          h: Buffer.from(`CalendarEntry:${hidden}`).toString('base64url'),
        },
      );
      expect(data).toEqual({
        a: { association: { databaseId: ownDeal } },
        b: null,
        node: null,
        deal: { calendarEntries: { nodes: [{ databaseId: aboutMine }] } },
      });
      // The admin sees it all.
      expect((await admin.get(`/calendar_entries/${hidden}.json`)).status).toBe(200);
    });
  });
});
