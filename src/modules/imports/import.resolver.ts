import { Arg, Args, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { BadInputError, NotFoundError } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { Connection, ConnectionArgs, ConnectionOf, pagingOf } from '../../graphql/connection';
import { DATABASE_ID_DOC, Node, registerNode, toGlobalId, fromGlobalId } from '../../graphql/node';
import { payloadOf, UserError } from '../../graphql/payload';
import { declareRecordType, grants, Scope, SCOPE_OPEN } from '../../graphql/scopes';
import { BulkFormat, BulkJobState, newestFirstPage } from '../common/bulk';
import { findImport, startImport, visibleImports, type ImportRecord } from './import.service';
import { ImportMatchKey, ImportMode, ImportResource } from './import.targets';

@ObjectType('ImportRowError', { simpleResolvers: true, description: 'A row of the file an import refused: nothing was written for it.' })
export class ImportRowError {
  @Field(() => Int, { description: "The error's own number: errors of one row keep the order they were found in." })
  databaseId!: number;

  @Field(() => Int, { description: "The row's record number in the file: 1 is the first data row (after a CSV's header)." })
  rowNumber!: number;

  @Field(() => String, { nullable: true, description: 'The file column at fault; null when the row as a whole is.' })
  column!: string | null;

  @Field({ description: 'What is wrong, as a stable code (BLANK, TOO_LONG, INVALID, NOT_FOUND, OUT_OF_RANGE, DUPLICATE, AMBIGUOUS_MATCH).' })
  code!: string;

  @Field({ description: 'What is wrong, in English.' })
  message!: string;
}

@ObjectType('ImportRowErrorConnection', { description: "A page of an import's row errors, by row number, with cursors." })
class ImportRowErrorConnection extends ConnectionOf(ImportRowError, 'ImportRowError', 'row errors') {}

/** An import as its row reads; resolved by the type's fields. */
@ObjectType('Import', { implements: Node, description: 'A bulk import of people, companies or deals from a file (docs/imports.md): a job with progress.' })
export class Import extends Node {
  constructor(readonly row: ImportRecord) {
    super();
    this.id = toGlobalId('Import', row.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.row.id;
  }

  @Field(() => ImportResource, { description: 'What it writes.' })
  get resource(): ImportResource {
    return this.row.resource;
  }

  @Field(() => ImportMode, { description: 'What it does with each row.' })
  get mode(): ImportMode {
    return this.row.mode;
  }

  @Field({ description: 'Validates and matches everything and counts what would happen; writes no record.' })
  get dryRun(): boolean {
    return this.row.dry_run;
  }

  @Field(() => BulkFormat, { description: "The file's format." })
  get format(): BulkFormat {
    return this.row.format;
  }

  @Field(() => BulkJobState, { description: 'Where it is.' })
  get state(): BulkJobState {
    return this.row.state as BulkJobState;
  }

  @Field(() => Int, { nullable: true, description: 'Data rows in the file, once the whole file has been read.' })
  get rowsTotal(): number | null {
    return this.row.rows_total;
  }

  @Field(() => Int, { description: 'Rows done with: created, updated, unchanged or failed.' })
  get rowsProcessed(): number {
    return this.row.rows_processed;
  }

  @Field(() => Int, { description: 'Records created (a dry run: would be).' })
  get rowsCreated(): number {
    return this.row.rows_created;
  }

  @Field(() => Int, { description: 'Records changed (a dry run: would be).' })
  get rowsUpdated(): number {
    return this.row.rows_updated;
  }

  @Field(() => Int, { description: 'Rows matching a record they would not change: nothing written.' })
  get rowsUnchanged(): number {
    return this.row.rows_unchanged;
  }

  @Field(() => Int, { description: 'Rows refused (see errors).' })
  get rowsFailed(): number {
    return this.row.rows_failed;
  }

  @Field(() => Int, {
    nullable: true,
    description:
      'A guess of the seconds left, from the pace of what the import is doing now: while the file is read (its rows estimated from the bytes read), as if writing took as long as reading (it takes longer); once rows are written, from the pace of writing. 0 when DONE; null before a pace is known and when it has ended otherwise.',
  })
  get estimatedSecondsLeft(): number | null {
    const { started_at: started, state } = this.row;
    if (state !== BulkJobState.RUNNING || !started) return state === BulkJobState.DONE ? 0 : null;
    const staged = this.row.staged_through;
    const applied = this.row.applied_through;
    const since = new Date(this.row.pace_since ?? started).getTime();
    const elapsed = Math.max(0, (Date.now() - since) / 1000);
    if (this.row.staging_done) {
      // Writing: reading the file, several times faster, tells nothing about it.
      const total = this.row.rows_total ?? staged;
      const written = applied - this.row.pace_from;
      if (written <= 0) return null;
      return Math.max(0, Math.round((elapsed * Math.max(0, total - applied)) / written));
    }
    // Reading, its rows estimated from the share of its bytes read so far; then every row is still to be written.
    const fileBytes = Number(this.row.file_bytes ?? 0);
    const readBytes = Number(this.row.staged_bytes);
    const read = staged - this.row.pace_from;
    if (read <= 0 || readBytes <= 0 || fileBytes <= 0) return null;
    const total = (staged * fileBytes) / Math.min(readBytes, fileBytes);
    return Math.max(0, Math.round((elapsed * Math.max(0, total - staged + total - applied)) / read));
  }

  @Field(() => String, { nullable: true, description: 'Why it FAILED (a problem with the file as a whole, or with the service).' })
  get failure(): string | null {
    return this.row.failure;
  }

  @Field(() => Date, { description: 'When it was started.' })
  get createdAt(): Date {
    return this.row.created_at;
  }

  @Field(() => Date, { nullable: true, description: 'When a worker first took it.' })
  get startedAt(): Date | null {
    return this.row.started_at;
  }

  @Field(() => Date, { nullable: true, description: 'When it ended (DONE, FAILED or CANCELLED).' })
  get finishedAt(): Date | null {
    return this.row.finished_at;
  }
}

@ObjectType('ImportConnection', { description: 'A page of imports, newest first, with cursors.' })
class ImportConnection extends ConnectionOf(Import, 'Import', 'imports') {}

@InputType('ImportColumnInput', { description: 'One column of the file and the v3 field it goes to.' })
class ImportColumnInput {
  @Field({ description: "The file's column (CSV header name, JSONL key)." })
  column!: string;

  @Field({ description: 'A v3 field name of the resource (first_name, email, custom_label_N, company_name, owner_email, …).' })
  field!: string;
}

@InputType('StartImportInput', { description: 'What to import and how.' })
class StartImportInput {
  @Field(() => ImportResource, { description: 'What the rows are.' })
  resource!: ImportResource;

  @Field(() => ID, { nullable: true, description: 'The uploadId POST /api/imports/uploads answered (yours, unused, at most 24 hours old).' })
  uploadId?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'A URL to fetch the file from instead of an upload (http or https): checked now (a private address is refused unless the host is in DOCUMENT_FETCH_ALLOWED_HOSTS), fetched by the run through the SSRF-safe fetcher within IMPORT_MAX_BYTES. Its format is JSONL when its path ends in .jsonl or .ndjson, else CSV, unless format says.',
  })
  url?: string | null;

  @Field(() => BulkFormat, { nullable: true, description: "The file's format; by default the upload's (its Content-Type), else CSV." })
  format?: BulkFormat | null;

  @Field(() => [ImportColumnInput], {
    nullable: true,
    description: 'File column → v3 field. When given, only the columns it names are imported; when absent, every column name must be a v3 field name.',
  })
  mapping?: ImportColumnInput[] | null;

  @Field(() => ImportMode, { description: 'What to do with each row.' })
  mode!: ImportMode;

  @Field(() => ImportMatchKey, {
    nullable: true,
    description: "How rows find records (UPDATE, UPSERT): the resource's natural key by default (people: EMAIL).",
  })
  matchBy?: ImportMatchKey | null;

  @Field(() => String, {
    nullable: true,
    description: 'A text or numeric custom field (custom_label_N) holding an external id to match by, instead of matchBy.',
  })
  externalIdField?: string | null;

  @Field(() => Boolean, { nullable: true, defaultValue: false, description: 'Validate and match everything, count what would happen, write no record.' })
  dryRun?: boolean | null;
}

