import { BadInputError, GoneError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { Visibility } from '../../context/viewer';
import { findNodes } from '../../graphql/node';
import { mayReadType } from '../../graphql/scopes';
import { ChangeAction, ChangeModel, typeNameOf, type ChangeRow } from './change.types';

/*
 * The change feed: an account's record_changes in the order they became visible.
 *
 * A change's id is taken when the record is written, not when its transaction commits, so reading
 * "after id N" could skip a change committed later with a smaller id. The feed reads by snapshot
 * instead: a cursor holds the snapshot of the read that made it, and the next read returns the
 * changes of the transactions that snapshot did not see as committed, in id order. Every change
 * becomes visible in exactly one read; two changes of one record were written under its row lock,
 * so the earlier one is committed first and comes first. A read larger than a page is paged within
 * its snapshot (`upto`, `last`) before the next snapshot is taken.
 */

/** Most changes a page holds, and how many it holds unless asked. */
export const CHANGES_MAX_PAGE = 200;
export const CHANGES_DEFAULT_PAGE = 100;
/** Most ids `recordIds` takes. */
export const CHANGES_MAX_RECORD_IDS = 100;

const SNAPSHOT = /^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20}){0,9999})?$/;
const MAX_CURSOR_LENGTH = 64_000;

/** Where a reader is: the snapshot of its last read, and within a larger read, that read's snapshot and the last id handed out. */
export interface Cursor {
  /** Null: nothing read yet (from the oldest change kept). */
  readonly seen: string | null;
  /** Set while paging one read: its snapshot and the last id handed out. */
  readonly paging: { readonly upto: string; readonly last: string } | null;
}

const START: Cursor = { seen: null, paging: null };

/** The cursor as text: base64url of a JSON array tagged `chg` (the connections' cursors are JSON arrays too). */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(['chg', cursor.seen, cursor.paging?.upto ?? null, cursor.paging?.last ?? null]), 'utf8').toString('base64url');
}

/** A cursor this feed issued, or a BAD_USER_INPUT naming `argument`. */
export function decodeCursor(raw: string | null | undefined, argument: string): Cursor {
  if (raw === null || raw === undefined || raw === '') return START;
  const bad = () => new BadInputError(argument, 'is not a cursor of this feed (pass the endCursor or next_cursor a read gave)');
  if (typeof raw !== 'string' || raw.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) throw bad();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parts) || parts.length !== 4 || parts[0] !== 'chg') throw bad();
  const [, seen, upto, last] = parts as unknown[];
  const snapshot = (v: unknown): v is string => typeof v === 'string' && SNAPSHOT.test(v);
  if (seen !== null && !snapshot(seen)) throw bad();
  if (upto === null && last === null) return { seen: seen as string | null, paging: null };
  if (!snapshot(upto) || typeof last !== 'string' || !/^[1-9]\d{0,17}$/.test(last)) throw bad();
  return { seen: seen as string | null, paging: { upto, last } };
}

export interface ChangeFilter {
  readonly models?: readonly ChangeModel[] | null;
  readonly actions?: readonly ChangeAction[] | null;
  readonly recordIds?: readonly number[] | null;
}

export interface ChangePage {
  /** Each with the cursor just after it. */
  readonly changes: Array<{ readonly row: ChangeRow; readonly cursor: string }>;
  readonly endCursor: string;
  readonly hasNextPage: boolean;
}

const COLUMNS = `rc.id::text as id, rc.account_id, rc.model, rc.action, rc.record_id, rc.actor_kind, rc.actor_user_id, rc.actor_app_id, rc.origin, rc.changes, rc.record, rc.occurred_at`;

type Row = ChangeRow & { readonly snap: string };

/** Where a read of change rows got to: the rows (each with the cursor just after it), the cursor after them, and whether more were there. */
export interface ChangeRows {
  readonly rows: Array<{ readonly row: ChangeRow; readonly cursor: string }>;
  readonly next: Cursor;
  readonly more: boolean;
}

