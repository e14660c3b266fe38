import { orderSql } from '../../db/keyset';
import type { EntityManager } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Knex } from 'knex';
import { logger } from '../../common/logger';
import { createContext, type RequestContext } from '../../context/context';
import { bulkStorageKey, discardStoredBytes, type DocumentStorage } from '../documents/storage';
import { newPublicToken } from '../documents/document.public-link';
import { encodeCursor } from '../changes/change-feed';
import { BulkFormat } from '../common/bulk';
import { fromOf } from '../common/resource';
import type { Where } from '../../db/sql';
import { viewerFor } from '../users/user.viewer';
import { EXPORT_SOURCES, type ExportSource } from './export.resources';
import { readFilter, type ExportRow } from './export.service';

/**
 * How an export's records are written: the select list its cursor reads, the CSV header, and
 * each row as CSV cells and as a JSONL record. Built by the worker from the v3 field tables
 * (src/jobs/export-columns.ts): the names are the v3 facade's.
 * `cells` answers cells to quote, or one string of cells already quoted by the statement
 * (`{ raw }`, the plain text and numbers of a CSV, joined in SQL: far cheaper than one value each).
 */
export interface ExportWriterPlan {
  readonly select: string;
  readonly header: readonly string[];
  cells(row: Record<string, unknown>): ReadonlyArray<unknown | { readonly raw: string }>;
  record(row: Record<string, unknown>): Record<string, unknown>;
}

export interface ExportRunDeps {
  readonly orm: MikroORM;
  readonly storage: DocumentStorage;
  /** How long a claimed export is left to its worker before another may start it again (the job lock's lifetime). */
  readonly leaseSeconds: number;
  readonly maxRows: number;
  readonly linkTtlHours: number;
  /** Claims after which an export whose workers all died fails. */
  readonly maxAttempts: number;
  /** Rows read per statement. */
  readonly batchSize?: number;
  plan(source: ExportSource, ctx: RequestContext, format: BulkFormat): Promise<ExportWriterPlan>;
}

export type ExportOutcome =
  | { readonly status: 'done'; readonly rows: number; readonly bytes: number; readonly seconds: number }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'cancelled' }
  | { readonly status: 'skipped' };

const AS_JOB = `(select set_config('crm.origin', 'job', true)) as job_origin`;
const UNFINISHED = `"state" in ('queued', 'running')`;
const CLAIMABLE = `${UNFINISHED} and not "cancel_requested" and ("lease_until" is null or "lease_until" <= now())`;

class Stopped extends Error {
  constructor(readonly why: 'cancelled' | 'lost' | 'aborted') {
    super(why);
  }
}

class TooManyRows extends Error {}

/** RFC 4180: a cell with a comma, quote or line break is quoted, quotes doubled. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'raw' in value && typeof value.raw === 'string') return value.raw;
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly unknown[]): string => cells.map(csvCell).join(',') + '\r\n';

/**
 * Runs one export (idempotent; a re-run after a killed worker starts over and writes a new file):
 *
 * 1. Claim: a conditional UPDATE (unfinished, not cancelled, no live lease, attempts left) sets a
 *    lease and counts the attempt, outside any transaction: two workers cannot both run it.
 * 2. Act as the user who started it: their viewer (with the scopes of the key they used), so the
 *    rows are exactly what their list shows with that filter (the resource's filter SQL and
 *    visibility, export.resources.ts).
 * 3. Snapshot: one REPEATABLE READ READ ONLY transaction. Its first statement reads
 *    `pg_current_snapshot()`, the transaction's snapshot, which becomes the change-feed cursor
 *    (change-feed.ts reads by snapshot, not by id, so changes of transactions in flight at the
 *    snapshot, whose ids are smaller but commit later, are read after the cursor, and nothing the
 *    file holds is). The count and every batch read the same snapshot.
 * 4. Stream: batches fetched from a cursor in the export's order (by id unless `orderBy` was given)
 *    written to storage as they are read;
 *    between batches the progress is recorded, the lease renewed, and a cancel noticed (on another
 *    connection: the snapshot's transaction only reads).
 * 5. Record: DONE with the file, a fresh download token (its SHA-256 looked up) and its expiry,
 *    guarded by the claim; a file no longer wanted (cancelled, claim lost) is discarded.
 */