@ObjectType('StartImportPayload', { simpleResolvers: true, description: 'The result of startImport.' })
class StartImportPayload {
  @Field(() => Import, { nullable: true, description: 'The import, queued; null when userErrors refused the input.' })
  import!: Import | null;

  @Field(() => [UserError], { description: 'Problems with the input; empty on success.' })
  userErrors!: UserError[];
}

@ObjectType('CancelImportPayload', { simpleResolvers: true, description: 'The result of cancelImport.' })
class CancelImportPayload {
  @Field(() => Import, { nullable: true, description: 'The import: CANCELLED once its worker reaches its next checkpoint (at once when still queued).' })
  import!: Import | null;

  @Field(() => [UserError], { description: 'Why nothing was cancelled (NOT_FOUND); empty on success.' })
  userErrors!: UserError[];
}

declareRecordType('Import', Import, SCOPE_OPEN);
declareRecordType('ImportRowError', ImportRowError, SCOPE_OPEN);

const cursorOf = (parts: number[]) => Buffer.from(parts.join(':')).toString('base64url');
function cursorParts(cursor: string, count: number, argument: string): number[] {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const parts = text.split(':').map(Number);
  if (parts.length !== count || parts.some((p) => !Number.isSafeInteger(p) || p < 0)) throw new BadInputError(argument, 'is not a cursor of this list');
  return parts;
}

