import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { dropDatabase, ensureDatabase } from '../../src/db/embedded';
import { openOrm } from '../../src/app/orm';
import { DEFAULT_LISTS } from '../../src/modules/accounts/account.service';
import { ListKind } from '../../src/modules/lists/list-item.entity';

/**
 * Migration 20261204000001 on a database made before (issue 25 §5): accounts with no event
 * categories (or only the Milestone the service made for close-date tasks) and no calendar entry
 * priorities get what new accounts start with; a list an admin set up is left as it is.
 */
describe('migration 20261204000001 (calendar list defaults) on an existing database', () => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = '/postgres';
  const name = `crm_cal_lists_mig_${process.pid}_${randomBytes(3).toString('hex')}`;
  let orm: MikroORM | null = null;

  afterAll(async () => {
    await orm?.close(true);
    await dropDatabase(url.toString(), name);
  });

  it('gives the defaults to the accounts that have none, as new accounts get them', async () => {
    orm = await openOrm({ clientUrl: await ensureDatabase(url.toString(), name), poolMax: 2 });
    const migrator = orm.getMigrator();
    await migrator.up({ to: 'Migration20261203000004OutboxRecipientAddress' });
    const conn = orm.em.getConnection();
    const account = async () =>
      (await conn.execute<Array<{ id: number }>>(`insert into accounts (name, time_zone, created_at) values ('Before', 'UTC', now()) returning id`))[0].id;
    const item = async (accountId: number, kind: string, itemName: string, position: number, hexColor: string | null = null) =>
      (
        await conn.execute<Array<{ id: number }>>(
          `insert into list_items (account_id, kind, name, hex_color, position, created_at, updated_at) values (?, ?, ?, ?, ?, now(), now()) returning id`,
          [accountId, kind, itemName, hexColor, position],
        )
      )[0].id;

    const none = await account();
    await item(none, 'note_category', 'Call', 0); // other lists do not count
    const milestoneOnly = await account();
    const milestone = await item(milestoneOnly, 'event_category', 'milestone', 0);
    const setUp = await account();
    await item(setUp, 'event_category', 'Visit', 0);
    await item(setUp, 'event_category', 'Milestone', 1);
    await item(setUp, 'calendar_entry_priority', 'Urgent', 0, 'C73408');

    await migrator.up({ to: 'Migration20261204000001CalendarListDefaults' });

    const list = async (accountId: number, kind: string) =>
      (
        await conn.execute<Array<{ id: number; name: string; hex_color: string | null; position: number }>>(
          `select id, name, hex_color, position from list_items where account_id = ? and kind = ? order by position, id`,
          [accountId, kind],
        )
      ).map((r) => ({ ...r, position: Number(r.position) }));
    // Written out in the migration: the same as new accounts get.
    const defaults = (kind: ListKind) =>
      DEFAULT_LISTS.filter((d) => d.kind === kind).map((d, position) => ({ name: d.name, hex_color: d.hexColor ?? null, position }));
    const shape = (rows: Awaited<ReturnType<typeof list>>) => rows.map(({ name: n, hex_color, position }) => ({ name: n, hex_color, position }));

    expect(shape(await list(none, 'event_category'))).toEqual(defaults(ListKind.EVENT_CATEGORY));
    expect(shape(await list(none, 'calendar_entry_priority'))).toEqual(defaults(ListKind.CALENDAR_ENTRY_PRIORITY));

    // The service's own Milestone is kept (its id, its case: entries point at it) and takes its default place.
    const withMilestone = await list(milestoneOnly, 'event_category');
    expect(shape(withMilestone)).toEqual(defaults(ListKind.EVENT_CATEGORY).map((d) => (d.name === 'Milestone' ? { ...d, name: 'milestone' } : d)));
    expect(withMilestone.find((r) => r.name === 'milestone')!.id).toBe(milestone);
    expect(shape(await list(milestoneOnly, 'calendar_entry_priority'))).toEqual(defaults(ListKind.CALENDAR_ENTRY_PRIORITY));

    expect(shape(await list(setUp, 'event_category'))).toEqual([
      { name: 'Visit', hex_color: null, position: 0 },
      { name: 'Milestone', hex_color: null, position: 1 },
    ]);
    expect(shape(await list(setUp, 'calendar_entry_priority'))).toEqual([{ name: 'Urgent', hex_color: 'C73408', position: 0 }]);

    // Run again (a later migration's rollback and redo): nothing is doubled.
    await migrator.down({ to: 'Migration20261203000004OutboxRecipientAddress' });
    await migrator.up({ to: 'Migration20261204000001CalendarListDefaults' });
    expect(await list(none, 'event_category')).toHaveLength(5);
    expect(await list(none, 'calendar_entry_priority')).toHaveLength(3);
  });
});