export async function runExport(deps: ExportRunDeps, exportId: number, signal?: AbortSignal): Promise<ExportOutcome> {
  if (!Number.isSafeInteger(exportId) || exportId <= 0 || exportId > 2_147_483_647) return { status: 'skipped' };
  const conn = deps.orm.em.getConnection();
  const [claimed] = await conn.execute<ExportRow[]>(
    `update "exports" set "state" = 'running', "attempts" = "attempts" + 1, "lease_until" = now() + make_interval(secs => ?), "started_at" = now(), "rows_exported" = 0
       where "id" = ? and ${CLAIMABLE} and "attempts" < ? returning *`,
    [deps.leaseSeconds, exportId, deps.maxAttempts],
    'all',
  );
  if (!claimed) return giveUpIfExhausted(deps, exportId);
  const guard = `"id" = ? and "attempts" = ? and "state" = 'running' and not "cancel_requested"`;
  const guardParams = [exportId, claimed.attempts];
  const fail = async (reason: string): Promise<ExportOutcome> => {
    await conn.execute(
      `update "exports" set "state" = 'failed', "failure" = ?, "finished_at" = now(), "lease_until" = null where ${guard}`,
      [reason, ...guardParams],
      'run',
    );
    return { status: 'failed', reason };
  };

  const viewer = await viewerFor(deps.orm.em.fork(), { userId: claimed.user_id });
  if (!viewer || viewer.accountId !== claimed.account_id) return fail('the user who started the export no longer exists');
  const ctx = createContext(deps.orm, { ...viewer, scopes: claimed.scopes }, `export:${exportId}`, { channel: 'job' });
  const source = EXPORT_SOURCES[claimed.resource];
  if (!source) return fail(`unknown resource ${claimed.resource}`);
  let where: Where;
  try {
    where = await source.where(ctx, readFilter(claimed.filter));
  } catch (error) {
    // Checked when the export started; a custom field deleted since may make it fail now.
    return fail(`the filter cannot run: ${error instanceof Error ? error.message : String(error)}`);
  }
  const format = claimed.format;
  const plan = await deps.plan(source, ctx, format);
  const key = bulkStorageKey('exports', claimed.account_id, exportId, format === BulkFormat.JSONL ? 'jsonl' : 'csv');
  const batchSize = deps.batchSize ?? 5000;
  const alias = source.records.alias;
  const from = fromOf(ctx, source.records);
  const started = Date.now();
  let cursor: string | null = null;
  let written = 0;

  const knex = conn.getKnex();
  let bytes = 0;
  try {
    await knex.transaction(async (trx: Knex.Transaction) => {
      await trx.raw('set transaction isolation level repeatable read, read only');
      // Not the API's per-statement limit (a count of millions of rows takes a while), but still a bound.
      await trx.raw(`set local statement_timeout = '10min'`);
      const snap = await trx.raw<{ rows: Array<{ snap: string }> }>('select pg_current_snapshot()::text as snap');
      cursor = encodeCursor({ seen: snap.rows[0].snap, paging: null });
      const counted = await trx.raw<{ rows: Array<{ n: string }> }>(`select count(*) as n from ${from} where ${where.sql}`, where.params as Knex.RawBinding[]);
      const total = Number(counted.rows[0].n);
      if (total > deps.maxRows)
        throw new TooManyRows(`the export holds ${total} records, more than the ${deps.maxRows} an export may (EXPORT_MAX_ROWS): narrow the filter`);
      await progress(total, 0);

      // A cursor over the snapshot in the export's order (the list's keys, ties by id): PostgreSQL
      // sorts once, batches are fetched from it.
      const keys = claimed.order_by ? source.fields.orderKeys(deps.orm.em, claimed.order_by) : [];
      const order = orderSql([...keys, { sql: `${alias}.id`, desc: false, nullable: false, type: 'int' }]);
      await trx.raw(
        `declare export_rows no scroll cursor for select ${plan.select} from ${from} where ${where.sql} order by ${order}`,
        where.params as Knex.RawBinding[],
      );
      // A promise, run once: a knex builder runs its statement again at every `then`, and each FETCH moves the cursor.
      const read = (): Promise<{ rows: Array<Record<string, unknown>> }> =>
        Promise.resolve(trx.raw<{ rows: Array<Record<string, unknown>> }>(`fetch forward ${Math.trunc(batchSize)} from export_rows`));
      async function* lines(): AsyncGenerator<Buffer> {
        if (format === BulkFormat.CSV) yield Buffer.from(csvLine(plan.header), 'utf8');
        let pending: ReturnType<typeof read> | null = read();
        while (pending) {
          if (signal?.aborted) throw new Stopped('aborted');
          const rows: Array<Record<string, unknown>> = (await pending).rows;
          if (rows.length === 0) return;
          // The next batch is read by the database while this one is formatted.
          pending = rows.length < batchSize ? null : read();
          // An unread statement left behind on a failure would fail the transaction's end loudly; it is awaited and ignored.
          pending?.catch(() => undefined);
          let out = '';
          if (format === BulkFormat.CSV) for (const row of rows) out += csvLine(plan.cells(row));
          else for (const row of rows) out += JSON.stringify(plan.record(row)) + '\n';
          written += rows.length;
          yield Buffer.from(out, 'utf8');
          await progress(total, written);
        }
      }
      bytes = await deps.storage.putStream(key, lines());
    });
  } catch (error) {
    if (error instanceof TooManyRows) return fail(error.message);
    if (error instanceof Stopped) {
      if (error.why === 'aborted') {
        // The worker is shutting down: the claim is given back, due again at once.
        await conn.execute(`update "exports" set "lease_until" = null, "attempts" = "attempts" - 1 where ${guard}`, guardParams, 'run');
        return { status: 'skipped' };
      }
      return error.why === 'cancelled' ? { status: 'cancelled' } : { status: 'skipped' };
    }
    logger.error('an export failed', { exportId, error: error instanceof Error ? error.message : String(error) });
    return fail('the export could not be written');
  }

  const { token, digest } = newPublicToken();
  const recorded = await conn.execute<Array<{ id: number }>>(
    `update "exports" set "state" = 'done', "storage_key" = ?, "download_token" = ?, "download_token_digest" = ?, "changes_cursor" = ?,
       "rows_total" = ?, "rows_exported" = ?, "finished_at" = now(), "expires_at" = now() + make_interval(secs => ?), "lease_until" = null
       from ${AS_JOB} where ${guard} returning "id"`,
    [key, token, digest, cursor, written, written, deps.linkTtlHours * 3600, ...guardParams],
    'all',
  );
  if (recorded.length === 0) {
    await discardStoredBytes(deps.storage, key, 'an export no longer wanted');
    return { status: 'skipped' };
  }
  return { status: 'done', rows: written, bytes, seconds: (Date.now() - started) / 1000 };

  /** Progress, the lease renewed, and a cancel or a lost claim noticed: between batches, on a connection of its own. */
  async function progress(total: number, rows: number): Promise<void> {
    const updated = await conn.execute<Array<{ id: number }>>(
      `update "exports" set "rows_total" = ?, "rows_exported" = ?, "lease_until" = now() + make_interval(secs => ?) where ${guard} returning "id"`,
      [total, rows, deps.leaseSeconds, ...guardParams],
      'all',
    );
    if (updated.length > 0) return;
    const [now] = await conn.execute<Array<{ cancel_requested: boolean }>>(`select "cancel_requested" from "exports" where "id" = ?`, [exportId], 'all');
    throw new Stopped(now?.cancel_requested ? 'cancelled' : 'lost');
  }
}

