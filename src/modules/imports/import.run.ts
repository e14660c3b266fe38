import { createInterface } from 'node:readline';
import { Readable, Transform } from 'node:stream';
import { parse } from 'csv-parse';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config/config';
import { logger } from '../../common/logger';
import { createContext } from '../../context/context';
import { NO_QUEUE } from '../../context/job-queue';
import { scopeOf } from '../common/resource';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { customFieldDefs } from '../custom-fields/custom-field.loaders';
import { FetchRefused } from '../documents/fetch/fetch-refused';
import { safeFetchStream, type SafeFetchOptions } from '../documents/fetch/safe-fetch';
import { bulkStorageKey, type DocumentStorage } from '../documents/storage';
import { viewerForUser } from '../users/user.viewer';
import { v3KeysOf } from '../../jobs/export-columns';
import { columnRules, fieldOfColumn, validateRow, type RowProblem, type RowSchema, type StagedRow } from './import.fields';
import { applyByRecord, recordKeyOf, recordRowOf } from './import.records';
import { IMPORT_TARGETS, ImportMode, knownFieldOf, type ImportKey, type ImportMatchKey, type ImportResource, type ImportTarget } from './import.targets';

/*
 * One import's run (the 'run-import' job). The row in `imports` holds everything: the worker claims
 * it with a lease (attempts is the claim's generation: every write of the run is guarded by it, so a
 * worker whose lease was taken over writes nothing more), then
 * 1. stages: streams the stored file, converts and checks each record (import.fields.ts), COPYs the
 *    good ones into `import_rows` and writes the refused ones to `import_errors`, a chunk per
 *    transaction together with `staged_through` (the last record number staged): a resumed run
 *    skips exactly those records;
 * 2. applies: batches of staged rows by record number, each ONE transaction that writes the
 *    records set-based (INSERT … SELECT, UPDATE … FROM) and advances `applied_through` and the
 *    counters. A dry run does the same inside a savepoint it rolls back.
 * Cancellation is read at every checkpoint.
 */

export interface ImportRunDeps {
  readonly orm: MikroORM;
  readonly storage: DocumentStorage;
  readonly config: Pick<Config, 'imports'>;
  readonly leaseSeconds: number;
  /** How a file named by URL is fetched: the document fetches' allow-list (documentFetchOptions); size and time are the import's. */
  readonly fetch?: SafeFetchOptions;
}

/** A fetched file's whole time, and its longest silence. */
const SOURCE_FETCH_TIMEOUT_MS = 30 * 60_000;
const SOURCE_IDLE_TIMEOUT_MS = 60_000;

export type ImportRunOutcome = { status: 'skipped' } | { status: 'done' | 'failed' | 'cancelled' | 'lost lease' | 'cut short'; importId: number };

interface ImportRow {
  id: number;
  account_id: number;
  user_id: number;
  resource: ImportResource;
  mode: ImportMode;
  match_by: ImportMatchKey | null;
  external_id_field: string | null;
  dry_run: boolean;
  format: 'csv' | 'jsonl';
  mapping: Array<{ column: string; field: string }> | null;
  storage_key: string | null;
  source_url: string | null;
  staged_through: number;
  staging_done: boolean;
  applied_through: number;
  rows_total: number | null;
  attempts: number;
}

/** A file-level problem: the import fails with this message. */
export class ImportFailure extends Error {}

/** Stops a run: its lease was taken over, or it was cancelled. */
class Stop extends Error {
  constructor(readonly why: 'lost lease' | 'cancelled' | 'cut short') {
    super(why);
  }
}

/** The key matching rows to records: a natural key, or the external id custom field. */
export function keyOf(target: ImportTarget, matchBy: ImportMatchKey | null, externalIdField: string | null): ImportKey {
  if (externalIdField) {
    return {
      field: externalIdField,
      of: (row) => {
        // Set-based rows carry the stored values (`custom`), record rows their input's (`input.customFields`).
        const custom = (row.custom ?? (row.input as { customFields?: unknown } | undefined)?.customFields) as Record<string, unknown> | undefined;
        const value = custom?.[externalIdField];
        return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? null : String(value).trim();
      },
      sql: (alias) => `(${alias}.custom_fields->>'${externalIdField.replace(/[^a-z0-9_]/g, '')}')`,
    };
  }
  const key = target.keys[matchBy ?? target.defaultKey];
  if (!key) throw new ImportFailure(`${matchBy} is not a key of ${target.resource}`);
  return key;
}

