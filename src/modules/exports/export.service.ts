import type { GraphQLSchema } from 'graphql';
import { BadInputError, ScopeMissingError, ValidationFailed } from '../../common/errors';
import { enqueueAfterCommit, type RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { Connection, type Paging } from '../../graphql/connection';
import { isValidId } from '../../graphql/ids';
import { toGlobalId } from '../../graphql/node';
import { grants, readScopeOf } from '../../graphql/scopes';
import { V3InputError } from '../../kit/v3/input-error';
import { conditionFilter, conditionSpecOf } from '../../kit/v3/conditions';
import { conditionTable } from '../../kit/v3/vocabulary';
import { BulkFormat, BulkJobState, newestFirstPage } from '../common/bulk';
import { SavedSearchService } from '../saved-searches/saved-search.service';
import { asArguments, vocabularyOf } from '../saved-searches/saved-search.vocabulary';
import { EXPORT_SOURCES, type ExportSource } from './export.resources';
import { Export, ExportResource, FILTER_FIELD, type StartExportInput } from './export.types';

/** Where an export's file is downloaded: outside /api/v3, no key (the token is the credential). */
export const EXPORT_DOWNLOAD_PATH = '/exports/download';

/** An `exports` row as read. */
export interface ExportRow {
  id: number;
  account_id: number;
  user_id: number;
  scopes: string[] | null;
  resource: ExportResource;
  format: BulkFormat;
  filter: unknown;
  /** The list's order keys as given (field, direction); null: by id. */
  order_by: Array<{ field: string; direction: 'ASC' | 'DESC' }> | null;
  state: BulkJobState;
  cancel_requested: boolean;
  rows_total: number | null;
  rows_exported: number;
  failure: string | null;
  attempts: number;
  download_token: string | null;
  changes_cursor: string | null;
  storage_key: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
}

/**
 * A filter in its internal form (what a list's resolver receives: enum values, Date instants) as
 * stored JSON and back: Dates are tagged, so the worker hands the list condition the same values.
 */
export function storeFilter(filter: unknown): string {
  return JSON.stringify(filter ?? null, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { $date: raw.toISOString() } : value;
  });
}

export function readFilter(stored: unknown): unknown {
  const text = typeof stored === 'string' ? stored : JSON.stringify(stored ?? null);
  return JSON.parse(text, (_key, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === '$date' && typeof (value as { $date: unknown }).$date === 'string')
        return new Date((value as { $date: string }).$date);
    }
    return value;
  });
}

/** The read scope of a resource's records (`people:read`). */
export function exportScope(resource: ExportResource): string {
  const scope = readScopeOf(EXPORT_SOURCES[resource].typeName);
  if (!scope) throw new Error(`No read scope is declared for ${EXPORT_SOURCES[resource].typeName}`);
  return scope;
}

function requireScope(ctx: RequestContext, resource: ExportResource): void {
  const scope = exportScope(resource);
  if (!grants(ctx.viewer.scopes, scope)) throw new ScopeMissingError(scope);
}

/** The Export a row shows, links built on `origin`, at `now`. */
export function exportOf(raw: ExportRow, origin: string, now: Date): Export {
  // Raw reads give timestamps as text.
  const at = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));
  const row = {
    ...raw,
    created_at: at(raw.created_at)!,
    started_at: at(raw.started_at),
    finished_at: at(raw.finished_at),
    expires_at: at(raw.expires_at),
  };
  const expired = row.expires_at !== null && row.expires_at.getTime() <= now.getTime();
  const done = row.state === BulkJobState.DONE;
  let eta: number | null = null;
  if (row.state === BulkJobState.RUNNING && row.started_at && row.rows_total !== null && row.rows_exported > 0) {
    const elapsed = (now.getTime() - row.started_at.getTime()) / 1000;
    eta = Math.max(0, Math.ceil(((row.rows_total - row.rows_exported) * elapsed) / row.rows_exported));
  }
  return Object.assign(new Export(), {
    id: toGlobalId('Export', row.id),
    databaseId: row.id,
    resource: row.resource,
    format: row.format,
    state: row.state,
    rowsTotal: row.rows_total,
    rowsExported: row.rows_exported,
    estimatedSecondsLeft: eta,
    failure: row.failure,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    downloadUrl: done && !expired && row.download_token && row.storage_key ? `${origin}${EXPORT_DOWNLOAD_PATH}/${row.download_token}` : null,
    expiresAt: row.expires_at,
    changesCursor: done ? row.changes_cursor : null,
  });
}