type Execute = <T>(sql: string, params: unknown[], method: 'all') => Promise<T>;

/**
 * The change rows after `cursor` that match `where` (conditions on `rc`, with their `params`), at
 * most `first`, in the order the feed reads them (see the top of this file). The feed and the
 * webhook dispatcher read through it.
 */
export async function changeRows(
  em: { execute: Execute },
  cursor: Cursor,
  first: number,
  where: readonly string[],
  params: readonly unknown[],
): Promise<ChangeRows> {
  // Not seen by the last read: every transaction older than its xmin was.
  const unseen = (seen: string | null): { sql: string; params: unknown[] } =>
    seen === null
      ? { sql: '', params: [] }
      : { sql: ' and rc.tx >= pg_snapshot_xmin(?::pg_snapshot) and not pg_visible_in_snapshot(rc.tx, ?::pg_snapshot)', params: [seen, seen] };

  const rows: Array<{ row: ChangeRow; cursor: string }> = [];
  /** The cursor just after `row`, read from the snapshot `upto` of a read that started after `seen`. */
  const at = (row: ChangeRow, seen: string | null, upto: string) => ({ row, cursor: encodeCursor({ seen, paging: { upto, last: row.id } }) });
  let next: Cursor = cursor;
  let more = false;
  // Finish the read being paged, then take a new snapshot (for the rest of the page, or to learn whether more came).
  if (cursor.paging) {
    const u = unseen(cursor.seen);
    const found = await em.execute<Row[]>(
      `select ${COLUMNS}, '' as snap from record_changes rc where ${where.length ? where.join(' and ') : 'true'}${u.sql} and pg_visible_in_snapshot(rc.tx, ?::pg_snapshot) and rc.id > ?::bigint order by rc.id limit ?`,
      [...params, ...u.params, cursor.paging.upto, cursor.paging.last, first + 1],
      'all',
    );
    const paging = cursor.paging;
    if (found.length > first) {
      rows.push(...found.slice(0, first).map((row) => at(row, cursor.seen, paging.upto)));
      next = { seen: cursor.seen, paging: { upto: cursor.paging.upto, last: found[first - 1].id } };
      more = true;
    } else {
      rows.push(...found.map((row) => at(row, cursor.seen, paging.upto)));
      next = { seen: cursor.paging.upto, paging: null };
    }
  }
  const room = first - rows.length;
  if (!more) {
    const u = unseen(next.seen);
    const found = await em.execute<Array<Row | { snap: string; id: null }>>(
      `select r.*, s.snap from (select pg_current_snapshot()::text as snap) s
         left join lateral (select ${COLUMNS} from record_changes rc where ${where.length ? where.join(' and ') : 'true'}${u.sql} order by rc.id limit ?) r on true`,
      [...params, ...u.params, room + 1],
      'all',
    );
    const snap = found[0].snap;
    const changes = found.filter((r): r is Row => r.id !== null);
    const seen = next.seen;
    if (changes.length > room) {
      if (room > 0) rows.push(...changes.slice(0, room).map((row) => at(row, seen, snap)));
      const last = room > 0 ? changes[room - 1].id : null;
      next = last === null ? next : { seen: next.seen, paging: { upto: snap, last } };
      more = true;
    } else {
      rows.push(...changes.map((row) => at(row, seen, snap)));
      next = { seen: snap, paging: null };
    }
  }
  // The driver leaves timestamps as text here.
  return { rows: rows.map(({ row, cursor: after }) => ({ row: { ...row, occurred_at: new Date(row.occurred_at) }, cursor: after })), next, more };
}

/**
 * One page of the viewer's changes after `cursor`: at most `first`, of records they may see (a
 * change of a record they may not see is skipped, so a page may hold fewer). A cursor older than
 * what is kept answers GONE: read the lists again, then the feed from a fresh start.
 */