/** Strict UTF-8: a file in another encoding fails with a clear message instead of turning into replacement characters. */
function utf8(progress?: { bytes: number }): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        const text = decoder.decode(chunk, { stream: true });
        offset += chunk.length;
        if (progress) progress.bytes = offset;
        done(null, text);
      } catch {
        done(new ImportFailure(`the file is not UTF-8 text (an invalid byte within the first ${offset + chunk.length} bytes)`));
      }
    },
    flush(done) {
      try {
        done(null, decoder.decode());
      } catch {
        done(new ImportFailure('the file is not UTF-8 text (it ends inside a character)'));
      }
    },
  });
}

/**
 * One record of a file: the header (CSV), a row's cells by file column, or a row refused as it was
 * read (`problem`) with what could be read of it: its cells (a CSV row past the header keeps the
 * cells beyond it in `extra`), or a JSONL line that is no object as its text (`line`).
 */
export interface FileRecord {
  header?: string[];
  cells?: Array<[string, unknown]>;
  problem?: RowProblem;
  extra?: string[];
  line?: string;
}

/** The file's records as (file column → value) lists, the header first for CSV; `progress.bytes`: how much of the file was read (a little ahead of the records given). */
export async function* recordsOf(body: Readable, format: 'csv' | 'jsonl', maxColumns: number, progress?: { bytes: number }): AsyncGenerator<FileRecord> {
  const text = body.pipe(utf8(progress));
  body.on('error', (e) => text.destroy(e));
  if (format === 'csv') {
    const parser = text.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 16 * 1024 * 1024 }));
    text.on('error', (e) => parser.destroy(e));
    let header: string[] | null = null;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        if (!header) {
          header = record.map((h) => h.trim());
          if (header.length > maxColumns) throw new ImportFailure(`the file has ${header.length} columns (at most ${maxColumns})`);
          const seen = new Set<string>();
          for (const h of header) {
            if (h === '') throw new ImportFailure('the header has a blank column name');
            if (seen.has(h)) throw new ImportFailure(`the header names column "${h}" twice`);
            seen.add(h);
          }
          yield { header };
          continue;
        }
        if (record.length > header.length) {
          yield {
            problem: { column: null, code: 'INVALID', message: `the row has ${record.length} cells, the header ${header.length}` },
            cells: header.map((h, i) => [h, record[i]] as [string, unknown]),
            extra: record.slice(header.length),
          };
          continue;
        }
        yield { cells: header.map((h, i) => [h, record[i] ?? ''] as [string, unknown]) };
      }
    } catch (error) {
      if (error instanceof ImportFailure) throw error;
      const e = error as { code?: string; message?: string; lines?: number };
      if (e.code?.startsWith('CSV_')) throw new ImportFailure(`the CSV is malformed: ${e.message}`);
      throw error;
    }
    if (!header) throw new ImportFailure('the file is empty: a CSV file starts with a header row of field names');
    return;
  }
  const lines = createInterface({ input: text, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      yield { problem: { column: null, code: 'INVALID', message: 'the line is not valid JSON' }, line };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { problem: { column: null, code: 'INVALID', message: 'the line is not a JSON object' }, line };
      continue;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > maxColumns) {
      yield { problem: { column: null, code: 'INVALID', message: `the record has ${entries.length} fields (at most ${maxColumns})` }, cells: entries };
      continue;
    }
    yield { cells: entries };
  }
}

/** COPY text format: one line, tab-separated, backslashes doubled (JSON already escapes control characters). */
const copyLine = (importId: number, rowNumber: number, key: string | null, data: StagedRow) =>
  `${importId}\t${rowNumber}\t${key === null ? '\\N' : key.replace(/\\/g, '\\\\').replace(/[\t\n\r]/g, ' ')}\t${JSON.stringify(data).replace(/\\/g, '\\\\')}\n`;

interface Failed {
  readonly row: number;
  readonly column: string | null;
  readonly code: string;
  readonly message: string;
}

const insertErrors = async (client: PoolClient, importId: number, errors: readonly Failed[]) => {
  if (errors.length === 0) return;
  await client.query(
    `insert into import_errors (import_id, row_number, "column", code, message)
     select $1, e.r, e.c, e.k, e.m from jsonb_to_recordset($2::jsonb) as e(r int, c text, k text, m text)`,
    [importId, JSON.stringify(errors.map((e) => ({ r: e.row, c: e.column, k: e.code, m: e.message })))],
  );
};