function idOf(id: string): number {
  const global = fromGlobalId(id);
  if (global) return global.typeName === 'Import' ? global.databaseId : 0;
  return /^[0-9]{1,10}$/.test(id) ? Number(id) : 0;
}

registerNode({
  name: 'Import',
  entity: Import,
  find: (ctx, ids) => Promise.all(ids.map(async (id) => ((row) => (row ? new Import(row) : null))(await findImport(ctx, id)))),
});

/** Bulk imports (issue 27 §1): start, read, list, cancel. The job itself is import.run.ts. */
@Resolver(() => Import)
export class ImportResolver {
  @Mutation(() => StartImportPayload, {
    description:
      "Starts an import of an uploaded file (POST /api/imports/uploads): checked now (the mapping, the header's columns), run by a worker; read its progress with import(id). Needs the resource's write scope.",
  })
  @Scope(SCOPE_OPEN)
  async startImport(@Ctx() ctx: RequestContext, @Arg('input', () => StartImportInput, { description: 'What to import.' }) input: StartImportInput) {
    const { result, userErrors } = await payloadOf(() => startImport(ctx, input));
    return { import: result ? new Import(result) : null, userErrors };
  }

  @Query(() => Import, {
    nullable: true,
    description: "An import: the viewer's own (administrators: any of the account); null otherwise. Needs its resource's read scope.",
  })
  @Scope(SCOPE_OPEN)
  async import(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'Its global id (or databaseId).' }) id: string): Promise<Import | null> {
    const row = await findImport(ctx, idOf(id));
    return row ? new Import(row) : null;
  }

  @Query(() => ImportConnection, { description: "The viewer's imports (administrators: the account's) of the resources the key may read, newest first." })
  @Scope(SCOPE_OPEN)
  async imports(@Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs) {
    const page = await newestFirstPage<ImportRecord>(
      ctx.em.getConnection(),
      { table: 'imports', alias: 'i', columns: 'i.*', tag: 'i', where: visibleImports(ctx.viewer) },
      pagingOf(args, 20),
    );
    const nodes = page.rows.map((r) => new Import(r));
    return new Connection({
      nodes,
      cursors: () => nodes.map((node) => page.cursorOf(node.row)),
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      totalCount: () => page.totalCount(),
    });
  }

  @Mutation(() => CancelImportPayload, {
    description: "Cancels an import: it stops at its next checkpoint; what it wrote before stays. Needs its resource's write scope.",
  })
  @Scope(SCOPE_OPEN)
  async cancelImport(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'Its global id (or databaseId).' }) id: string) {
    const { result, userErrors } = await payloadOf(async () => {
      const row = await findImport(ctx, idOf(id));
      if (!row || !grants(ctx.viewer.scopes, `${row.resource}:write`)) throw new NotFoundError('Import', idOf(id));
      const [updated] = await ctx.em.getConnection().execute<ImportRecord[]>(
        `update imports set cancel_requested = true,
           state = case when state = 'queued' then 'cancelled' else state end,
           finished_at = case when state = 'queued' then now() else finished_at end
         where id = ? returning *`,
        [row.id],
        'all',
      );
      return updated;
    });
    return { import: result ? new Import(result) : null, userErrors };
  }

  @FieldResolver(() => ImportRowErrorConnection, { description: 'The rows refused, by row number.' })
  async errors(@Root() imp: Import, @Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs) {
    const paging = pagingOf(args, 50);
    const conn = ctx.em.getConnection();
    type Row = { id: string; row_number: number; column: string | null; code: string; message: string };
    const read = (extra: string, params: unknown[], order: 'asc' | 'desc', limit: number, offset = 0) =>
      conn.execute<Row[]>(
        `select id, row_number, "column", code, message from import_errors where import_id = ?${extra}
          order by row_number ${order}, id ${order} limit ? offset ?`,
        [imp.row.id, ...params, limit, offset],
        'all',
      );
    let rows: Row[];
    let hasNextPage: boolean;
    let hasPreviousPage: boolean;
    if (paging.kind === 'offset') {
      const found = await read('', [], 'asc', paging.perPage + 1, paging.offset);
      rows = found.slice(0, paging.perPage);
      hasNextPage = found.length > paging.perPage;
      hasPreviousPage = paging.page > 1;
    } else if (!paging.backward) {
      const from = paging.cursor === null ? null : cursorParts(paging.cursor, 2, 'after');
      const found = await read(from ? ' and (row_number, id) > (?, ?)' : '', from ?? [], 'asc', paging.size + 1);
      rows = found.slice(0, paging.size);
      hasNextPage = found.length > paging.size;
      hasPreviousPage = from !== null;
    } else {
      const to = paging.cursor === null ? null : cursorParts(paging.cursor, 2, 'before');
      const found = await read(to ? ' and (row_number, id) < (?, ?)' : '', to ?? [], 'desc', paging.size + 1);
      rows = found.slice(0, paging.size).reverse();
      hasPreviousPage = found.length > paging.size;
      hasNextPage = to !== null;
    }
    return new Connection<ImportRowError>({
      nodes: rows.map((r) => ({ databaseId: Number(r.id), rowNumber: r.row_number, column: r.column, code: r.code, message: r.message })),
      cursors: () => rows.map((r) => cursorOf([r.row_number, Number(r.id)])),
      hasNextPage,
      hasPreviousPage,
      totalCount: async () =>
        (await conn.execute<Array<{ n: number }>>(`select count(*)::int as n from import_errors where import_id = ?`, [imp.row.id], 'all'))[0].n,
    });
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The refused rows as CSV (their original columns and a `reason` column), ready to fix and import again: GET it with the same key (Authorization: Bearer). Null while running, when none failed, or once the file is removed (IMPORT_FILE_RETENTION_DAYS after the import ended).',
  })
  failedRowsUrl(@Root() imp: Import, @Ctx() ctx: RequestContext): string | null {
    if (imp.row.rows_failed === 0 || !imp.row.storage_key || !['done', 'failed', 'cancelled'].includes(imp.row.state)) return null;
    return `${ctx.origin}/api/imports/${imp.row.id}/failed-rows.csv`;
  }
}