export async function readChanges(
  ctx: RequestContext,
  rawCursor: string | null | undefined,
  first: number,
  filter: ChangeFilter,
  argument: string,
): Promise<ChangePage> {
  const cursor = decodeCursor(rawCursor, argument);
  await refuseExpired(ctx, cursor, argument);
  const where: string[] = ['rc.account_id = ?'];
  const params: unknown[] = [ctx.viewer.accountId];
  const narrow = (sql: string, values: readonly unknown[] | null | undefined) => {
    if (!values?.length) return;
    where.push(sql);
    // The driver writes an array parameter as a list: `in (?)` takes it.
    params.push([...values]);
  };
  narrow('rc.model in (?)', filter.models);
  narrow('rc.action in (?)', filter.actions);
  narrow('rc.record_id in (?)', filter.recordIds);
  // A scoped API key sees the changes of the kinds of record it may read, and no others (issue 26 §3).
  const scopes = ctx.viewer.scopes;
  if (scopes !== null) {
    const readable = Object.values(ChangeModel).filter((model) => mayReadType(scopes, typeNameOf(model)));
    if (readable.length === 0) where.push('false');
    else narrow('rc.model in (?)', readable);
  }
  const { rows: read, next, more } = await changeRows(ctx.em as never, cursor, first, where, params);
  const shown = new Set(
    await visibleTo(
      ctx,
      read.map((r) => r.row),
    ),
  );
  return { changes: read.filter((r) => shown.has(r.row)), endCursor: encodeCursor(next), hasNextPage: more };
}

/** A cursor that may have missed changes since pruned (CHANGES_RETENTION_DAYS) is GONE. */
async function refuseExpired(ctx: RequestContext, cursor: Cursor, argument: string): Promise<void> {
  if (cursor.seen === null && cursor.paging === null) return;
  const [horizon] = await ctx.em.execute<Array<{ max_tx: string; max_id: string }>>(`select max_tx::text, max_id::text from record_changes_pruned`, [], 'all');
  if (!horizon) return;
  const gone = cursor.seen !== null ? BigInt(cursor.seen.split(':')[0]) <= BigInt(horizon.max_tx) : BigInt(cursor.paging!.last) < BigInt(horizon.max_id);
  if (gone) {
    throw new GoneError(
      'The changes after this cursor are no longer kept: read the lists again for the current records, then the feed from its start (no cursor).',
      argument,
    );
  }
}

/**
 * The changes the viewer may see: those of records they may see now; for a record gone since, the
 * changes shown to those who could see it when it was deleted (its tombstone's rule).
 */
export async function visibleTo(ctx: RequestContext, rows: readonly ChangeRow[]): Promise<ChangeRow[]> {
  if (rows.length === 0) return [];
  const byModel = new Map<ChangeModel, Set<number>>();
  for (const row of rows)
    if (row.action !== ChangeAction.DESTROY) (byModel.get(row.model) ?? byModel.set(row.model, new Set()).get(row.model)!).add(row.record_id);
  const visible = new Set<string>();
  const missing: Array<{ model: ChangeModel; id: number }> = [];
  for (const [model, ids] of byModel) {
    const list = [...ids];
    const found = (await findNodes(ctx, typeNameOf(model), list)) ?? [];
    list.forEach((id, i) => (found[i] ? visible.add(`${model}:${id}`) : missing.push({ model, id })));
  }
  // Gone since (or hidden): their tombstone decides.
  const tombstones = new Map<string, Record<string, unknown>>();
  for (const row of rows) if (row.action === ChangeAction.DESTROY && row.record) tombstones.set(`${row.model}:${row.record_id}`, row.record);
  const unknown = missing.filter((m) => !tombstones.has(`${m.model}:${m.id}`));
  if (unknown.length > 0) {
    const found = await ctx.em.execute<Array<{ model: ChangeModel; record_id: number; record: Record<string, unknown> }>>(
      `select distinct on (model, record_id) model, record_id, record from record_changes
        where account_id = ? and action = 'destroy' and (model, record_id) in (select m, r from jsonb_to_recordset(?::jsonb) as x(m text, r int))
        order by model, record_id, id desc`,
      [ctx.viewer.accountId, JSON.stringify(unknown.map((m) => ({ m: m.model, r: m.id })))],
      'all',
    );
    for (const t of found) tombstones.set(`${t.model}:${t.record_id}`, t.record);
  }
  const shownTombstones = await tombstonesShown(ctx, tombstones);
  return rows.filter((row) => {
    const key = `${row.model}:${row.record_id}`;
    return row.action !== ChangeAction.DESTROY && visible.has(key) ? true : shownTombstones.has(key);
  });
}