const COLUMNS = `"id", "account_id", "user_id", "scopes", "resource", "format", "filter", "order_by", "state", "cancel_requested", "rows_total", "rows_exported", "failure",
  "attempts", "download_token", "changes_cursor", "storage_key", "created_at", "started_at", "finished_at", "expires_at"`;

/** The viewer's own exports; an administrator's: the account's. */
function whoSees(ctx: RequestContext): { sql: string; params: unknown[] } {
  return ctx.viewer.isAdmin
    ? { sql: `"account_id" = ?`, params: [ctx.viewer.accountId] }
    : { sql: `"account_id" = ? and "user_id" = ?`, params: [ctx.viewer.accountId, ctx.viewer.userId] };
}

async function rowOf(ctx: RequestContext, id: number): Promise<ExportRow | null> {
  if (!isValidId(id)) return null;
  const who = whoSees(ctx);
  const rows = await ctx.em.getConnection().execute<ExportRow[]>(`select ${COLUMNS} from "exports" where "id" = ? and ${who.sql}`, [id, ...who.params], 'all');
  return rows[0] ?? null;
}

/** Bulk exports (issue 27 §2): start, read, list, cancel. The work is the worker's (export.run.ts). */
export class ExportService {
  constructor(private readonly ctx: RequestContext) {}

  /**
   * Checks the input (the resource's read scope, one filter of that resource, the saved search,
   * the v3 conditions, and the list condition they make, compiled once here), records the export
   * QUEUED with the filter it will run, and enqueues its job after the commit.
   */
  async start(input: StartExportInput, schema: GraphQLSchema): Promise<Export> {
    const resource = input.resource;
    requireScope(this.ctx, resource);
    const source = EXPORT_SOURCES[resource];
    const format = input.format ?? BulkFormat.CSV;
    const parts: unknown[] = [];
    const own = FILTER_FIELD[resource];
    for (const [key, value] of Object.entries(input.filter ?? {})) {
      if (value === null || value === undefined) continue;
      if (key !== own) throw ValidationFailed.one(`filter.${key}`, 'INVALID', `is not the filter of ${resource}: use filter.${own}`);
      parts.push(value);
    }
    if (input.savedSearchId !== null && input.savedSearchId !== undefined) parts.push(await this.savedSearchFilter(source, input.savedSearchId, schema));
    if (input.v3Conditions) parts.push(this.v3Filter(source, input.v3Conditions, schema));
    const filter = parts.length === 0 ? null : parts.length === 1 ? parts[0] : { and: parts };
    const stored = storeFilter(filter);
    let order: ExportRow['order_by'] = null;
    for (const [key, value] of Object.entries(input.orderBy ?? {})) {
      if (value === null || value === undefined) continue;
      if (key !== own) throw ValidationFailed.one(`orderBy.${key}`, 'INVALID', `is not the order of ${resource}: use orderBy.${own}`);
      order = (value as Array<{ field: string; direction?: 'ASC' | 'DESC' | null }>).map((o) => ({ field: o.field, direction: o.direction ?? 'ASC' }));
    }
    try {
      if (order) source.fields.orderKeys(this.ctx.em, order);
    } catch (error) {
      if (error instanceof BadInputError) throw ValidationFailed.one(`orderBy.${own}`, 'INVALID', error.message.slice(error.argument.length + 2));
      throw error;
    }
    try {
      // The same condition the worker will build from the stored form: a filter that cannot run is refused now.
      await source.where(this.ctx, readFilter(stored));
    } catch (error) {
      if (error instanceof BadInputError) throw ValidationFailed.one(error.argument, 'INVALID', error.message.slice(error.argument.length + 2));
      throw error;
    }
    const row = await mutation(this.ctx, async (em) => {
      const [inserted] = await em.execute<ExportRow[]>(
        `insert into "exports" ("account_id", "user_id", "scopes", "resource", "format", "filter", "order_by", "created_at") values (?, ?, ?::jsonb, ?, ?, ?::jsonb, ?::jsonb, ?) returning ${COLUMNS}`,
        [
          this.ctx.viewer.accountId,
          this.ctx.viewer.userId,
          this.ctx.viewer.scopes === null ? null : JSON.stringify(this.ctx.viewer.scopes),
          resource,
          format,
          stored,
          order === null ? null : JSON.stringify(order),
          this.ctx.clock.now(),
        ],
        'all',
      );
      enqueueAfterCommit(this.ctx, 'run-export', () => ({ exportId: inserted.id }));
      return inserted;
    });
    return exportOf(row, this.ctx.origin, this.ctx.clock.now());
  }

