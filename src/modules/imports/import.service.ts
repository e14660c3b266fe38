import type { EntityManager } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { enqueueAfterCommit } from '../../context/context';
import { mutation } from '../../context/transaction';
import { isValidId } from '../../graphql/ids';
import { ScopeMissingError } from '../../common/errors';
import { grants } from '../../graphql/scopes';
import { BulkFormat } from '../common/bulk';
import { customFieldDefs } from '../custom-fields/custom-field.loaders';
import { checkFetchTarget } from '../documents/fetch/fetch-target';
import { bulkStorageKey, documentStorage, type DocumentStorage } from '../documents/storage';
import type { Viewer } from '../../context/viewer';
import { columnRules, fieldOfColumn } from './import.fields';
import { IMPORT_TARGETS, ImportMode, knownFieldOf, type ImportMatchKey, type ImportResource } from './import.targets';
import { v3KeysOf } from '../../jobs/export-columns';

/** How long an upload waits to be imported. */
export const UPLOAD_TTL_HOURS = 24;
/** Mapping entries at most. */
export const MAX_MAPPING = 500;

export interface ImportRecord {
  id: number;
  account_id: number;
  user_id: number;
  resource: ImportResource;
  mode: ImportMode;
  dry_run: boolean;
  format: BulkFormat;
  state: string;
  rows_total: number | null;
  rows_processed: number;
  rows_created: number;
  rows_updated: number;
  rows_unchanged: number;
  rows_failed: number;
  failure: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  storage_key: string | null;
  header: string[] | null;
  staging_done: boolean;
  staged_through: number;
  applied_through: number;
  /** bigint, as text. */
  file_bytes: string | null;
  staged_bytes: string;
  /** When the current phase (reading, then writing) of the current run began; null for imports from before it was kept. */
  pace_since: Date | null;
  /** Rows of that phase (staged, then applied) done when it began. */
  pace_from: number;
}

/** Stores an upload's bytes (streamed, bounded) and answers its id and size. */
export async function createUpload(
  em: EntityManager,
  storage: DocumentStorage,
  viewer: Viewer,
  body: Readable,
  format: BulkFormat,
  maxBytes: number,
): Promise<{ id: number; bytes: number }> {
  const conn = em.getConnection();
  const [row] = await conn.execute<Array<{ id: number }>>(
    `insert into import_uploads (account_id, user_id, api_key_id, storage_key, format, bytes, created_at, expires_at)
     values (?, ?, ?, '', ?, 0, now(), now() + make_interval(hours => ?)) returning id`,
    [viewer.accountId, viewer.userId, viewer.apiKeyId, format, UPLOAD_TTL_HOURS],
    'all',
  );
  const key = bulkStorageKey('imports', viewer.accountId, row.id, format);
  try {
    const bytes = await storage.putStream(key, body, maxBytes);
    await conn.execute(`update import_uploads set storage_key = ?, bytes = ? where id = ?`, [key, bytes, row.id], 'run');
    return { id: row.id, bytes };
  } catch (error) {
    await conn.execute(`delete from import_uploads where id = ?`, [row.id], 'run');
    throw error;
  }
}

/** The first record of a stored CSV file (its header), or null when it has none readable. */
async function headerOf(storageKey: string): Promise<string[] | null> {
  const stored = await documentStorage()?.get(storageKey);
  if (!stored) return null;
  const parser = stored.body.pipe(parse({ bom: true, to_line: 1, relax_column_count: true, max_record_size: 1024 * 1024 }));
  try {
    for await (const record of parser as AsyncIterable<string[]>) return record.map((h) => h.trim());
    return null;
  } catch {
    return null;
  } finally {
    stored.body.destroy();
  }
}

export interface StartImportArgs {
  resource: ImportResource;
  uploadId?: string | null;
  url?: string | null;
  format?: BulkFormat | null;
  mapping?: Array<{ column: string; field: string }> | null;
  mode: ImportMode;
  matchBy?: ImportMatchKey | null;
  externalIdField?: string | null;
  dryRun?: boolean | null;
}

/** A fetched file's format when the start names none: JSONL when its path ends in .jsonl or .ndjson, else CSV. */
const formatOfUrl = (url: string): BulkFormat => (/\.(?:jsonl|ndjson)$/i.test(new URL(url).pathname) ? BulkFormat.JSONL : BulkFormat.CSV);