/** The links of a tombstone whose record, visible now, shows it: a note's deal, a comment's note. */
const LINKS: ReadonlyArray<{ readonly column: string; readonly type: string }> = [
  { column: 'deal_id', type: 'Deal' },
  { column: 'person_id', type: 'Person' },
  { column: 'company_id', type: 'Company' },
  { column: 'note_id', type: 'Note' },
];

/**
 * Who sees a tombstone: as who could see the record (the rules of the `*.visibility.ts` files,
 * judged on the row as it was): admins every one, except that an account notification is its
 * user's and the admins'; users with `all` visibility every other one; the others those of
 * records they owned or wrote, and of records about a deal, person, company or note they may see
 * now. A deal shared with a user (a collaborator) and deleted is not shown to that user: the share
 * went with the deal.
 */
async function tombstonesShown(ctx: RequestContext, tombstones: ReadonlyMap<string, Record<string, unknown>>): Promise<Set<string>> {
  const shown = new Set<string>();
  const viewer = ctx.viewer;
  const pending: Array<[string, Record<string, unknown>]> = [];
  for (const [key, record] of tombstones) {
    const own = record.owner_id === viewer.userId || record.user_id === viewer.userId;
    if (key.startsWith(`${ChangeModel.ACCOUNT_NOTIFICATION}:`)) {
      if (viewer.isAdmin || record.user_id === viewer.userId) shown.add(key);
    } else if (viewer.isAdmin || viewer.visibility === Visibility.ALL || own) shown.add(key);
    else pending.push([key, record]);
  }
  if (pending.length === 0) return shown;
  const visibleLinks = new Set<string>();
  for (const { column, type } of LINKS) {
    const ids = [...new Set(pending.map(([, r]) => r[column]).filter((v): v is number => typeof v === 'number'))];
    if (ids.length === 0) continue;
    const found = (await findNodes(ctx, type, ids)) ?? [];
    ids.forEach((id, i) => found[i] && visibleLinks.add(`${column}:${id}`));
  }
  for (const [key, record] of pending) if (LINKS.some(({ column }) => visibleLinks.has(`${column}:${String(record[column])}`))) shown.add(key);
  return shown;
}

/** Changes older than `days` are removed, `batch` at a time (the sweep calls it); what was removed moves the horizon cursors are checked against. */
export async function pruneChanges(em: { execute: RequestContext['em']['execute'] }, days: number, batch: number): Promise<number> {
  const [done] = await em.execute<Array<{ removed: number }>>(
    `with gone as (
       delete from record_changes where id in (select id from record_changes where occurred_at < now() - make_interval(days => ?) order by id limit ?)
       returning id, tx
     ), horizon as (
       insert into record_changes_pruned (singleton, max_tx, max_id)
       select true, max(tx::text::bigint), max(id) from gone having count(*) > 0
       on conflict (singleton) do update set max_tx = greatest(record_changes_pruned.max_tx, excluded.max_tx), max_id = greatest(record_changes_pruned.max_id, excluded.max_id)
     )
     select count(*)::int as removed from gone`,
    [days, batch],
    'all',
  );
  return done.removed;
}
