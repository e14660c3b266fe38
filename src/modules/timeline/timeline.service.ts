import { createHash } from 'node:crypto';
import type { EntityClass } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { afterCursor, decodeCursor, encodeCursor, type ConnectionData, type OrderKey } from '../../db/keyset';
import { tableOf } from '../../db/list-query';
import { Connection, pagingOf, type ConnectionArgs, type Paging } from '../../graphql/connection';
import { Comment, Note } from '../notes/note.entity';

/** The records a timeline is read on; each names the column of `notes` that points at it. */
export type TimelineParent = 'deal' | 'person' | 'company';

/** Default page of a timeline (as every nested list: 100; at most 200). */
export const TIMELINE_PAGE_SIZE = 100;

/**
 * One kind of event: a branch of the timeline's UNION ALL. `select` answers the rows of the
 * records `parent` names, for the account and parents bound as `?` (accountId, then an int[]), as
 * `parent, occurred_at, kind, id`. Visibility: a note is visible when one of its records is, and a
 * timeline is only read on a record the viewer can see, so every note about it (and every comment
 * on those notes) is visible; tenancy is still applied by each branch.
 */
export interface TimelineSource {
  /** Stored in cursors and the order's tie-breaker; never shown. */
  readonly kind: string;
  readonly entity: EntityClass<{ id: number }>;
  select(ctx: RequestContext, parent: TimelineParent): string;
}

const column = (parent: TimelineParent) => `${parent}_id`;

const table = (ctx: RequestContext, entity: EntityClass<object>) => `"${tableOf(ctx.em, entity).table}"`;

/**
 * The sources, in no particular order (the timeline orders them). A calendar entry or a document
 * joins by implementing `TimelineEvent` and adding a source here.
 */
export const TIMELINE_SOURCES: readonly TimelineSource[] = [
  {
    kind: 'note',
    entity: Note,
    select: (ctx, parent) =>
      `select n.${column(parent)} as parent, n.created_at as occurred_at, 'note'::text as kind, n.id from ${table(ctx, Note)} n where n.account_id = ? and n.${column(parent)} = any(?::int[])`,
  },
  {
    kind: 'comment',
    entity: Comment,
    select: (ctx, parent) =>
      `select n.${column(parent)} as parent, c.created_at as occurred_at, 'comment'::text as kind, c.id from ${table(ctx, Comment)} c join ${table(ctx, Note)} n on n.id = c.note_id where n.account_id = ? and n.${column(parent)} = any(?::int[])`,
  },
];

/**
 * Newest first; at the same instant by kind, then by id (descending too), so every event has one
 * place and a cursor holds (occurred_at, kind, id).
 */
const KEYS: readonly OrderKey[] = [
  { sql: 'e.occurred_at', desc: true, nullable: false, type: 'timestamp' },
  { sql: 'e.kind', desc: true, nullable: false, type: 'text' },
  { sql: 'e.id', desc: true, nullable: false, type: 'int' },
];
const REVERSED: readonly OrderKey[] = KEYS.map((k) => ({ ...k, desc: !k.desc }));

const orderSql = (keys: readonly OrderKey[]) => keys.map((k) => `${k.sql} ${k.desc ? 'desc' : 'asc'}`).join(', ');

/** The cursor signature, computed as src/db/keyset.ts does (decodeCursor checks it against KEYS). */
const SIGNATURE = createHash('sha256').update(orderSql(KEYS)).digest('base64url').slice(0, 8);

interface EventRow {
  parent: number;
  occurred_at: string;
  kind: string;
  id: number;
}

/** Every event of the parents, as one derived table `e`, with its parameters. */
function unionOf(ctx: RequestContext, parent: TimelineParent, parentIds: readonly number[]): { sql: string; params: unknown[] } {
  const ids = `{${parentIds.map((id) => Math.trunc(id)).join(',')}}`;
  return {
    sql: `(${TIMELINE_SOURCES.map((s) => s.select(ctx, parent)).join(' union all ')}) e`,
    params: TIMELINE_SOURCES.flatMap(() => [ctx.viewer.accountId, ids]),
  };
}

/**
 * One page of the timeline of each parent in one statement (a window numbers each parent's events),
 * then the records of the page by kind through the per-request loaders (one statement per kind).
 * Totals and "events before the cursor" are one grouped statement each, run only when read.
 */