/** `?` placeholders (Where) as `$n` from `start`. */
const numbered = (sql: string, start: number) => {
  let n = start;
  return sql.replace(/\?/g, () => `$${n++}`);
};

/** Runs (or resumes) import `importId`; idempotent: a run finding it final or leased by another skips. */
export async function runImport(deps: ImportRunDeps, importId: number, signal?: AbortSignal): Promise<ImportRunOutcome> {
  const conn = deps.orm.em.getConnection();
  const claimed = await conn.execute<ImportRow[]>(
    `update imports set state = 'running', started_at = coalesce(started_at, now()), attempts = attempts + 1,
       lease_until = now() + make_interval(secs => ?),
       pace_since = now(), pace_from = case when staging_done then applied_through else staged_through end
     where id = ? and state in ('queued', 'running') and (lease_until is null or lease_until <= now())
     returning *`,
    [deps.leaseSeconds, importId],
    'all',
  );
  const job = claimed[0];
  if (!job) return { status: 'skipped' };
  const knex = conn.getKnex();
  const client = (await knex.client.acquireConnection()) as PoolClient;
  const finish = async (state: 'done' | 'failed' | 'cancelled', failure: string | null) => {
    await client.query(
      `update imports set state = $3, failure = $4, finished_at = now(), lease_until = null where id = $1 and attempts = $2 and state = 'running'`,
      [importId, job.attempts, state, failure],
    );
    await client.query(`delete from import_rows where import_id = $1`, [importId]);
  };
  try {
    await client.query(`set statement_timeout = 0`);
    const cancelled = await client.query<{ cancel_requested: boolean }>(`select cancel_requested from imports where id = $1`, [importId]);
    if (cancelled.rows[0]?.cancel_requested) {
      await finish('cancelled', null);
      return { status: 'cancelled', importId };
    }
    const target = IMPORT_TARGETS[job.resource];
    if (!target) throw new ImportFailure(`${job.resource} cannot be imported yet`);
    const viewer = await viewerForUser(deps.orm.em.fork(), job.user_id);
    if (!viewer) throw new ImportFailure('the user who started the import no longer exists');
    const ctx = createContext(deps.orm, viewer, `import-${importId}`, { channel: 'import', jobs: NO_QUEUE });
    const customDefs = await customFieldDefs(ctx, target.customFields).load();
    const schema: RowSchema = {
      rules: columnRules(deps.orm, target.fields),
      customDefs,
      decimals: viewer.currency.decimals,
      maxCellChars: deps.config.imports.maxCellChars,
    };
    const key = job.mode === ImportMode.CREATE ? null : keyOf(target, job.match_by, job.external_id_field);

    /** Ends a checkpoint's transaction: advances the import when this run still holds it, else rolls back and stops. */
    const checkpoint = async (sql: string, params: unknown[]) => {
      const res = await client.query<{ cancel_requested: boolean }>(
        `update imports set ${sql}, lease_until = now() + make_interval(secs => $3) where id = $1 and attempts = $2 and state = 'running' returning cancel_requested`,
        [importId, job.attempts, deps.leaseSeconds, ...params],
      );
      if (res.rowCount !== 1) {
        await client.query('rollback');
        throw new Stop('lost lease');
      }
      await client.query('commit');
      if (res.rows[0].cancel_requested) throw new Stop('cancelled');
      if (signal?.aborted) throw new Stop('cut short');
    };

    // A PostgreSQL crash empties the UNLOGGED staging table: stage again from the last applied row.
    if (job.staged_through > job.applied_through) {
      const left = await client.query(`select 1 from import_rows where import_id = $1 and row_number > $2 limit 1`, [importId, job.applied_through]);
      const failedBeyond = await client.query(`select count(*)::int as n from import_errors where import_id = $1 and row_number > $2`, [
        importId,
        job.applied_through,
      ]);
      if (left.rowCount === 0 && failedBeyond.rows[0].n < job.staged_through - job.applied_through) {
        await client.query('begin');
        await client.query(`delete from import_errors where import_id = $1 and row_number > $2`, [importId, job.applied_through]);
        await checkpoint(
          `staged_through = applied_through, staging_done = false, rows_failed = rows_failed - $4, rows_processed = rows_processed - $4,
             pace_since = now(), pace_from = applied_through`,
          [failedBeyond.rows[0].n],
        );
        job.staged_through = job.applied_through;
        job.staging_done = false;
      }
    }

    if (!job.staging_done && !job.storage_key && job.source_url) job.storage_key = await fetchSource(deps, client, job, signal);
    if (!job.staging_done) await stage(deps, client, job, target, schema, key, checkpoint, viewer.timeZone);
    if (target.byRecord) {
      const mapping = job.mapping ? new Map(job.mapping.map((m) => [m.field, m.column])) : null;
      await applyByRecord({
        ctx,
        target,
        importId,
        accountId: job.account_id,
        mode: job.mode,
        dryRun: job.dry_run,
        key: await recordKeyOf(ctx, target, job.mode, job.match_by, job.external_id_field),
        from: job.applied_through,
        total: job.rows_total ?? 0,
        batchRows: deps.config.imports.batchRows,
        columnOf: (field) => mapping?.get(field) ?? field,
        checkpoint: async (em, through, n) => {
          const rows = await em.execute<Array<{ cancel_requested: boolean }>>(
            `update imports set applied_through = ?, rows_created = rows_created + ?, rows_updated = rows_updated + ?, rows_unchanged = rows_unchanged + ?,
               rows_failed = rows_failed + ?, rows_processed = rows_processed + ?, lease_until = now() + make_interval(secs => ?)
             where id = ? and attempts = ? and state = 'running' returning cancel_requested`,
            [through, n.created, n.updated, n.unchanged, n.failed, n.processed, deps.leaseSeconds, importId, job.attempts],
            'all',
          );
          return rows.length === 1 ? { cancelRequested: rows[0].cancel_requested } : null;
        },
        afterBatch: (checkpointed) => {
          if (!checkpointed) throw new Stop('lost lease');
          if (checkpointed.cancelRequested) throw new Stop('cancelled');
          if (signal?.aborted) throw new Stop('cut short');
        },
      });
    } else {
      const requiredCustom = customDefs.filter((d) => d.isRequired).map((d) => d.label);
      await apply(deps, client, job, target, viewer, key, checkpoint, ctx, requiredCustom);
    }
    await finish('done', null);
    return { status: 'done', importId };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    if (error instanceof Stop) {
      if (error.why === 'cancelled') await finish('cancelled', null);
      if (error.why === 'cut short') await client.query(`update imports set lease_until = null where id = $1 and attempts = $2`, [importId, job.attempts]);
      return { status: error.why, importId };
    }
    if (error instanceof ImportFailure) {
      await finish('failed', error.message);
      return { status: 'failed', importId };
    }
    logger.error('import failed', { importId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    await finish('failed', 'an internal error stopped the import').catch(() => undefined);
    return { status: 'failed', importId };
  } finally {
    await client.query(`set statement_timeout to default`).catch(() => undefined);
    await knex.client.releaseConnection(client);
  }
}

type Checkpoint = (sql: string, params: unknown[]) => Promise<void>;

/**
 * Fetches an import's file from its URL through the SSRF-safe fetcher (every hop's address
 * checked, the allow-list of document fetches), streamed into storage within IMPORT_MAX_BYTES, and
 * records where it is: a run killed before that fetches it again.
 */
async function fetchSource(deps: ImportRunDeps, client: PoolClient, job: ImportRow, signal: AbortSignal | undefined): Promise<string> {
  const key = bulkStorageKey('imports', job.account_id, job.id, job.format);
  let bytes = 0;
  try {
    await safeFetchStream(
      job.source_url!,
      {
        ...deps.fetch,
        maxBytes: deps.config.imports.maxBytes,
        timeoutMs: SOURCE_FETCH_TIMEOUT_MS,
        idleTimeoutMs: SOURCE_IDLE_TIMEOUT_MS,
        userAgent: 'crm-service import',
        signal,
      },
      async (body, maxBytes) => (bytes = await deps.storage.putStream(key, body, maxBytes)),
    );
  } catch (error) {
    if (!(error instanceof FetchRefused)) throw error;
    if (error.code === 'cancelled') throw new Stop('cut short');
    throw new ImportFailure(`the file could not be fetched from its URL: ${error.message}`);
  }
  const saved = await client.query(`update imports set storage_key = $3, file_bytes = $4 where id = $1 and attempts = $2 and state = 'running'`, [
    job.id,
    job.attempts,
    key,
    bytes,
  ]);
  if (saved.rowCount !== 1) {
    await deps.storage.delete(key).catch(() => undefined);
    throw new Stop('lost lease');
  }
  return key;
}

async function stage(
  deps: ImportRunDeps,
  client: PoolClient,
  job: ImportRow,
  target: ImportTarget,
  schema: RowSchema,
  key: ImportKey | null,
  checkpoint: Checkpoint,
  timeZone: string,
): Promise<void> {
  if (!job.storage_key) throw new ImportFailure('the file is not stored (the upload expired?)');
  const stored = await deps.storage.get(job.storage_key);
  if (!stored) throw new ImportFailure('the stored file is gone');
  const { maxRows, maxColumns, batchRows } = deps.config.imports;
  const mapping = job.mapping ? new Map(job.mapping.map((m) => [m.column, m.field])) : null;
  const exported = v3KeysOf(target.resource);
  const known = knownFieldOf(target, schema.rules, schema.customDefs);
  const convert = (cells: ReadonlyArray<readonly [string, string, unknown]>) =>
    target.byRecord ? recordRowOf(target, cells, timeZone, schema.maxCellChars) : validateRow(schema, cells);
  const fieldOf = (column: string) => fieldOfColumn(column, mapping, exported, known);
  const checkColumns = (columns: readonly string[]) => {
    for (const column of columns) {
      const field = fieldOf(column);
      if (field !== null && !known(field)) throw new ImportFailure(`column "${column}" is no field of ${target.resource}: ${field}`);
    }
  };
  let rowNumber = 0;
  let lines: string[] = [];
  let errors: Failed[] = [];
  let good = 0;
  const flush = async (last: boolean) => {
    await client.query('begin');
    if (lines.length > 0) {
      const copy = client.query(copyFrom(`copy import_rows (import_id, row_number, match_key, data) from stdin`));
      await pipeline(Readable.from([lines.join('')]), copy);
    }
    await insertErrors(client, job.id, errors);
    let duplicates = 0;
    if (last && key) {
      // A later row with the key of an earlier one is refused: a file names each record once.
      const dup = await client.query(
        `with later as (
           delete from import_rows r where r.import_id = $1
             and exists (select 1 from import_rows e where e.import_id = r.import_id and e.match_key = r.match_key and e.row_number < r.row_number)
           returning r.row_number)
         insert into import_errors (import_id, row_number, "column", code, message)
         select $1, row_number, $2, 'DUPLICATE', 'an earlier row of the file has the same ' || $2 from later`,
        [job.id, key.field],
      );
      duplicates = dup.rowCount ?? 0;
    }
    const failed = errors.length + duplicates;
    await checkpoint(
      `staged_through = $4, rows_staged = rows_staged + $5, rows_failed = rows_failed + $6, rows_processed = rows_processed + $6, staged_bytes = $7` +
        // Writing begins: its pace is measured from here (estimatedSecondsLeft).
        (last ? `, staging_done = true, rows_total = $4, pace_since = now(), pace_from = applied_through` : ''),
      [rowNumber, good - duplicates, failed, read.bytes],
    );
    lines = [];
    errors = [];
    good = 0;
  };
  let sawHeader = job.format === 'jsonl';
  const read = { bytes: 0 };
  try {
    await readRecords();
  } finally {
    stored.body.destroy();
  }
  if (!sawHeader) throw new ImportFailure('the file is empty');
  await flush(true);
  job.staging_done = true;
  job.rows_total = rowNumber;

  async function readRecords(): Promise<void> {
    for await (const item of recordsOf(stored!.body, job.format, maxColumns, read)) {
      if (item.header) {
        checkColumns(item.header);
        // A fetched file's header is first seen here (an upload's was checked at the start).
        for (const column of mapping?.keys() ?? []) if (!item.header.includes(column)) throw new ImportFailure(`the file has no column "${column}" (mapping)`);
        sawHeader = true;
        continue;
      }
      rowNumber += 1;
      if (rowNumber > maxRows) {
        throw new ImportFailure(`the file has more than ${maxRows} rows`);
      }
      if (rowNumber <= job.staged_through) continue;
      if (item.problem) errors.push({ row: rowNumber, ...item.problem });
      else {
        const cells: Array<[string, string, unknown]> = [];
        let unknown: string | null = null;
        for (const [column, value] of customFieldsSpread(item.cells ?? [])) {
          const field = fieldOf(column);
          if (field === null) continue;
          if (job.format === 'jsonl' && !known(field)) unknown ??= column;
          cells.push([field, column, value]);
        }
        const checked =
          unknown === null ? convert(cells) : { problems: [{ column: unknown, code: 'INVALID', message: `${unknown} is no field of ${target.resource}` }] };
        if ('problems' in checked) for (const p of checked.problems) errors.push({ row: rowNumber, ...p });
        else {
          const keyText = key ? key.of(checked.row) : null;
          if (key && keyText === null) errors.push({ row: rowNumber, column: key.field, code: 'BLANK', message: `${key.field} is needed to match a record` });
          else {
            lines.push(copyLine(job.id, rowNumber, keyText, checked.row));
            good += 1;
          }
        }
      }
      if (rowNumber % batchRows === 0) await flush(false);
    }
  }
}

/**
 * A JSONL record's `custom_fields` object (as an export writes it) as one cell per custom field
 * (`custom_label_N`), as a CSV gives them; anything else as it is.
 */
function customFieldsSpread(cells: ReadonlyArray<[string, unknown]>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [column, value] of cells) {
    if (column === 'custom_fields' && value !== null && typeof value === 'object' && !Array.isArray(value)) out.push(...Object.entries(value));
    else out.push([column, value]);
  }
  return out;
}

async function apply(
  deps: ImportRunDeps,
  client: PoolClient,
  job: ImportRow,
  target: ImportTarget,
  viewer: Parameters<typeof scopeOf>[0]['viewer'] & { userId: number; appId: number | null },
  key: ImportKey | null,
  checkpoint: Checkpoint,
  ctx: Parameters<typeof scopeOf>[0],
  requiredCustom: readonly string[],
): Promise<void> {
  const total = job.rows_total ?? 0;
  const rules = [...columnRules(deps.orm, target.fields).values()];
  const table = target.table;
  const visibility = scopeOf(ctx, target.records, 't');
  const companyVisibility = scopeOf(ctx, COMPANY_RECORDS, 'c');
  let from = job.applied_through;
  while (from < total) {
    const to = Math.min(total, from + deps.config.imports.batchRows);
    await client.query('begin');
    // No JIT: compiling a batch's statements (wide rows, ~50 columns each) costs more than running them.
    await client.query(
      `select set_config('crm.actor_user', $1, true), set_config('crm.actor_app', $2, true), set_config('crm.origin', 'import', true), set_config('jit', 'off', true)`,
      [String(viewer.userId), viewer.appId === null ? '' : String(viewer.appId)],
    );
    await client.query(
      `create temp table import_batch on commit drop as
       select s.row_number, s.match_key, s.data, null::int as match_id, 0 as match_count, null::int as owner_id, null::int as company_id
       from import_rows s where s.import_id = $1 and s.row_number > $2 and s.row_number <= $3`,
      [job.id, from, to],
    );
    const rowsInBatch = (await client.query<{ n: number }>(`select count(*)::int as n from import_batch`)).rows[0].n;
    const refuse = async (where: string, column: string | null, code: string, message: string, params: unknown[] = []) => {
      const res = await client.query(
        `with bad as (delete from import_batch b where ${where} returning b.row_number)
         insert into import_errors (import_id, row_number, "column", code, message) select $1, row_number, $2, $3, $4 from bad`,
        [job.id, column, code, message, ...params],
      );
      return res.rowCount ?? 0;
    };
    let failed = 0;
    if (key) {
      await client.query(
        `update import_batch b set match_id = m.id, match_count = m.n
         from (select b2.row_number, min(t.id) as id, count(*)::int as n from import_batch b2
               join "${table}" t on ${key.sql!('t')} = b2.match_key and ${numbered(visibility.sql, 1)}
               group by b2.row_number) m
         where m.row_number = b.row_number`,
        visibility.params,
      );
      failed += await refuse(`b.match_count > 1`, key.field, 'AMBIGUOUS_MATCH', `matches more than one record by ${key.field}`);
      if (job.mode === ImportMode.UPDATE) failed += await refuse(`b.match_id is null`, key.field, 'NOT_FOUND', `no record matches by ${key.field}`);
    }
    // Owners by email among the account's users.
    await client.query(`update import_batch b set owner_id = u.id from users u where u.account_id = $1 and lower(u.email) = lower(b.data->>'owner_email')`, [
      viewer.accountId,
    ]);
    failed += await refuse(`b.data ? 'owner_email' and b.owner_id is null`, 'owner_email', 'NOT_FOUND', 'no user of the account has this email');
    // New records lack no required field.
    for (const rule of rules.filter((r) => r.required)) {
      failed += await refuse(`b.match_id is null and not (b.data ? $5)`, rule.v3, 'BLANK', `${rule.v3} can't be blank`, [rule.column]);
    }
    // Nor a required custom field (as the API's create refuses it; an update keeps the value it has).
    for (const label of requiredCustom) {
      failed += await refuse(`b.match_id is null and coalesce(b.data->'custom'->>$5, '') = ''`, label, 'BLANK', `${label} can't be blank`, [label]);
    }
    await client.query('savepoint writes');
    // company_name: a visible company of that name (ignoring case), or a new one.
    if (target.extras.includes('company_name')) {
      const link = `update import_batch b set company_id = c.id
         from (select distinct on (lower(c.name)) c.id, lower(c.name) as lname from companies c
               where ${numbered(companyVisibility.sql, 1)} and lower(c.name) in (select lower(data->>'company_name') from import_batch where data ? 'company_name')
               order by lower(c.name), c.id) c
         where b.company_id is null and lower(b.data->>'company_name') = c.lname`;
      await client.query(link, companyVisibility.params);
      await client.query(
        `insert into companies (account_id, owner_id, name, created_at, updated_at)
         select distinct on (lower(b.data->>'company_name')) $1::int, $2::int, b.data->>'company_name', now(), now()
         from import_batch b where b.company_id is null and b.data ? 'company_name' order by lower(b.data->>'company_name'), b.row_number`,
        [viewer.accountId, viewer.userId],
      );
      await client.query(link, companyVisibility.params);
    }
    const columns = rules.map((r) => `"${r.column}"`);
    const created = await client.query(
      `insert into "${table}" (account_id, owner_id${target.companyColumn ? ', company_id' : ''}${target.createdByColumn ? ', created_by_id' : ''}, custom_fields, created_at, updated_at${columns.map((c) => `, ${c}`).join('')})
       select $1::int, coalesce(b.owner_id, $2::int)${target.companyColumn ? ', b.company_id' : ''}${target.createdByColumn ? ', $2::int' : ''}, coalesce(b.data->'custom', '{}'::jsonb), now(), now()${columns.map((c) => `, r.${c}`).join('')}
       from import_batch b cross join lateral jsonb_populate_record(null::"${table}", b.data) r
       where b.match_id is null order by b.row_number`,
      [viewer.accountId, viewer.userId],
    );
    let updated = 0;
    let matched = 0;
    if (key) {
      matched = (await client.query<{ n: number }>(`select count(*)::int as n from import_batch where match_id is not null`)).rows[0].n;
      const next = rules.map((r) => `case when b.data ? '${r.column}' then r."${r.column}" else t."${r.column}" end`);
      const extra = target.companyColumn ? ['owner_id', 'company_id', 'custom_fields'] : ['owner_id', 'custom_fields'];
      next.push(`coalesce(b.owner_id, t.owner_id)`);
      if (target.companyColumn) next.push(`coalesce(b.company_id, t.company_id)`);
      next.push(`t.custom_fields || coalesce(b.data->'custom', '{}'::jsonb)`);
      const current = [...rules.map((r) => `t."${r.column}"`), ...extra.map((c) => `t.${c}`)];
      const res = await client.query(
        // Only rows that change are updated: the version moves by one (its trigger then takes it as it is).
        `update "${table}" t set ${[...rules.map((r) => `"${r.column}"`), ...extra].map((c, i) => `${c} = ${next[i]}`).join(', ')}, updated_at = now(), lock_version = t.lock_version + 1
         from import_batch b cross join lateral jsonb_populate_record(null::"${table}", b.data) r
         where t.id = b.match_id and (${current.join(', ')}) is distinct from (${next.join(', ')})`,
      );
      updated = res.rowCount ?? 0;
    }
    if (job.dry_run) await client.query('rollback to savepoint writes');
    else await client.query('release savepoint writes');
    const createdCount = created.rowCount ?? 0;
    await checkpoint(
      `applied_through = $4, rows_created = rows_created + $5, rows_updated = rows_updated + $6, rows_unchanged = rows_unchanged + $7,
       rows_failed = rows_failed + $8, rows_processed = rows_processed + $9`,
      [to, createdCount, updated, matched - updated, failed, rowsInBatch],
    );
    from = to;
  }
}