/** The claim failed: an unfinished, unclaimed export whose claims are used up (each worker died) fails. */
async function giveUpIfExhausted(deps: ExportRunDeps, exportId: number): Promise<ExportOutcome> {
  const reason = `the export did not finish (tried ${deps.maxAttempts} time${deps.maxAttempts === 1 ? '' : 's'})`;
  const ended = await deps.orm.em
    .getConnection()
    .execute<Array<{ id: number }>>(
      `update "exports" set "state" = 'failed', "failure" = ?, "finished_at" = now(), "lease_until" = null where "id" = ? and ${CLAIMABLE} and "attempts" >= ? returning "id"`,
      [reason, exportId, deps.maxAttempts],
      'all',
    );
  return ended.length > 0 ? { status: 'failed', reason } : { status: 'skipped' };
}

/** Exports unfinished and unclaimed (queued, or a dead worker's): what the sweep enqueues. */
export async function dueExportIds(em: Pick<EntityManager, 'getConnection'>, limit = 100): Promise<number[]> {
  const rows = await em.getConnection().execute<Array<{ id: number }>>(`select "id" from "exports" where ${CLAIMABLE} order by "id" limit ?`, [limit], 'all');
  return rows.map((r: { id: number }) => Number(r.id));
}

/**
 * Files past their expiry, and those of cancelled or failed exports, removed, at most `limit`:
 * the row stays (its link answers 404), without its file.
 */
export async function removeExpiredExports(em: Pick<EntityManager, 'getConnection'>, storage: DocumentStorage, limit = 500): Promise<number> {
  const rows = await em.getConnection().execute<Array<{ storage_key: string }>>(
    `with gone as (select "id", "storage_key" from "exports" where "storage_key" is not null and "expires_at" <= now() order by "expires_at" limit ? for update skip locked)
     update "exports" e set "storage_key" = null, "download_token" = null, "download_token_digest" = null from gone where e."id" = gone."id"
     returning gone."storage_key"`,
    [limit],
    'all',
  );
  for (const row of rows) await discardStoredBytes(storage, row.storage_key, 'an expired export');
  return rows.length;
}
