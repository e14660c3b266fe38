import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { dropDatabase, ensureDatabase } from '../../src/db/embedded';
import { openOrm } from '../../src/app/orm';

/**
 * Migration 20261202000002 on a database with dated deals (issue 22): each gets its "Expected close
 * date" task as a deal write would make it (due that day, in the account's Milestone event category,
 * made at the end of the list where there is none and reused, any case, where there is; about the
 * deal; owned by its owner, in the owner's zone), and the deal points at it; undated deals get none.
 */
describe('migration 20261202000002 (close-date tasks) on an existing database', () => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = '/postgres';
  const name = `crm_cdt_mig_${process.pid}_${randomBytes(3).toString('hex')}`;
  let orm: MikroORM | null = null;

  afterAll(async () => {
    await orm?.close(true);
    await dropDatabase(url.toString(), name);
  });

  it('makes one task per dated deal and links it', async () => {
    orm = await openOrm({ clientUrl: await ensureDatabase(url.toString(), name), poolMax: 2 });
    const migrator = orm.getMigrator();
    await migrator.up({ to: 'Migration20261201000001ListItemColours' });
    const conn = orm.em.getConnection();
    const one = async <T>(sql: string, params: unknown[] = []) => (await conn.execute<T[]>(sql, params))[0];
    const account = async (zone: string) =>
      (await one<{ id: number }>(`insert into accounts (name, time_zone, created_at) values ('Before', ?, now()) returning id`, [zone])).id;
    const user = async (accountId: number, zone: string | null) =>
      (
        await one<{ id: number }>(
          `insert into users (account_id, email, time_zone, api_key_hash, created_at, updated_at) values (?, ?, ?, ?, now(), now()) returning id`,
          [accountId, `${randomBytes(4).toString('hex')}@x.test`, zone, randomBytes(32).toString('hex')],
        )
      ).id;
    const deal = async (accountId: number, ownerId: number | null, date: string | null) =>
      (
        await one<{ id: number }>(
          `insert into deals (account_id, owner_id, name, expected_close_date, created_at, updated_at) values (?, ?, 'D', ?, now(), now()) returning id`,
          [accountId, ownerId, date],
        )
      ).id;
    const category = async (accountId: number, categoryName: string, position: number) =>
      (
        await one<{ id: number }>(
          `insert into list_items (account_id, kind, name, position, created_at, updated_at) values (?, 'event_category', ?, ?, now(), now()) returning id`,
          [accountId, categoryName, position],
        )
      ).id;

    const a = await account('UTC');
    const paris = await user(a, 'Europe/Paris');
    await category(a, 'Call', 4);
    const dated = await deal(a, paris, '2027-05-29');
    const ownerless = await deal(a, null, '2027-06-01');
    const undated = await deal(a, paris, null);
    const b = await account('America/New_York');
    const existing = await category(b, 'milestone', 0);
    const inB = await deal(b, await user(b, null), '2027-07-04');
    const c = await account('UTC');
    await deal(c, null, null);

    await migrator.up({ to: 'Migration20261202000002CloseDateTasks' });

    const milestones = await conn.execute<Array<{ account_id: number; id: number; name: string; position: number }>>(
      `select account_id, id, name, position from list_items where kind = 'event_category' and lower(name) = 'milestone' order by account_id`,
    );
    const made = milestones.find((m) => m.account_id === a)!;
    expect(milestones.map((m) => [m.account_id, m.name])).toEqual([
      [a, 'Milestone'],
      [b, 'milestone'],
    ]);
    expect(made.position).toBe(5);

    const tasks = await conn.execute<Array<Record<string, unknown>>>(
      `select d.id as deal_id, e.kind, e.name, e.due_date::text as due_date, e.category_id, e.owner_id, e.association_type, e.deal_id as entry_deal_id, e.all_day, e.time_zone, e.active
         from deals d join calendar_entries e on e.id = d.expected_close_date_event_id order by d.id`,
    );
    const task = { kind: 'task', name: 'Expected close date', association_type: 'Deal', all_day: true, active: true };
    expect(tasks).toEqual([
      { ...task, deal_id: dated, entry_deal_id: dated, due_date: '2027-05-29', category_id: made.id, owner_id: paris, time_zone: 'Europe/Paris' },
      { ...task, deal_id: ownerless, entry_deal_id: ownerless, due_date: '2027-06-01', category_id: made.id, owner_id: null, time_zone: 'UTC' },
      { ...task, deal_id: inB, entry_deal_id: inB, due_date: '2027-07-04', category_id: existing, owner_id: expect.any(Number), time_zone: 'America/New_York' },
    ]);
    expect(await one(`select expected_close_date_event_id from deals where id = ?`, [undated])).toEqual({ expected_close_date_event_id: null });
    expect(Number((await one<{ n: string }>('select count(*) as n from calendar_entries')).n)).toBe(3);
    expect(await conn.execute(`select id from list_items where account_id = ?`, [c])).toEqual([]);
  });
});
