import { Visibility } from '../../src/modules/users/user.entity';
import { openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 22: a deal's expected close date is a calendar task (v3 §2.5 `expected_close_date_event_id`,
 * "id of the expected-close-date calendar entry"), as the recording shows it (pipelinedeals_api
 * PipelineDeals_Deal_calendar_entries.yml): a CalendarTask named "Expected close date", all day, due
 * that date, in the "Milestone" event category, about the deal, owned by the deal's owner.
 */
describe("a deal's expected close date is a calendar task (v3)", () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  beforeAll(async () => {
    ({ server, account, key } = await openServerWithAccount({ timeZone: 'America/New_York' }));
  }, 60_000);
  afterAll(() => server.close());

  const api = (k = key) => server.v3(k);
  const createDeal = async (deal: Record<string, unknown>, k = key) => {
    const res = await api(k).post('/deals.json', { deal });
    expect(res.status).toBe(200);
    return res.body;
  };
  const milestones = async () =>
    (await api().get('/admin/event_categories.json')).body.entries.filter((c: { name: string }) => c.name.toLowerCase() === 'milestone');
  const entryRow = async (id: number) =>
    (await server.sql('select id, owner_id, due_date::text as due_date, deal_id, name from calendar_entries where id = ?', [id]))[0] ?? null;

  it("setting the date makes the task, answered by id in the deal and listed with the deal's entries", async () => {
    const owner = await account.addUser({ firstName: 'Olive', lastName: 'Owner' });
    const deal = await createDeal({ name: 'leverage magnetic e-tailers', expected_close_date: '2027/05/29', user_id: owner.id });
    expect(deal.expected_close_date_event_id).toEqual(expect.any(Number));

    const entry = await api().get(`/calendar_entries/${deal.expected_close_date_event_id}.json`);
    expect(entry.status).toBe(200);
    const [milestone] = await milestones();
    expect(entry.body).toMatchObject({
      id: deal.expected_close_date_event_id,
      type: 'CalendarTask',
      name: 'Expected close date',
      all_day: true,
      due_date: '2027/05/29',
      complete: false,
      start_time: null,
      end_time: null,
      category_id: milestone.id,
      category: { id: milestone.id, name: 'Milestone' },
      owner_id: owner.id,
      owner: expect.objectContaining({ id: owner.id, first_name: 'Olive', last_name: 'Owner' }),
      association_type: 'Deal',
      association_id: deal.id,
      association: { id: deal.id, name: 'leverage magnetic e-tailers' },
      company_id: null,
      associated_company: null,
      part_of_recurring_series: false,
    });
    const listed = await api().get(`/deals/${deal.id}/calendar_entries.json`);
    expect(listed.body.entries.map((e: { id: number }) => e.id)).toEqual([deal.expected_close_date_event_id]);
    // Shows, lists and GraphQL agree.
    expect((await api().get(`/deals/${deal.id}.json`)).body.expected_close_date_event_id).toBe(deal.expected_close_date_event_id);
    const gql = await server.graphql(key, 'query($id: Int!) { deal(id: $id) { expectedCloseDateEventId } }', { id: deal.id });
    expect(gql.body.data.deal.expectedCloseDateEventId).toBe(deal.expected_close_date_event_id);
  });

  it('one Milestone category serves every deal; an existing one (any case) is used, not doubled', async () => {
    const before = await milestones();
    const a = await createDeal({ name: 'A', expected_close_date: '2027-01-02' });
    const b = await createDeal({ name: 'B', expected_close_date: '2027-01-03' });
    const after = await milestones();
    expect(after).toHaveLength(1);
    if (before.length === 1) expect(after[0].id).toBe(before[0].id);
    const categories = await server.sql('select category_id from calendar_entries where id = any(?::int[])', [
      `{${a.expected_close_date_event_id},${b.expected_close_date_event_id}}`,
    ]);
    expect(categories.map((r) => r.category_id)).toEqual([after[0].id, after[0].id]);

    // Accounts start with a Milestone (issue 25 §5): renamed in another case, it is still the one used.
    const other = await server.createAccount();
    const [seeded] = (await server.v3(other.admin.apiKey).get('/admin/event_categories.json')).body.entries.filter(
      (c: { name: string }) => c.name === 'Milestone',
    );
    const named = await server.v3(other.admin.apiKey).put(`/admin/event_categories/${seeded.id}.json`, { event_category: { name: 'MILESTONE' } });
    expect(named.status).toBe(200);
    const deal = await createDeal({ name: 'Other account', expected_close_date: '2027-02-01' }, other.admin.apiKey);
    const task = await server.v3(other.admin.apiKey).get(`/calendar_entries/${deal.expected_close_date_event_id}.json`);
    expect(task.body.category).toEqual({ id: named.body.id, name: 'MILESTONE' });

    // Deleted by an admin, it is made again at the end of the list when a deal needs it.
    const third = server.v3((await server.createAccount()).admin.apiKey);
    const start = (await third.get('/admin/event_categories.json')).body.entries as Array<{ id: number; name: string; position: number }>;
    expect((await third.del(`/admin/event_categories/${start.find((c) => c.name === 'Milestone')!.id}.json`)).status).toBe(200);
    const made = (await third.post('/deals.json', { deal: { name: 'Third', expected_close_date: '2027-03-01' } })).body;
    const again = (await third.get(`/calendar_entries/${made.expected_close_date_event_id}.json`)).body.category;
    const listed = (await third.get('/admin/event_categories.json')).body.entries as Array<{ id: number; name: string; position: number }>;
    expect(listed.at(-1)).toMatchObject({ id: again.id, name: 'Milestone', position: Math.max(...start.map((c) => c.position)) });
  });

  it('moving the date moves the task; clearing it deletes the task; setting it again makes a new one', async () => {
    const deal = await createDeal({ name: 'Moving', expected_close_date: '2027-03-01' });
    const taskId = deal.expected_close_date_event_id;
    const moved = await api().put(`/deals/${deal.id}.json`, { deal: { expected_close_date: '2027-04-15' } });
    expect(moved.body.expected_close_date_event_id).toBe(taskId);
    expect((await api().get(`/calendar_entries/${taskId}.json`)).body.due_date).toBe('2027/04/15');

    // A deal sent back whole, unchanged but for its name, leaves the task as it is.
    const whole = await api().put(`/deals/${deal.id}.json`, { deal: { ...moved.body, name: 'Moving II' } });
    expect(whole.body.expected_close_date_event_id).toBe(taskId);
    expect(await entryRow(taskId)).toMatchObject({ due_date: '2027-04-15', name: 'Expected close date' });

    const cleared = await api().put(`/deals/${deal.id}.json`, { deal: { expected_close_date: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.expected_close_date_event_id).toBeNull();
    expect(await entryRow(taskId)).toBeNull();
    expect((await api().get(`/calendar_entries/${taskId}.json`)).status).toBe(404);

    const again = await api().put(`/deals/${deal.id}.json`, { deal: { expected_close_date: '2027-06-30' } });
    expect(again.body.expected_close_date_event_id).toEqual(expect.any(Number));
    expect(again.body.expected_close_date_event_id).not.toBe(taskId);
    expect(await entryRow(again.body.expected_close_date_event_id)).toMatchObject({ due_date: '2027-06-30', deal_id: deal.id });
  });

  it('a deal without a date has no task; a date set later makes one', async () => {
    const deal = await createDeal({ name: 'Undated' });
    expect(deal.expected_close_date_event_id).toBeNull();
    expect(await server.sql('select id from calendar_entries where deal_id = ?', [deal.id])).toEqual([]);
    const dated = await api().put(`/deals/${deal.id}.json`, { deal: { expected_close_date: '2027/08/01' } });
    expect(await entryRow(dated.body.expected_close_date_event_id)).toMatchObject({ due_date: '2027-08-01', deal_id: deal.id });
  });

  it("the task follows the deal's owner: a new owner of the deal owns the task", async () => {
    const first = await account.addUser({ firstName: 'First' });
    const second = await account.addUser({ firstName: 'Second' });
    const deal = await createDeal({ name: 'Handed on', expected_close_date: '2027-09-09', user_id: first.id });
    expect((await entryRow(deal.expected_close_date_event_id)).owner_id).toBe(first.id);
    const handed = await api().put(`/deals/${deal.id}.json`, { deal: { user_id: second.id } });
    expect(handed.body.expected_close_date_event_id).toBe(deal.expected_close_date_event_id);
    expect(await entryRow(deal.expected_close_date_event_id)).toMatchObject({ owner_id: second.id, due_date: '2027-09-09' });
  });

  it("an own user who gets the deal sees its task (the deal's visibility reaches it)", async () => {
    const own = await account.addUser({ visibility: Visibility.OWN });
    const deal = await createDeal({ name: 'Theirs', expected_close_date: '2027-10-10', user_id: own.id });
    const seen = await api(own.apiKey).get(`/calendar_entries/${deal.expected_close_date_event_id}.json`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ owner_id: own.id, association: { id: deal.id, name: 'Theirs' } });
  });

  it('deleting the deal deletes its task', async () => {
    const deal = await createDeal({ name: 'Doomed', expected_close_date: '2027-11-11' });
    expect((await api().del(`/deals/${deal.id}.json`)).status).toBe(200);
    expect(await entryRow(deal.expected_close_date_event_id)).toBeNull();
  });

  it('a task deleted through the calendar unlinks the deal, and comes back only when the date is set again', async () => {
    const deal = await createDeal({ name: 'Untasked', expected_close_date: '2027-12-01' });
    expect((await api().del(`/calendar_entries/${deal.expected_close_date_event_id}.json`)).body).toEqual([deal.expected_close_date_event_id]);
    expect((await api().get(`/deals/${deal.id}.json`)).body.expected_close_date_event_id).toBeNull();
    const renamed = await api().put(`/deals/${deal.id}.json`, { deal: { name: 'Untasked II' } });
    expect(renamed.body.expected_close_date_event_id).toBeNull();
    const reset = await api().put(`/deals/${deal.id}.json`, { deal: { expected_close_date: '2027-12-02' } });
    expect(await entryRow(reset.body.expected_close_date_event_id)).toMatchObject({ due_date: '2027-12-02', deal_id: deal.id });
  });

  it('two writes setting the date at once leave one task, the one the deal names', async () => {
    const deal = await createDeal({ name: 'Raced' });
    const [a, b] = await Promise.all([
      api().put(`/deals/${deal.id}.json`, { deal: { expected_close_date: '2028-01-01' } }),
      api().put(`/deals/${deal.id}.json`, { deal: { expected_close_date: '2028-02-02' } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const tasks = await server.sql('select id, due_date::text as due_date from calendar_entries where deal_id = ?', [deal.id]);
    const final = (await api().get(`/deals/${deal.id}.json`)).body;
    expect(tasks).toEqual([{ id: final.expected_close_date_event_id, due_date: final.expected_close_date.replace(/\//g, '-') }]);
  });

  it("is one transaction with the deal's write: a refused write makes no task and no category", async () => {
    const fresh = await server.createAccount();
    // Accounts start with a Milestone (issue 25 §5): without it, the write would have to make one.
    await server.sql(`delete from list_items where account_id = ? and kind = 'event_category' and name = 'Milestone'`, [fresh.accountId]);
    const categories = () => server.sql(`select id from list_items where account_id = ? and kind = 'event_category' order by id`, [fresh.accountId]);
    const before = await categories();
    const refused = await server.v3(fresh.admin.apiKey).post('/deals.json', { deal: { name: 'Refused', expected_close_date: '2027-01-05', probability: 140 } });
    expect(refused.status).toBe(422);
    expect(await server.sql('select id from calendar_entries where account_id = ?', [fresh.accountId])).toEqual([]);
    expect(await categories()).toEqual(before);

    const deal = (await server.v3(fresh.admin.apiKey).post('/deals.json', { deal: { name: 'Kept', expected_close_date: '2027-01-05' } })).body;
    const refusedMove = await server.v3(fresh.admin.apiKey).put(`/deals/${deal.id}.json`, { deal: { expected_close_date: '2027-02-05', probability: 140 } });
    expect(refusedMove.status).toBe(422);
    expect(await entryRow(deal.expected_close_date_event_id)).toMatchObject({ due_date: '2027-01-05' });
  });
});