/** Checks a start and records the import (queued); its job is enqueued after the commit. */
export async function startImport(ctx: RequestContext, input: StartImportArgs): Promise<ImportRecord> {
  const target = IMPORT_TARGETS[input.resource];
  const issues = new Issues();
  if (!grants(ctx.viewer.scopes, `${input.resource}:write`)) throw new ScopeMissingError(`${input.resource}:write`);
  if (!target) issues.invalid('resource', `${input.resource} cannot be imported yet`);
  if ((input.uploadId == null) === (input.url == null)) issues.invalid('uploadId', 'give exactly one of uploadId and url');
  if (input.matchBy != null && input.externalIdField != null) issues.invalid('matchBy', 'give matchBy or externalIdField, not both');
  if (input.mode === ImportMode.CREATE && (input.matchBy != null || input.externalIdField != null))
    issues.invalid('mode', 'CREATE matches nothing: matchBy and externalIdField are for UPDATE and UPSERT');
  if (target && input.matchBy != null && !target.keys[input.matchBy]) issues.invalid('matchBy', `${input.matchBy} is not a key of ${input.resource}`);
  const mapping = input.mapping ?? null;
  if (mapping && mapping.length > MAX_MAPPING) issues.invalid('mapping', `has more than ${MAX_MAPPING} entries`);
  issues.throwIfAny();
  const defs = await customFieldDefs(ctx, target!.customFields).load();
  if (input.externalIdField != null) {
    const def = defs.find((d) => d.label === input.externalIdField);
    if (!def) issues.invalid('externalIdField', `${input.externalIdField} is no custom field of ${input.resource} in the account`);
    else if (def.kind !== 'text' && def.kind !== 'numeric')
      issues.invalid('externalIdField', `${input.externalIdField} is ${def.kind}: an external id is a text or numeric field`);
  }
  const known = knownFieldOf(target!, columnRules(ctx.em, target!.fields), defs);
  const fields = mapping ? mapping.map((m) => m.field) : [];
  mapping?.forEach((m, i) => {
    if (!known(m.field)) issues.invalid(`mapping.${i}.field`, `${m.field} is no field of ${input.resource}`);
  });
  if (new Set(fields).size !== fields.length) issues.invalid('mapping', 'maps two columns to one field');
  issues.throwIfAny();
  // A URL: checked now (a private address is refused), fetched by the run through the SSRF-safe fetcher.
  const sourceUrl = input.url != null ? await checkFetchTarget(input.url, 'url', issues) : null;
  issues.throwIfAny();
  const uploadId = Number(input.uploadId);
  const [upload] =
    sourceUrl !== null
      ? [null]
      : isValidId(uploadId)
        ? await ctx.em
            .getConnection()
            .execute<Array<{ id: number; storage_key: string; format: BulkFormat; bytes: string }>>(
              `select id, storage_key, format, bytes from import_uploads where id = ? and account_id = ? and user_id = ? and used_at is null and expires_at > now() and storage_key <> ''`,
              [uploadId, ctx.viewer.accountId, ctx.viewer.userId],
              'all',
            )
        : [];
  if (sourceUrl === null && !upload) issues.add('uploadId', 'NOT_FOUND', 'no upload of yours has this id (used already, or expired)');
  issues.throwIfAny();
  const format = input.format ?? upload?.format ?? formatOfUrl(sourceUrl!);
  let header: string[] | null = null;
  // A fetched file's header is checked by the run, once it is fetched.
  if (upload && format === BulkFormat.CSV) {
    header = await headerOf(upload.storage_key);
    if (header) {
      const exported = v3KeysOf(input.resource);
      const mapped = mapping ? new Map(mapping.map((m) => [m.column, m.field])) : null;
      for (const column of header) {
        const field = fieldOfColumn(column, mapped, exported, known);
        if (field !== null && !known(field))
          issues.invalid('mapping', `column "${column}" is no field of ${input.resource}: map it, or leave it out of a mapping`);
      }
      mapping?.forEach((m, i) => {
        if (!header!.includes(m.column)) issues.invalid(`mapping.${i}.column`, `the file has no column "${m.column}"`);
      });
      issues.throwIfAny();
    }
  }
  return mutation(ctx, async (em) => {
    if (upload) {
      const claimed = await em.execute(`update import_uploads set used_at = now() where id = ? and used_at is null returning id`, [upload.id], 'all');
      if (claimed.length === 0) new Issues().add('uploadId', 'NOT_FOUND', 'the upload was used already').throwIfAny();
    }
    const [row] = await em.execute<ImportRecord[]>(
      `insert into imports (account_id, user_id, api_key_id, resource, mode, match_by, external_id_field, dry_run, format, mapping, header, storage_key, file_bytes, source_url, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now()) returning *`,
      [
        ctx.viewer.accountId,
        ctx.viewer.userId,
        ctx.viewer.apiKeyId,
        input.resource,
        input.mode,
        input.matchBy ?? null,
        input.externalIdField ?? null,
        input.dryRun ?? false,
        format,
        mapping ? JSON.stringify(mapping) : null,
        header ? JSON.stringify(header) : null,
        upload?.storage_key ?? null,
        upload?.bytes ?? null,
        sourceUrl,
      ],
      'all',
    );
    enqueueAfterCommit(ctx, 'run-import', () => ({ importId: row.id }));
    return row;
  });
}

