import type { Migration } from '@mikro-orm/migrations';
import { addListKinds, removeListKinds } from '../../migrations/support/list-kinds';

/** A new admin list's migration extends `list_items_kind_check` without retyping it (migrations/support/list-kinds.ts). */
describe('list kind migrations', () => {
  /** A migration on a database whose check holds `kinds`, as PostgreSQL shows it; answers the SQL it would run. */
  function migrationOn(kinds: readonly string[]) {
    const sql: string[] = [];
    const definition = `CHECK ((kind = ANY (ARRAY[${kinds.map((k) => `'${k}'::text`).join(', ')}])))`;
    const migration = {
      execute: async () => [{ definition }],
      addSql: (statement: string) => void sql.push(statement),
    } as unknown as Migration;
    return { migration, sql };
  }

  it('adds the new kinds after those the check holds, as MikroORM writes the check', async () => {
    const { migration, sql } = migrationOn(['lead_status', 'calendar_entry_priority']);
    await addListKinds(migration, 'deal_priority');
    expect(sql).toEqual([
      'alter table "list_items" drop constraint if exists "list_items_kind_check"',
      `alter table "list_items" add constraint "list_items_kind_check" check("kind" in ('lead_status', 'calendar_entry_priority', 'deal_priority'))`,
    ]);
  });

  it('takes them out again, with their items', async () => {
    const { migration, sql } = migrationOn(['lead_status', 'deal_priority', 'calendar_entry_priority']);
    await removeListKinds(migration, 'deal_priority');
    expect(sql).toEqual([
      `delete from "list_items" where "kind" in ('deal_priority')`,
      'alter table "list_items" drop constraint if exists "list_items_kind_check"',
      `alter table "list_items" add constraint "list_items_kind_check" check("kind" in ('lead_status', 'calendar_entry_priority'))`,
    ]);
  });

  it('refuses a kind already held or not in lower snake case, naming it', async () => {
    await expect(addListKinds(migrationOn(['lead_status']).migration, 'lead_status')).rejects.toThrow('lead_status is already in list_items_kind_check');
    await expect(addListKinds(migrationOn(['lead_status']).migration, "x'); drop table people; --")).rejects.toThrow('a list kind is lower snake case');
    await expect(addListKinds(migrationOn(['lead_status']).migration, 'DealPriority')).rejects.toThrow('DealPriority: a list kind is lower snake case');
  });
});