async function timelinePages(
  ctx: RequestContext,
  parent: TimelineParent,
  parentIds: readonly number[],
  paging: Paging,
): Promise<Map<number, ConnectionData<object>>> {
  const backward = paging.kind === 'cursor' && paging.backward;
  const walk = backward ? REVERSED : KEYS;
  const values = paging.kind === 'cursor' && paging.cursor !== null ? decodeCursor(paging.cursor, KEYS, backward ? 'before' : 'after') : null;
  const cond = values ? afterCursor(walk, values) : null;
  const skip = paging.kind === 'offset' ? paging.offset : 0;
  const size = paging.kind === 'offset' ? paging.perPage : paging.size;
  const events = unionOf(ctx, parent, parentIds);
  const raw =
    size === 0
      ? []
      : await ctx.em.execute<EventRow[]>(
          `select x.parent, x.occurred_at, x.kind, x.id from (select e.parent, e.occurred_at, e.kind, e.id, row_number() over (partition by e.parent order by ${orderSql(walk)}) as rn
             from ${events.sql}${cond ? ` where ${cond.sql}` : ''}) x
           where x.rn > ? and x.rn <= ? order by x.parent, x.rn`,
          [...events.params, ...(cond?.params ?? []), skip, skip + size + 1],
          'all',
        );
  // The records of the page, by kind: one batched load per kind (tenancy applied by the loader).
  const records = new Map<string, Map<number, object>>();
  await Promise.all(
    TIMELINE_SOURCES.map(async (source) => {
      const ids = [...new Set(raw.filter((r) => r.kind === source.kind).map((r) => Number(r.id)))];
      const found = ids.length ? await ctx.loaders.byId(source.entity).loadMany(ids) : [];
      records.set(source.kind, new Map(found.map((r) => [r.id, r])));
    }),
  );
  const byParent = new Map<number, EventRow[]>();
  for (const row of raw) {
    const list = byParent.get(Number(row.parent)) ?? [];
    list.push(row);
    byParent.set(Number(row.parent), list);
  }
  let totals: Promise<Map<number, number>> | undefined;
  const totalsOnce = () => {
    const all = unionOf(ctx, parent, parentIds);
    return (totals ??= ctx.em
      .execute<Array<{ parent: number; n: string }>>(`select e.parent, count(*) as n from ${all.sql} group by e.parent`, all.params, 'all')
      .then((rows) => new Map(rows.map((r) => [Number(r.parent), Number(r.n)]))));
  };
  let acrossOnce: Promise<Set<number>> | undefined;
  const across = () => {
    if (!values) return Promise.resolve(new Set<number>());
    const all = unionOf(ctx, parent, parentIds);
    const c = afterCursor(walk, values);
    return (acrossOnce ??= ctx.em
      .execute<Array<{ parent: number }>>(`select distinct e.parent from ${all.sql} where not coalesce((${c.sql}), false)`, [...all.params, ...c.params], 'all')
      .then((rows) => new Set(rows.map((r) => Number(r.parent)))));
  };
  const result = new Map<number, ConnectionData<object>>();
  for (const parentId of parentIds) {
    const all = byParent.get(parentId) ?? [];
    const more = all.length > size;
    const page = all.slice(0, size);
    if (backward) page.reverse();
    // An event whose record went away between the two statements is left out (with its cursor).
    const rows = page.filter((r) => records.get(r.kind)?.has(Number(r.id)));
    const nodes = rows.map((r) => records.get(r.kind)!.get(Number(r.id))!);
    const cursors = () => rows.map((r) => encodeCursor(SIGNATURE, [r.occurred_at, r.kind, Number(r.id)]));
    const total = async () => (await totalsOnce()).get(parentId) ?? 0;
    if (paging.kind === 'offset') {
      result.set(parentId, { nodes, cursors, hasNextPage: more, hasPreviousPage: skip > 0, totalCount: total });
      continue;
    }
    const beyond = size === 0 ? async () => !values && (await total()) > 0 : more;
    const acrossParent = values ? async () => (await across()).has(parentId) : false;
    result.set(parentId, {
      nodes,
      cursors,
      hasNextPage: backward ? acrossParent : beyond,
      hasPreviousPage: backward ? beyond : acrossParent,
      totalCount: total,
    });
  }
  return result;
}

/**
 * `Deal.timeline` (and Person's, Company's): the page of one parent, batched with the other parents
 * resolved with the same arguments in this request (one statement for the page of all of them).
 * Cursors and totals are computed only when read.
 */
export function timelineOf(ctx: RequestContext, parent: TimelineParent, parentId: number, args: ConnectionArgs): Promise<Connection<object>> {
  const paging = pagingOf(args, TIMELINE_PAGE_SIZE);
  const loader = ctx.loaders.memo(
    `timeline:${parent}:${JSON.stringify(paging)}`,
    () =>
      new DataLoader<number, Connection<object>>(async (ids) => {
        const pages = await timelinePages(ctx, parent, ids, paging);
        return ids.map((id) => new Connection(pages.get(id)!));
      }),
  );
  return loader.load(parentId);
}
