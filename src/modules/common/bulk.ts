import { registerEnumType } from 'type-graphql';
import { BadInputError } from '../../common/errors';
import type { Paging } from '../../graphql/connection';
import type { AbstractSqlConnection } from '@mikro-orm/postgresql';

/*
 * What bulk imports and exports (issue 27) share: the states of their jobs and the file formats.
 */

/** Where a bulk job is. QUEUED → RUNNING → DONE | FAILED | CANCELLED; the last three are final. */
export enum BulkJobState {
  QUEUED = 'queued',
  RUNNING = 'running',
  DONE = 'done',
  FAILED = 'failed',
  CANCELLED = 'cancelled',
}
registerEnumType(BulkJobState, {
  name: 'BulkJobState',
  description: 'Where an import or export is.',
  valuesConfig: {
    QUEUED: { description: 'Waiting for a worker.' },
    RUNNING: { description: 'A worker is on it; its counts move.' },
    DONE: { description: 'Finished; its counts are final.' },
    FAILED: { description: "Stopped on an error that is not one row's (see failure); what it wrote before stays." },
    CANCELLED: { description: 'Stopped on request; what it wrote before stays.' },
  },
});

/** The states a bulk job does not leave. */
export const FINAL_BULK_STATES: ReadonlySet<BulkJobState> = new Set([BulkJobState.DONE, BulkJobState.FAILED, BulkJobState.CANCELLED]);

/** A bulk file's format. */
export enum BulkFormat {
  CSV = 'csv',
  JSONL = 'jsonl',
}
registerEnumType(BulkFormat, {
  name: 'BulkFormat',
  description: 'A bulk file format.',
  valuesConfig: {
    CSV: { description: 'RFC 4180 CSV, UTF-8, a header row of v3 field names (custom fields as custom_label_N).' },
    JSONL: { description: 'JSON Lines: one v3 record (a JSON object) per line, UTF-8.' },
  },
});

/** A page of a bulk job list (newest first, by id) and how to name its rows' cursors. */
export interface NewestFirstPage<R> {
  readonly rows: R[];
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  cursorOf(row: R): string;
  totalCount(): Promise<number>;
}

/**
 * Imports' and exports' lists: `table`'s rows matching `where`, newest first, by any paging a
 * connection takes (first/after, last/before, page/perPage). Cursors are `<tag>:<id>` in base64url;
 * one of another list is a BadInputError naming the argument.
 */
export async function newestFirstPage<R extends { id: number }>(
  conn: AbstractSqlConnection,
  spec: {
    readonly table: string;
    readonly alias?: string;
    readonly columns: string;
    readonly tag: string;
    readonly where: { readonly sql: string; readonly params: readonly unknown[] };
  },
  paging: Paging,
): Promise<NewestFirstPage<R>> {
  const alias = spec.alias ?? '';
  const id = spec.alias ? `${spec.alias}."id"` : '"id"';
  const read = (extra: string, params: unknown[], order: 'asc' | 'desc', limit: number, offset = 0) =>
    conn.execute<R[]>(
      `select ${spec.columns} from "${spec.table}" ${alias} where (${spec.where.sql})${extra} order by ${id} ${order} limit ? offset ?`,
      [...spec.where.params, ...params, limit, offset],
      'all',
    );
  const idOfCursor = (cursor: string, argument: string): number => {
    const decoded = /^[A-Za-z0-9_-]{1,24}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
    const match = /^([a-z]+):([1-9]\d{0,9})$/.exec(decoded);
    if (!match || match[1] !== spec.tag) throw new BadInputError(argument, 'is not a cursor of this list (pass a cursor it gave)');
    return Number(match[2]);
  };
  let rows: R[];
  let hasNextPage: boolean;
  let hasPreviousPage: boolean;
  if (paging.kind === 'offset') {
    const found = await read('', [], 'desc', paging.perPage + 1, paging.offset);
    rows = found.slice(0, paging.perPage);
    hasNextPage = found.length > paging.perPage;
    hasPreviousPage = paging.page > 1;
  } else if (!paging.backward) {
    const after = paging.cursor === null ? null : idOfCursor(paging.cursor, 'after');
    const found = await read(after === null ? '' : ` and ${id} < ?`, after === null ? [] : [after], 'desc', paging.size + 1);
    rows = found.slice(0, paging.size);
    hasNextPage = found.length > paging.size;
    hasPreviousPage = after !== null;
  } else {
    // Backward: the rows just before `before` in the list's order (newer ones), read oldest first and turned round.
    const before = paging.cursor === null ? null : idOfCursor(paging.cursor, 'before');
    const found = await read(before === null ? '' : ` and ${id} > ?`, before === null ? [] : [before], 'asc', paging.size + 1);
    rows = found.slice(0, paging.size).reverse();
    hasPreviousPage = found.length > paging.size;
    hasNextPage = before !== null;
  }
  return {
    rows,
    hasNextPage,
    hasPreviousPage,
    cursorOf: (row) => Buffer.from(`${spec.tag}:${row.id}`, 'utf8').toString('base64url'),
    totalCount: async () => {
      const [count] = await conn.execute<Array<{ n: string }>>(
        `select count(*) as n from "${spec.table}" ${alias} where ${spec.where.sql}`,
        [...spec.where.params],
        'all',
      );
      return Number(count.n);
    },
  };
}
