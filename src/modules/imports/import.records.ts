import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError, ForbiddenError, NotFoundError, ValidationFailed } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation, withinSavepoint } from '../../context/transaction';
import { withoutNul } from '../../db/sql';
import { v3ErrorField, v3InputOf } from '../../jobs/import-inputs';
import { matchOf, upsertRecord, UpsertStatus, type UpsertKey, type UpsertMode } from '../common/upsert';
import { OWNER_EMAIL, type RowProblem, type StagedRow } from './import.fields';
import { ImportMode, type ImportMatchKey, type ImportTarget } from './import.targets';

/*
 * Imports written record by record (ImportTarget.byRecord: deals). Staging reads a row's cells as
 * the v3 API reads a record's attributes (src/jobs/import-inputs.ts) into the resource's GraphQL
 * create input; applying writes each staged row with the resource's upsert declaration, whose
 * create and update are the service's own (a deal's stage sets its probability, its value takes
 * the currency's places, a close date makes a task, custom fields are checked), each row in a
 * savepoint of its own. A batch of rows is ONE transaction with the import's checkpoint, as for
 * set-based imports: a resumed run writes no row twice.
 */

/** Rows one transaction writes at most: each is a few statements, so a batch stays well inside the lease. */
export const RECORD_BATCH_ROWS = 500;

const CUSTOM_LABEL = /^custom_label_[1-9][0-9]{0,9}$/;

/** A row as staged for a record import: the create input, and the owner by email when the row names one. */
interface RecordRow {
  input: Record<string, unknown>;
  owner_email?: string;
}

/**
 * Converts one row of a record import: (v3 field, file column, value) triples to the staged row,
 * or its problems (the file column blamed). A blank cell or a JSON null gives no value, as in
 * set-based imports.
 */
export function recordRowOf(
  target: ImportTarget,
  cells: ReadonlyArray<readonly [field: string, file: string, value: unknown]>,
  timeZone: string,
  maxCellChars: number,
): { row: StagedRow } | { problems: RowProblem[] } {
  const attributes: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  const fileOf = new Map<string, string>();
  const problems: RowProblem[] = [];
  let owner: string | undefined;
  for (const [field, file, value] of cells) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' && value.length > maxCellChars) {
      problems.push({ column: file, code: 'TOO_LONG', message: `the cell is longer than ${maxCellChars} characters` });
      continue;
    }
    if (typeof value === 'string' && value.trim() === '') continue;
    fileOf.set(field, file);
    if (field === OWNER_EMAIL) {
      const clean = withoutNul(String(value)).trim();
      if ([...clean].length > 255) problems.push({ column: file, code: 'TOO_LONG', message: `${field} is too long (maximum is 255 characters)` });
      else owner = clean;
    } else if (CUSTOM_LABEL.test(field)) custom[field] = value;
    else attributes[field] = value;
  }
  if (Object.keys(custom).length > 0) attributes.custom_fields = custom;
  const read = v3InputOf(target.resource, attributes, timeZone);
  if ('field' in read) problems.push({ column: fileOf.get(read.field) ?? read.field, code: 'INVALID', message: `${read.field} ${read.message}` });
  if (problems.length > 0) return { problems };
  const row: RecordRow = { input: (read as { input: Record<string, unknown> }).input };
  if (owner !== undefined) row.owner_email = owner;
  return { row: row as unknown as StagedRow };
}

/** How a record import's rows are matched: the declaration's natural key, or the external id custom field. */
export async function recordKeyOf(
  ctx: RequestContext,
  target: ImportTarget,
  mode: ImportMode,
  matchBy: ImportMatchKey | null,
  externalIdField: string | null,
): Promise<UpsertKey<any> | null> {
  if (mode === ImportMode.CREATE) return null;
  const decl = target.byRecord!.upsert;
  if (externalIdField) return matchOf(ctx, decl, null, Number(externalIdField.replace('custom_label_', '')));
  return matchOf(ctx, decl, matchBy ?? target.defaultKey, null);
}

const MODES: Readonly<Record<ImportMode, UpsertMode>> = { [ImportMode.CREATE]: 'create', [ImportMode.UPDATE]: 'update', [ImportMode.UPSERT]: 'upsert' };

export interface RecordCounts {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  processed: number;
}

