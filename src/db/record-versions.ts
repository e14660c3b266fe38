import { ChangeSetType, type EventSubscriber, type FlushEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * After a flush that updated versioned records (src/graphql/versioned.ts), their new `version` is
 * read back from the database, whose trigger moved it (or left it, when only what the change
 * records leave out was written): a payload answers the version the next `expectedVersion`
 * must name. One select by primary key per table that had updates; the property is untracked,
 * so setting it writes nothing.
 */
export class RecordVersions implements EventSubscriber {
  async afterFlush({ em, uow }: FlushEventArgs): Promise<void> {
    const byTable = new Map<string, Map<number, Array<{ version: number }>>>();
    for (const cs of uow.getChangeSets()) {
      if (cs.type !== ChangeSetType.UPDATE || !cs.meta.properties['version' as never]) continue;
      const entity = cs.entity as { id: number; version: number };
      let ids = byTable.get(cs.meta.tableName);
      if (!ids) byTable.set(cs.meta.tableName, (ids = new Map()));
      ids.set(entity.id, [...(ids.get(entity.id) ?? []), entity]);
    }
    for (const [table, ids] of byTable) {
      const rows = await (em as EntityManager).execute<Array<{ id: number; lock_version: number }>>(
        `select id, lock_version from "${table}" where id = any(?::int[])`,
        [`{${[...ids.keys()].join(',')}}`],
        'all',
      );
      for (const row of rows) for (const entity of ids.get(Number(row.id)) ?? []) entity.version = Number(row.lock_version);
    }
  }
}