/** The imports the viewer may see: their own, every one of the account for administrators; only resources their key may read. */
export function visibleImports(viewer: Viewer): { sql: string; params: unknown[] } {
  const readable = Object.keys(IMPORT_TARGETS).filter((r) => grants(viewer.scopes, `${r}:read`));
  const params: unknown[] = [viewer.accountId, `{${readable.join(',')}}`];
  let sql = `i.account_id = ? and i.resource = any(?::text[])`;
  if (!viewer.isAdmin) {
    sql += ` and i.user_id = ?`;
    params.push(viewer.userId);
  }
  return { sql, params };
}

export async function findImport(ctx: RequestContext, id: number): Promise<ImportRecord | null> {
  if (!isValidId(id)) return null;
  const where = visibleImports(ctx.viewer);
  const rows = await ctx.em.getConnection().execute<ImportRecord[]>(`select i.* from imports i where i.id = ? and ${where.sql}`, [id, ...where.params], 'all');
  return rows[0] ?? null;
}

/** Ids of imports queued or running whose lease ran out (or that never had one): what the sweep enqueues. */
export async function dueImportIds(em: EntityManager, limit = 100): Promise<number[]> {
  const rows = await em
    .getConnection()
    .execute<Array<{ id: number }>>(
      `select id from imports where state in ('queued', 'running') and (lease_until is null or lease_until <= now()) order by id limit ?`,
      [limit],
      'all',
    );
  return rows.map((r) => r.id);
}

/**
 * Removes unused uploads past their expiry, their stored files first (the sweep, a batch at a
 * time); answers how many. A file whose removal fails keeps its row, for the next sweep.
 */
export async function pruneExpiredUploads(em: EntityManager, storage: DocumentStorage, limit = 100): Promise<number> {
  const conn = em.getConnection();
  const rows = await conn.execute<Array<{ id: number; storage_key: string }>>(
    `select id, storage_key from import_uploads where used_at is null and expires_at <= now() order by id limit ?`,
    [limit],
    'all',
  );
  let removed = 0;
  for (const row of rows) {
    try {
      if (row.storage_key) await storage.delete(row.storage_key);
    } catch {
      continue;
    }
    await conn.execute(`delete from import_uploads where id = ? and used_at is null`, [row.id], 'run');
    removed += 1;
  }
  return removed;
}

/**
 * Removes the files of imports finished more than `retentionDays` ago (the sweep, a batch at a
 * time), with the upload rows that named them; answers how many. The import stays, its file gone:
 * its failed rows are no longer served (failedRowsUrl is null). A file whose removal fails keeps
 * its key, for the next sweep.
 */
export async function pruneFinishedImportFiles(em: EntityManager, storage: DocumentStorage, retentionDays: number, limit = 100): Promise<number> {
  const conn = em.getConnection();
  const rows = await conn.execute<Array<{ id: number; storage_key: string }>>(
    `select id, storage_key from imports
      where storage_key is not null and finished_at is not null and finished_at < now() - make_interval(secs => ?)
      order by finished_at limit ?`,
    [retentionDays * 86_400, limit],
    'all',
  );
  let removed = 0;
  for (const row of rows) {
    try {
      await storage.delete(row.storage_key);
    } catch {
      continue;
    }
    await conn.execute(`update imports set storage_key = null where id = ? and storage_key = ?`, [row.id, row.storage_key], 'run');
    await conn.execute(`delete from import_uploads where storage_key = ?`, [row.storage_key], 'run');
    removed += 1;
  }
  return removed;
}