export interface RecordApply {
  readonly ctx: RequestContext;
  readonly target: ImportTarget;
  readonly importId: number;
  readonly accountId: number;
  readonly mode: ImportMode;
  readonly dryRun: boolean;
  readonly key: UpsertKey<any> | null;
  readonly from: number;
  readonly total: number;
  readonly batchRows: number;
  /** The file column that gave a v3 field (the mapping's, else the field's own name). */
  readonly columnOf: (field: string) => string;
  /**
   * Advances the import in the batch's transaction, answering whether a cancel was asked for; null
   * when this run no longer holds it (the batch is rolled back).
   */
  readonly checkpoint: (em: EntityManager, through: number, counts: RecordCounts) => Promise<{ cancelRequested: boolean } | null>;
  /** After each batch (committed, or rolled back: null), with what its checkpoint answered: throws to stop (cancelled, cut short, lease lost). */
  readonly afterBatch: (checkpointed: { cancelRequested: boolean } | null) => void;
}

/** The import's checkpoint was not this run's to write: the batch is undone. */
class LostLease extends Error {}

/** Writes the staged rows from `from` on, a batch per transaction. */
export async function applyByRecord(a: RecordApply): Promise<void> {
  const { ctx, target } = a;
  const decl = target.byRecord!.upsert;
  const owners = new Map<string, number>();
  const users = await ctx.em.execute<Array<{ id: number; email: string | null }>>(`select id, email from users where account_id = ?`, [a.accountId], 'all');
  for (const u of users) if (u.email) owners.set(u.email.toLowerCase(), u.id);
  const batch = Math.max(1, Math.min(a.batchRows, RECORD_BATCH_ROWS));
  let from = a.from;
  while (from < a.total) {
    const to = Math.min(a.total, from + batch);
    let checkpointed: { cancelRequested: boolean } | null = null;
    try {
      await mutation(ctx, async (em) => {
        const rows = await em.execute<Array<{ row_number: number; data: RecordRow }>>(
          `select row_number, data from import_rows where import_id = ? and row_number > ? and row_number <= ? order by row_number`,
          [a.importId, from, to],
          'all',
        );
        const counts: RecordCounts = { created: 0, updated: 0, unchanged: 0, failed: 0, processed: rows.length };
        const errors: Array<{ r: number; c: string | null; k: string; m: string }> = [];
        const fail = (row: number, field: string | null, code: string, message: string) => {
          const v3 = field === null || field === 'base' ? null : v3ErrorField(target.resource, field);
          errors.push({ r: row, c: v3 === null ? null : a.columnOf(v3), k: code, m: v3 === null ? message : `${v3} ${message}` });
        };
        await withinSavepoint(
          ctx,
          async () => {
            for (const staged of rows) {
              const input: Record<string, unknown> = { ...staged.data.input };
              if (staged.data.owner_email !== undefined) {
                const owner = owners.get(staged.data.owner_email.toLowerCase());
                if (owner === undefined) {
                  errors.push({ r: staged.row_number, c: a.columnOf(OWNER_EMAIL), k: 'NOT_FOUND', m: 'no user of the account has this email' });
                  continue;
                }
                input.ownerId = owner;
              }
              try {
                const { status } = await upsertRecord(ctx, decl, a.key, input, MODES[a.mode]);
                if (status === UpsertStatus.CREATED) counts.created += 1;
                else if (status === UpsertStatus.UPDATED) counts.updated += 1;
                else counts.unchanged += 1;
              } catch (error) {
                if (error instanceof ValidationFailed) {
                  for (const issue of error.issues) fail(staged.row_number, issue.field, issue.code, issue.message);
                } else if (error instanceof NotFoundError || error instanceof ForbiddenError || error instanceof BadInputError) {
                  fail(staged.row_number, null, error instanceof NotFoundError ? 'NOT_FOUND' : 'INVALID', error.message);
                } else throw error;
              }
            }
          },
          // A dry run checks every row as it would be written, then undoes the writes.
          () => !a.dryRun,
        );
        counts.failed = new Set(errors.map((e) => e.r)).size;
        if (errors.length > 0) {
          await em.execute(
            `insert into import_errors (import_id, row_number, "column", code, message)
             select ?, e.r, e.c, e.k, e.m from jsonb_to_recordset(?::jsonb) as e(r int, c text, k text, m text)`,
            [a.importId, JSON.stringify(errors)],
          );
        }
        checkpointed = await a.checkpoint(em, to, counts);
        if (!checkpointed) throw new LostLease();
      });
    } catch (error) {
      if (!(error instanceof LostLease)) throw error;
    }
    a.afterBatch(checkpointed);
    from = to;
  }
}