  private async savedSearchFilter(source: ExportSource, raw: string, schema: GraphQLSchema): Promise<unknown> {
    const id = /^[1-9]\d{0,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
    if (!isValidId(id)) throw ValidationFailed.one('savedSearchId', 'INVALID', 'is not a databaseId');
    try {
      return (await new SavedSearchService(this.ctx).runnable(source.savedSearchType, id, schema)).filter;
    } catch (error) {
      if (error instanceof BadInputError) throw ValidationFailed.one('savedSearchId', 'NOT_FOUND', error.message.slice(error.argument.length + 2));
      throw error;
    }
  }

  /** v3 `conditions[...]` in the list's GraphQL words, as the facade's list and saved searches translate them. */
  private v3Filter(source: ExportSource, conditions: Record<string, unknown>, schema: GraphQLSchema): unknown {
    const vocabulary = vocabularyOf(source.savedSearchType);
    try {
      if (!vocabulary.list) throw new V3InputError('conditions', `${source.resource} take no conditions`);
      const table = conditionTable(schema, vocabulary.conditions);
      // A v3 list ignores a condition it does not know; an export says so instead of exporting more than was meant.
      for (const name of Object.keys(conditions))
        if (!conditionSpecOf(table, name)) throw new V3InputError(`conditions[${name.slice(0, 100)}]`, `is not a condition of ${source.resource} lists`);
      const filter = conditionFilter(conditions, table, this.ctx.viewer.timeZone, { prefix: 'conditions' });
      return asArguments(schema, vocabulary.list, { filter, orderBy: [] }, 'v3Conditions').filter;
    } catch (error) {
      if (error instanceof V3InputError) throw ValidationFailed.one('v3Conditions', 'INVALID', `${error.field}: ${error.message}`);
      if (error instanceof BadInputError) throw ValidationFailed.one('v3Conditions', 'INVALID', error.message.slice(error.argument.length + 2));
      throw error;
    }
  }

  /** One export the viewer may see (their own; an administrator any of the account), null otherwise; its resource's read scope is needed. */
  async find(id: number): Promise<Export | null> {
    const row = await rowOf(this.ctx, id);
    if (!row) return null;
    requireScope(this.ctx, row.resource);
    return exportOf(row, this.ctx.origin, this.ctx.clock.now());
  }

  /** The viewer's exports (an administrator's: the account's) of the resources the key may read, newest first, paged as every list is. */
  async list(paging: Paging): Promise<Connection<Export>> {
    const readable = Object.values(ExportResource).filter((r) => grants(this.ctx.viewer.scopes, exportScope(r)));
    const who = whoSees(this.ctx);
    const scope = `${who.sql} and "resource" = any(?::text[])`;
    const params = [...who.params, `{${readable.join(',')}}`];
    const page = await newestFirstPage<ExportRow>(
      this.ctx.em.getConnection(),
      { table: 'exports', columns: COLUMNS, tag: 'e', where: { sql: scope, params } },
      paging,
    );
    const now = this.ctx.clock.now();
    const byNode = new Map<Export, ExportRow>();
    const nodes = page.rows.map((row) => {
      const node = exportOf(row, this.ctx.origin, now);
      byNode.set(node, row);
      return node;
    });
    return new Connection<Export>({
      nodes,
      cursors: () => nodes.map((node) => page.cursorOf(byNode.get(node)!)),
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      totalCount: () => page.totalCount(),
    });
  }

  /**
   * Cancels an export not finished yet: a queued one at once, a running one at its worker's next
   * batch (its file is discarded). A finished one is answered as it is. Not found: NOT_FOUND.
   */
  async cancel(id: number): Promise<Export | null> {
    const row = await rowOf(this.ctx, id);
    if (!row) return null;
    requireScope(this.ctx, row.resource);
    const [updated] = await this.ctx.em.getConnection().execute<ExportRow[]>(
      `update "exports" set "cancel_requested" = true,
         "state" = case when "state" in ('queued', 'running') then 'cancelled' else "state" end,
         "finished_at" = case when "state" in ('queued', 'running') then now() else "finished_at" end,
         "lease_until" = case when "state" in ('queued', 'running') then null else "lease_until" end
       where "id" = ? returning ${COLUMNS}`,
      [row.id],
      'all',
    );
    return exportOf(updated ?? row, this.ctx.origin, this.ctx.clock.now());
  }
}

/** The exports of these ids the viewer may see (node lookups), in order. */
export async function findExports(ctx: RequestContext, ids: readonly number[]): Promise<Array<Export | null>> {
  const out: Array<Export | null> = [];
  for (const id of ids) {
    const row = await rowOf(ctx, id);
    out.push(row && grants(ctx.viewer.scopes, exportScope(row.resource)) ? exportOf(row, ctx.origin, ctx.clock.now()) : null);
  }
  return out;
}
