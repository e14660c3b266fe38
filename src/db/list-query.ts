import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import type { Where } from './sql';

export interface ListQuery {
  /** `from` clause, e.g. `"people" p` (with joins when conditions need them). */
  readonly from: string;
  readonly alias: string;
  readonly where: Where;
  /** Whitelisted `column direction` pairs; never user text. */
  readonly orderBy: readonly string[];
  readonly limit: number;
  readonly offset: number;
}

/**
 * One statement for a page and its total: `count(*) over ()` rides along with the rows. Only a page
 * past the end (no rows, so no total) costs a second, count-only statement.
 */
export async function listWithTotal<T extends object>(em: EntityManager, entity: EntityName<T>, q: ListQuery): Promise<{ rows: T[]; total: number }> {
  const order = [...q.orderBy, `${q.alias}.id asc`].join(', ');
  const sql = `select ${q.alias}.*, count(*) over () as "__total" from ${q.from} where ${q.where.sql} order by ${order} limit ? offset ?`;
  const raw = await em.getConnection().execute<Record<string, unknown>[]>(sql, [...q.where.params, q.limit, q.offset], 'all');
  if (raw.length === 0) {
    if (q.offset === 0) return { rows: [], total: 0 };
    const [{ count }] = await em.getConnection().execute<Array<{ count: string }>>(`select count(*) as count from ${q.from} where ${q.where.sql}`, q.where.params, 'all');
    return { rows: [], total: Number(count) };
  }
  const total = Number(raw[0].__total);
  const rows = raw.map((r) => {
    delete r.__total;
    return em.map(entity, r as never);
  });
  return { rows, total };
}
