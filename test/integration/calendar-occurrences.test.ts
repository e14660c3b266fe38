import { FixedClock } from '../../src/common/clock';
import { RECURRENCE_LIMITS } from '../../src/modules/calendar/recurrence';
import { Visibility } from '../../src/modules/users/user.entity';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 14 §3: GraphQL `occurrences(from, to)` on a fixed clock. Stored entries are listed as
 * themselves; series past their stored horizon come from their rules (fromRule), keeping their
 * wall time in their zone across DST changes (Europe/Paris: 2026-03-29, 2028-03-26).
 */

const NOW = '2026-01-15T12:00:00Z';

interface Occ {
  readonly entry: { databaseId: number; name: string; baseEntryId: number | null; complete: boolean };
  readonly start: string;
  readonly end: string;
  readonly allDay: boolean;
  readonly fromRule: boolean;
}

const QUERY = `query($from: DateTimeISO!, $to: DateTimeISO!, $filter: CalendarEntryFilter, $first: Int) {
  occurrences(from: $from, to: $to, filter: $filter, first: $first) { entry { databaseId name baseEntryId complete } start end allDay fromRule }
}`;

describe('GraphQL occurrences(from, to)', () => {
  const clock = new FixedClock(NOW);
  let server: TestServer;
  let account: TestAccount;
  let paris: { id: number; apiKey: string };
  let own: { id: number; apiKey: string };
  const ids: Record<string, number> = {};

  const occurrences = async (key: string, variables: Record<string, unknown>): Promise<Occ[]> => {
    const res = await server.graphql(key, QUERY, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.occurrences;
  };
  const refusal = async (variables: Record<string, unknown>) => {
    const res = await server.graphql(paris.apiKey, QUERY, variables);
    return { data: res.body.data, error: res.body.errors?.[0] && { code: res.body.errors[0].extensions.code, message: res.body.errors[0].message } };
  };
  const create = async (key: string, input: Record<string, unknown>): Promise<number> => {
    const res = await server.graphql(
      key,
      `mutation($input: CalendarEntryCreateInput!) { createCalendarEntry(input: $input) { calendarEntry { databaseId } userErrors { field message } } }`,
      { input },
    );
    expect(res.body.data.createCalendarEntry.userErrors).toEqual([]);
    return res.body.data.createCalendarEntry.calendarEntry.databaseId;
  };
  /** The stored entries of a series (base included), by start. */
  const stored = async (base: number): Promise<Array<{ id: number; start: string; active: boolean }>> =>
    (
      await server.sql(
        `select id, start_time, due_date, active from calendar_entries where id = ? or base_entry_id = ? order by coalesce(start_time, due_date::timestamp), id`,
        [base, base],
      )
    ).map((r: { id: number; start_time: string | null; due_date: string | null; active: boolean }) => ({
      id: r.id,
      start: r.start_time ? new Date(r.start_time).toISOString() : String(r.due_date),
      active: r.active,
    }));

  beforeAll(async () => {
    server = await startTestServer({}, { clock });
    account = await server.createAccount({ timeZone: 'UTC' });
    paris = await account.addUser({ timeZone: 'Europe/Paris', firstName: 'Paula', lastName: 'Paris' });
    own = await account.addUser({ visibility: Visibility.OWN, firstName: 'Olga', lastName: 'Own' });
    // Mondays 09:00 Paris, open-ended: stored up to the horizon (730 days), computed past it. One Monday left out in each part.
    ids.weekly = await create(paris.apiKey, {
      kind: 'EVENT',
      name: 'Weekly standup',
      startTime: '2026-01-19T08:00:00Z',
      endTime: '2026-01-19T08:15:00Z',
      rrule: 'FREQ=WEEKLY;BYDAY=MO',
      exdate: '20260202,20280410',
    });
    // Daily tasks: at most 366 stored, computed after.
    ids.daily = await create(paris.apiKey, { kind: 'TASK', name: 'Daily check', dueDate: '2026-01-20', rrule: 'FREQ=DAILY' });
    ids.meeting = await create(paris.apiKey, { kind: 'EVENT', name: 'One meeting', startTime: '2026-03-17T13:00:00Z', endTime: '2026-03-17T14:00:00Z' });
    ids.task = await create(paris.apiKey, { kind: 'TASK', name: 'One task', dueDate: '2026-03-18' });
    ids.admins = await create(account.admin.apiKey, {
      kind: 'EVENT',
      name: 'Admin weekly',
      startTime: '2026-01-20T10:00:00Z',
      endTime: '2026-01-20T11:00:00Z',
      rrule: 'FREQ=WEEKLY',
    });
  }, 60_000);
  afterAll(() => server.close());
  beforeEach(() => clock.set(NOW));

  it('lists stored entries as themselves in the stored range, keeping 09:00 Paris across the DST change; a rule exdate, a cancelled occurrence are absent, a completed one shows it', async () => {
    const series = await stored(ids.weekly);
    expect(series.some((e) => e.start === '2026-02-02T08:00:00.000Z')).toBe(false); // the rule's exdate: never stored
    const mar23 = series.find((e) => e.start === '2026-03-23T08:00:00.000Z')!;
    const apr06 = series.find((e) => e.start === '2026-04-06T07:00:00.000Z')!;
    for (const [id, input] of [
      [mar23.id, '{active: false}'],
      [apr06.id, '{complete: true}'],
    ] as const) {
      const res = await server.graphql(paris.apiKey, `mutation { updateCalendarEntry(id: ${id}, input: ${input}) { userErrors { message } } }`);
      expect(res.body.data.updateCalendarEntry.userErrors).toEqual([]);
    }
    const found = await occurrences(paris.apiKey, {
      from: '2026-03-16T00:00:00Z',
      to: '2026-04-14T00:00:00Z',
      filter: { kind: { eq: 'EVENT' }, ownerId: { in: [paris.id] } },
    });
    expect(found.map((o) => [o.entry.name, o.start, o.end, o.fromRule, o.entry.complete])).toEqual([
      ['Weekly standup', '2026-03-16T08:00:00.000Z', '2026-03-16T08:15:00.000Z', false, false],
      ['One meeting', '2026-03-17T13:00:00.000Z', '2026-03-17T14:00:00.000Z', false, false],
      // 23 March cancelled; after 29 March, 09:00 Paris is 07:00 UTC.
      ['Weekly standup', '2026-03-30T07:00:00.000Z', '2026-03-30T07:15:00.000Z', false, false],
      ['Weekly standup', '2026-04-06T07:00:00.000Z', '2026-04-06T07:15:00.000Z', false, true],
      ['Weekly standup', '2026-04-13T07:00:00.000Z', '2026-04-13T07:15:00.000Z', false, false],
    ]);
    // The stored occurrences themselves, not their base.
    expect(found.filter((o) => o.entry.name === 'Weekly standup').every((o) => o.entry.baseEntryId === ids.weekly)).toBe(true);
    expect(found.find((o) => o.start === '2026-04-06T07:00:00.000Z')!.entry.databaseId).toBe(apr06.id);
  });

  it("computes a series past its stored horizon from its rule: the base as entry, wall time kept across DST, the rule's exdate left out", async () => {
    const last = (await stored(ids.weekly)).at(-1)!;
    // Stored up to the horizon: 730 days after the later of now and the base's start.
    expect(Date.parse(last.start)).toBeLessThanOrEqual(Date.parse('2026-01-19T08:00:00Z') + RECURRENCE_LIMITS.horizonDays * 86_400_000);
    expect(Date.parse(last.start)).toBeLessThan(Date.parse('2028-03-01T00:00:00Z'));
    const found = await occurrences(paris.apiKey, { from: '2028-03-06T00:00:00Z', to: '2028-04-25T00:00:00Z', filter: { name: { eq: 'Weekly standup' } } });
    expect(found.map((o) => [o.start, o.end, o.fromRule, o.entry.databaseId])).toEqual([
      ['2028-03-06T08:00:00.000Z', '2028-03-06T08:15:00.000Z', true, ids.weekly],
      ['2028-03-13T08:00:00.000Z', '2028-03-13T08:15:00.000Z', true, ids.weekly],
      ['2028-03-20T08:00:00.000Z', '2028-03-20T08:15:00.000Z', true, ids.weekly],
      // Paris springs forward on 26 March 2028: still 09:00 local.
      ['2028-03-27T07:00:00.000Z', '2028-03-27T07:15:00.000Z', true, ids.weekly],
      ['2028-04-03T07:00:00.000Z', '2028-04-03T07:15:00.000Z', true, ids.weekly],
      // 10 April: the rule's exdate.
      ['2028-04-17T07:00:00.000Z', '2028-04-17T07:15:00.000Z', true, ids.weekly],
      ['2028-04-24T07:00:00.000Z', '2028-04-24T07:15:00.000Z', true, ids.weekly],
    ]);
  });

  it('joins stored and computed at the horizon without listing a start twice', async () => {
    const last = (await stored(ids.weekly)).at(-1)!;
    const from = new Date(Date.parse(last.start) - 15 * 86_400_000).toISOString();
    const to = new Date(Date.parse(last.start) + 22 * 86_400_000).toISOString();
    const found = await occurrences(paris.apiKey, { from, to, filter: { name: { eq: 'Weekly standup' } } });
    const starts = found.map((o) => o.start);
    expect(new Set(starts).size).toBe(starts.length);
    expect(found.map((o) => o.fromRule)).toEqual([false, false, false, true, true, true]);
    expect(found[2]).toMatchObject({ start: last.start, entry: { databaseId: last.id } });
    for (let i = 1; i < found.length; i++) expect(Date.parse(found[i].start) - Date.parse(found[i - 1].start)).toBe(7 * 86_400_000);
  });

  it('gives tasks their due day in the series zone (00:00 to the next midnight, all day), stored or computed', async () => {
    const storedDays = await occurrences(paris.apiKey, { from: '2026-03-28T00:00:00Z', to: '2026-03-30T00:00:00Z', filter: { kind: { eq: 'TASK' } } });
    expect(storedDays.map((o) => [o.entry.name, o.start, o.end, o.allDay, o.fromRule])).toEqual([
      ['Daily check', '2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', true, false],
      // 29 March 2026 has 23 hours in Paris.
      ['Daily check', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', true, false],
      ['Daily check', '2026-03-29T22:00:00.000Z', '2026-03-30T22:00:00.000Z', true, false],
    ]);
    // At most 366 stored: mid-2027 is computed from the rule.
    const computed = await occurrences(paris.apiKey, { from: '2027-06-01T00:00:00Z', to: '2027-06-03T00:00:00Z', filter: { kind: { eq: 'TASK' } } });
    expect(computed.map((o) => [o.start, o.end, o.allDay, o.fromRule, o.entry.databaseId])).toEqual([
      ['2027-05-31T22:00:00.000Z', '2027-06-01T22:00:00.000Z', true, true, ids.daily],
      ['2027-06-01T22:00:00.000Z', '2027-06-02T22:00:00.000Z', true, true, ids.daily],
      ['2027-06-02T22:00:00.000Z', '2027-06-03T22:00:00.000Z', true, true, ids.daily],
    ]);
  });

  it('takes `first` (the earliest) and the filter; answers sorted by start', async () => {
    const all = await occurrences(paris.apiKey, { from: '2026-03-16T00:00:00Z', to: '2026-03-20T00:00:00Z' });
    // A task's day overlapping the window counts: 16 March in Paris starts at 23:00 UTC the day before.
    expect(all.map((o) => o.entry.name)).toEqual([
      'Daily check',
      'Weekly standup',
      'Daily check',
      'Admin weekly',
      'One meeting',
      'Daily check',
      'One task',
      'Daily check',
      'Daily check',
    ]);
    const starts = all.map((o) => Date.parse(o.start));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect((await occurrences(paris.apiKey, { from: '2026-03-16T00:00:00Z', to: '2026-03-20T00:00:00Z', first: 2 })).map((o) => o.entry.name)).toEqual([
      'Daily check',
      'Weekly standup',
    ]);
    expect(
      (await occurrences(paris.apiKey, { from: '2026-03-16T00:00:00Z', to: '2026-03-20T00:00:00Z', filter: { ownerId: { in: [account.admin.id] } } })).map(
        (o) => [o.entry.name, o.start],
      ),
    ).toEqual([['Admin weekly', '2026-03-17T10:00:00.000Z']]);
    expect(await occurrences(paris.apiKey, { from: '2026-03-16T00:00:00Z', to: '2026-03-20T00:00:00Z', first: 0 })).toEqual([]);
  });

  it('refuses a window wider than the bound (naming to), a reversed one, and first above 1000', async () => {
    const wide = await refusal({ from: '2027-01-01T00:00:00Z', to: '2028-01-03T00:00:00Z' });
    expect(wide).toEqual({ data: null, error: { code: 'BAD_USER_INPUT', message: `to: must be at most ${RECURRENCE_LIMITS.windowDays} days after from` } });
    expect((await refusal({ from: '2027-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' })).error).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'to: must be after from',
    });
    expect((await refusal({ from: '2027-01-01T00:00:00Z', to: '2027-01-02T00:00:00Z', first: 1001 })).error).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'first: must be between 0 and 1000, got 1001',
    });
    // A window of exactly the bound is fine.
    const exact = await server.graphql(paris.apiKey, QUERY, { from: '2027-01-01T00:00:00Z', to: '2028-01-02T00:00:00Z', first: 1 });
    expect(exact.body.errors).toBeUndefined();
  });

  it('lists only what the viewer may see; a deleted series computes nothing', async () => {
    const window = { from: '2028-03-06T00:00:00Z', to: '2028-03-14T00:00:00Z' };
    const names = async (key: string) => [...new Set((await occurrences(key, window)).map((o) => o.entry.name))].sort();
    expect(await names(own.apiKey)).toEqual([]);
    expect(await names(paris.apiKey)).toEqual(['Admin weekly', 'Daily check', 'Weekly standup']);
    expect(await names(account.admin.apiKey)).toEqual(['Admin weekly', 'Daily check', 'Weekly standup']);
    const other = await server.createAccount();
    expect(await names(other.admin.apiKey)).toEqual([]);
    // The own user's own series.
    const mine = await create(own.apiKey, {
      kind: 'EVENT',
      name: 'Own weekly',
      startTime: '2026-01-21T10:00:00Z',
      endTime: '2026-01-21T11:00:00Z',
      rrule: 'FREQ=WEEKLY',
    });
    expect(await names(own.apiKey)).toEqual(['Own weekly']);
    const deleted = await server.graphql(own.apiKey, `mutation { deleteCalendarEntry(id: ${mine}) { seriesDeactivated } }`);
    expect(deleted.body.data.deleteCalendarEntry.seriesDeactivated).toBe(true);
    expect(await names(own.apiKey)).toEqual([]);
  });

  it('keeps computing a series whose base was cancelled on its own (the base is not listed)', async () => {
    const base = await create(paris.apiKey, {
      kind: 'EVENT',
      name: 'Base cancelled',
      startTime: '2026-01-22T10:00:00Z',
      endTime: '2026-01-22T11:00:00Z',
      rrule: 'FREQ=WEEKLY',
    });
    const res = await server.graphql(paris.apiKey, `mutation { updateCalendarEntry(id: ${base}, input: {active: false}) { userErrors { message } } }`);
    expect(res.body.data.updateCalendarEntry.userErrors).toEqual([]);
    const filter = { name: { eq: 'Base cancelled' } };
    expect((await occurrences(paris.apiKey, { from: '2026-01-20T00:00:00Z', to: '2026-02-01T00:00:00Z', filter })).map((o) => [o.start, o.fromRule])).toEqual([
      ['2026-01-29T10:00:00.000Z', false],
    ]);
    expect(
      (await occurrences(paris.apiKey, { from: '2028-03-06T00:00:00Z', to: '2028-03-14T00:00:00Z', filter })).map((o) => [
        o.start,
        o.fromRule,
        o.entry.databaseId,
      ]),
    ).toEqual([['2028-03-09T10:00:00.000Z', true, base]]);
  });

  it('is charged like a page of `first` records, what is under each occurrence times `first`', async () => {
    const cost = async (query: string) => (await server.graphql(paris.apiKey, query)).body.extensions.cost.requested;
    const window = 'from: "2026-03-16T00:00:00Z", to: "2026-03-20T00:00:00Z"';
    expect(await cost(`{ occurrences(${window}) { start } }`)).toBe(3); // 500 by default
    expect(await cost(`{ occurrences(${window}, first: 1000) { start } }`)).toBe(5);
    expect(await cost(`{ occurrences(${window}, first: 10) { start } }`)).toBe(1);
    expect(await cost(`{ occurrences(${window}, first: 200) { entry { recurrences(first: 100) { nodes { databaseId } } } } }`)).toBe(1 + 100);
  });
});
