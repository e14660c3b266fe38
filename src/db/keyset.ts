import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import { BadInputError } from '../common/errors';
import { hydrate, tableOf, type ReadSet } from './list-query';
import type { Where } from './sql';

/** What a list was asked for, once the arguments are checked. */
export type Paging =
  | { readonly kind: 'offset'; readonly page: number; readonly perPage: number; readonly offset: number }
  | { readonly kind: 'cursor'; readonly backward: boolean; readonly size: number; readonly cursor: string | null };

/** What a connection resolver returns; `totalCount` and `hasPreviousPage` may be computed only when read. */
export interface ConnectionData<T> {
  readonly nodes: readonly T[];
  /** The rows' cursors, in order; computed only when a client reads a cursor. */
  readonly cursors: () => readonly string[];
  readonly hasNextPage: boolean | (() => Promise<boolean>);
  readonly hasPreviousPage: boolean | (() => Promise<boolean>);
  readonly totalCount: number | (() => Promise<number>);
}

/**
 * Keyset ("seek") paging: a cursor holds the sort-key values of a row, and the next page is the
 * rows after those values in the list's order. Page 5,000 then costs what page 1 costs (no rows
 * are skipped), and rows added or removed meanwhile do not shift pages.
 *
 * Order keys follow PostgreSQL's default null placement: ascending puts nulls last, descending
 * first. The row id always ends the order, so every row has a distinct position.
 */
export interface OrderKey {
  /** A whitelisted SQL expression over the list's alias, e.g. `lower(p.last_name)`; never user text. */
  readonly sql: string;
  readonly desc: boolean;
  /** Whether the expression can be null (a nullable column, a subquery). Non-null keys make simpler, index-friendly conditions. */
  readonly nullable: boolean;
  /** What the expression yields: a cursor's value for this key is checked against it before any SQL (see decodeCursor). */
  readonly type: KeyType;
}

/**
 * The PostgreSQL type of an order key's expression, as a raw row (and so a cursor) carries it:
 * `text` a string; `int` an `integer` (-2^31..2^31-1); `timestamp` a `timestamptz` in PostgreSQL's
 * text output (`2026-11-24 10:00:00.123456+00`: the ORM's driver leaves timestamps as text);
 * `numeric` a decimal (text from the driver, or a number); `bool` a boolean.
 */
export type KeyType = 'text' | 'int' | 'timestamp' | 'date' | 'numeric' | 'bool';

export interface KeysetQuery {
  /** `"people" p` */
  readonly from: string;
  readonly alias: string;
  /** Tenancy, visibility and the filter. */
  readonly where: Where;
  /** Without the id: it is appended. */
  readonly order: readonly OrderKey[];
  readonly paging: Paging;
  /** What the client reads besides the rows (default: everything). */
  readonly reads?: ConnectionReads;
  /** What it reads of each row (default: the whole row); see src/graphql/read-set.ts. */
  readonly readSet?: ReadSet | null;
}

/**
 * What a client reads of a connection besides its rows: `total` is counted in the page's own
 * statement (a scalar subquery, which counts from the index while the page stops after its rows)
 * instead of a second one; `cursors` needs the sort-key values selected with each row.
 */
export interface ConnectionReads {
  readonly total: boolean;
  readonly cursors: boolean;
}

const READS_ALL: ConnectionReads = { total: true, cursors: true };

type Value = string | number | boolean | null;
type Row = Record<string, unknown>;

/** Appends the id (the tie-breaker) to the order. */
function keysOf(q: Pick<KeysetQuery, 'alias' | 'order'>): OrderKey[] {
  return [...q.order, { sql: `${q.alias}.id`, desc: false, nullable: false, type: 'int' }];
}

const reversed = (keys: readonly OrderKey[]): OrderKey[] => keys.map((k) => ({ ...k, desc: !k.desc }));

export function orderSql(keys: readonly OrderKey[]): string {
  return keys.map((k) => `${k.sql} ${k.desc ? 'desc' : 'asc'}`).join(', ');
}

/** A short digest of the order: a cursor is refused by a list ordered differently. */
function signatureOf(keys: readonly OrderKey[]): string {
  return createHash('sha256').update(orderSql(keys)).digest('base64url').slice(0, 8);
}

export function encodeCursor(signature: string, values: readonly Value[]): string {
  return Buffer.from(JSON.stringify([signature, ...values]), 'utf8').toString('base64url');
}

/** The longest text value a cursor may hold (order keys are columns of at most 255 characters). */
const MAX_CURSOR_TEXT = 1000;
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
/** PostgreSQL's ISO output of a timestamptz: date, time, up to 6 fraction digits, the session's offset, an era. */
const TIMESTAMP = /^(\d{4}|10000)-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d{1,6})?[+-](\d\d)(?::(\d\d)(?::(\d\d))?)?( BC)?$/;
/** A lone UTF-16 surrogate: no text PostgreSQL returns holds one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `s` is a timestamp as PostgreSQL prints it, and one it takes back without an error: a
 * real date (proleptic Gregorian, as PostgreSQL counts), a real time, an offset within ±15:59:59,
 * years 4713 BC to 10000 AD (PostgreSQL's range, with room for the session offset either side of
 * the years 1-9999 the service stores).
 */
function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes, offsetSeconds] = m.slice(1, 10).map((part) => Number(part ?? 0));
  const bc = m[10] !== undefined;
  if (year < 1 || year > (bc ? 4713 : 10_000) || month < 1 || month > 12) return false;
  const astronomical = bc ? 1 - year : year; // 1 BC is year 0, a leap year
  const leap = astronomical % 4 === 0 && (astronomical % 100 !== 0 || astronomical % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  if (day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return false;
  return offsetHours <= 15 && offsetMinutes <= 59 && offsetSeconds <= 59;
}

/** Whether `value` is one PostgreSQL can compare with a key of this type (null apart). */
function fitsKey(value: unknown, type: KeyType): boolean {
  switch (type) {
    case 'text':
      // NUL cannot be sent to PostgreSQL in text at all.
      return typeof value === 'string' && value.length <= MAX_CURSOR_TEXT && !value.includes('\u0000') && !LONE_SURROGATE.test(value);
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX;
    case 'timestamp':
      return typeof value === 'string' && isTimestamp(value);
    case 'date':
      // A date column reads as `YYYY-MM-DD`: checked as the date part of a timestamp.
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && isTimestamp(`${value} 00:00:00+00`);
    case 'numeric':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.length <= MAX_CURSOR_TEXT && DECIMAL.test(value));
    case 'bool':
      return typeof value === 'boolean';
  }
}

const KIND: Readonly<Record<KeyType, string>> = {
  text: `a text of at most ${MAX_CURSOR_TEXT} characters`,
  int: 'an integer',
  timestamp: 'a timestamp',
  date: 'a date',
  numeric: 'a number',
  bool: 'a boolean',
};

/**
 * The sort-key values a cursor holds, checked against the order it must come from: its signature,
 * then each value against its key's type (null only for a nullable key), so a forged cursor is a
 * BAD_USER_INPUT error here and never reaches PostgreSQL.
 */
export function decodeCursor(cursor: string, keys: readonly OrderKey[], argument: string): Value[] {
  const fail = (why: string): never => {
    throw new BadInputError(argument, `invalid cursor for this list (${why}); use a cursor this list returned with the same orderBy`);
  };
  if (cursor.length > 2000 || !/^[A-Za-z0-9_-]*$/.test(cursor)) fail('malformed');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    fail('malformed');
  }
  if (!Array.isArray(decoded) || decoded.length !== keys.length + 1) fail('malformed');
  const [signature, ...values] = decoded as unknown[];
  if (signature !== signatureOf(keys)) fail('issued for another order or list');
  keys.forEach((key, i) => {
    const value = values[i];
    if (value === null) {
      if (!key.nullable) fail(`value ${i + 1} cannot be null`);
    } else if (!fitsKey(value, key.type)) {
      fail(`value ${i + 1} is not ${KIND[key.type]}`);
    }
  });
  const id = values[values.length - 1];
  if ((id as number) < 1) fail('malformed');
  return values as Value[];
}

/** `key` strictly after `value` in the key's direction (nulls last ascending, first descending). */
function after(key: OrderKey, value: Value, params: unknown[]): string {
  if (value === null) return key.desc ? `${key.sql} is not null` : 'false';
  params.push(value);
  if (key.desc) return `${key.sql} < ?`;
  return key.nullable ? `(${key.sql} > ? or ${key.sql} is null)` : `${key.sql} > ?`;
}

function equal(key: OrderKey, value: Value, params: unknown[]): string {
  if (value === null) return `${key.sql} is null`;
  params.push(value);
  return `${key.sql} = ?`;
}

/**
 * Rows strictly after the cursor's row in the order of `keys`: (k0 > v0) or (k0 = v0 and k1 > v1)
 * or ... A non-null first key also gets a plain bound (k0 >= v0), which lets an index on it start
 * the scan at the cursor.
 */
export function afterCursor(keys: readonly OrderKey[], values: readonly Value[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const branches: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const parts = keys.slice(0, i).map((k, j) => equal(k, values[j], params));
    parts.push(after(keys[i], values[i], params));
    branches.push(parts.map((p) => `(${p})`).join(' and '));
  }
  let sql = branches.map((b) => `(${b})`).join(' or ');
  const first = keys[0];
  if (!first.nullable && values[0] !== null) {
    sql = `${first.sql} ${first.desc ? '<=' : '>='} ? and (${sql})`;
    params.unshift(values[0]);
  }
  return { sql, params };
}

/** The entity's columns under the alias: hidden and lazy ones (a key hash) are never read. */
function rowColumns(em: EntityManager, entity: EntityName<object>, alias: string, readSet?: ReadSet | null): string {
  return tableOf(em, entity, readSet)
    .columns.map((c) => `${alias}.${c}`)
    .join(', ');
}

function keyColumns(keys: readonly OrderKey[], reads: ConnectionReads): string {
  // The id is read from the row itself; the other keys are selected under private names, and only
  // when a cursor will be built.
  return reads.cursors
    ? keys
        .slice(0, -1)
        .map((k, i) => `, ${k.sql} as "__k${i}"`)
        .join('')
    : '';
}

/**
 * The cursors of rows read with `keyColumns`: built only when asked for (a client reading
 * `edges` or `pageInfo` cursors). The private key columns stay on the raw rows, which `hydrate`
 * ignores (deleting them would slow every row down).
 */
function cursorsOf(rows: readonly Row[], keys: readonly OrderKey[], signature: string, reads: ConnectionReads): () => readonly string[] {
  return () => {
    if (!reads.cursors) throw new Error('cursors read without their key columns (ConnectionReads.cursors was false)');
    return rows.map((row) => {
      const values: Value[] = [];
      for (let i = 0; i < keys.length - 1; i++) values.push(row[`__k${i}`] as Value);
      values.push(Number(row.id));
      return encodeCursor(signature, values);
    });
  };
}

async function count(em: EntityManager, q: KeysetQuery): Promise<number> {
  const [{ n }] = await em.execute<Array<{ n: string }>>(`select count(*) as n from ${q.from} where ${q.where.sql}`, q.where.params, 'all');
  return Number(n);
}

/** Whether any row of the list lies at or before the cursor (in the order of `keys`). */
async function anyNotAfter(em: EntityManager, q: KeysetQuery, keys: readonly OrderKey[], values: readonly Value[]): Promise<boolean> {
  const cond = afterCursor(keys, values);
  const rows = await em.execute<Row[]>(
    `select 1 from ${q.from} where ${q.where.sql} and not coalesce((${cond.sql}), false) limit 1`,
    [...q.where.params, ...cond.params],
    'all',
  );
  return rows.length > 0;
}

/**
 * One page of a list, by cursor or by offset, as read-only projections (see `hydrate`). The total
 * and the "is there a page on the other side of the cursor" answers run only when a client reads them.
 */
export async function keysetPage<T extends object>(em: EntityManager, entity: EntityName<T>, q: KeysetQuery): Promise<ConnectionData<T>> {
  const keys = keysOf(q);
  const signature = signatureOf(keys);
  const { paging } = q;
  const reads = q.reads ?? READS_ALL;
  // The total, when read: outside a transaction counted by a statement of its own on a second
  // connection while the page is read (on a large account the count takes as long as the page
  // and its relations together); inside one, in the page's statement (a scalar subquery).
  const apart = reads.total && !em.isInTransaction() ? count(em, q) : null;
  apart?.catch(() => undefined);
  const inline = reads.total && !apart;
  const totalColumn = inline ? `, (select count(*) from ${q.from} where ${q.where.sql}) as "__total"` : '';
  const totalParams = inline ? q.where.params : [];
  /** The total from the page's rows when they carry it; counted apart only for an empty page past the start. */
  const totalOf = (raw: Row[], emptyMeansNone: boolean): number | (() => Promise<number>) => {
    if (apart) return () => apart;
    if (!reads.total) return () => count(em, q);
    if (raw.length > 0) return Number(raw[0].__total);
    return emptyMeansNone ? 0 : () => count(em, q);
  };
  if (paging.kind === 'offset') {
    const raw = await em.execute<Row[]>(
      `select ${rowColumns(em, entity as EntityName<object>, q.alias)}${keyColumns(keys, reads)}${totalColumn} from ${q.from} where ${q.where.sql} order by ${orderSql(keys)} limit ? offset ?`,
      [...totalParams, ...q.where.params, paging.perPage + 1, paging.offset],
      'all',
    );
    const totalCount = totalOf(raw, paging.offset === 0);
    const hasNextPage = raw.length > paging.perPage;
    const rows = raw.slice(0, paging.perPage);
    const cursors = cursorsOf(rows, keys, signature, reads);
    return { nodes: hydrate(em, entity, rows), cursors, hasNextPage, hasPreviousPage: paging.offset > 0, totalCount };
  }
  // Backwards (last/before): read in the reversed order, then turn the page around.
  const walk = paging.backward ? reversed(keys) : keys;
  const values = paging.cursor === null ? null : decodeCursor(paging.cursor, keys, paging.backward ? 'before' : 'after');
  const cond = values ? afterCursor(walk, values) : null;
  const raw =
    paging.size === 0
      ? []
      : await em.execute<Row[]>(
          `select ${rowColumns(em, entity as EntityName<object>, q.alias)}${keyColumns(keys, reads)}${totalColumn} from ${q.from} where ${q.where.sql}${cond ? ` and (${cond.sql})` : ''} order by ${orderSql(walk)} limit ?`,
          [...totalParams, ...q.where.params, ...(cond?.params ?? []), paging.size + 1],
          'all',
        );
  const totalCount = totalOf(raw, paging.size > 0 && values === null);
  const more = paging.size === 0 ? () => anyAfterOrAll(em, q, walk, values) : raw.length > paging.size;
  const rows = raw.slice(0, paging.size);
  if (paging.backward) rows.reverse();
  const cursors = cursorsOf(rows, keys, signature, reads);
  // Across the cursor: rows at or before it (in the walking order) exist. Asked only when read.
  const across = values ? () => anyNotAfter(em, q, walk, values) : false;
  return {
    nodes: hydrate(em, entity, rows),
    cursors,
    hasNextPage: paging.backward ? across : more,
    hasPreviousPage: paging.backward ? more : across,
    totalCount,
  };
}

/** For a page of size 0: whether any row lies beyond the cursor (or at all, without one). */
async function anyAfterOrAll(em: EntityManager, q: KeysetQuery, walk: readonly OrderKey[], values: readonly Value[] | null): Promise<boolean> {
  const cond = values ? afterCursor(walk, values) : null;
  const rows = await em.execute<Row[]>(
    `select 1 from ${q.from} where ${q.where.sql}${cond ? ` and (${cond.sql})` : ''} limit 1`,
    [...q.where.params, ...(cond?.params ?? [])],
    'all',
  );
  return rows.length > 0;
}

/**
 * The same page of a nested list for many parents in one statement (e.g. the people of each
 * company of a page): a window numbers each parent's rows in the list's order. Totals and
 * "more before the cursor" answers are one grouped statement for all parents, run when read.
 */
export async function keysetPagesByParent<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  q: KeysetQuery & { readonly parentColumn: string },
  parentIds: readonly number[],
): Promise<Map<number, ConnectionData<T>>> {
  const keys = keysOf(q);
  const signature = signatureOf(keys);
  const { paging } = q;
  const reads = q.reads ?? READS_ALL;
  const parentIn = `${q.parentColumn} = any(?::int[])`;
  const parentParam = `{${parentIds.map((id) => Math.trunc(id)).join(',')}}`;
  const walk = paging.kind === 'cursor' && paging.backward ? reversed(keys) : keys;
  const values = paging.kind === 'cursor' && paging.cursor !== null ? decodeCursor(paging.cursor, keys, paging.backward ? 'before' : 'after') : null;
  const cond = values ? afterCursor(walk, values) : null;
  const skip = paging.kind === 'offset' ? paging.offset : 0;
  const size = paging.kind === 'offset' ? paging.perPage : paging.size;
  const raw =
    size === 0
      ? []
      : await em.execute<Row[]>(
          `select * from (select ${rowColumns(em, entity as EntityName<object>, q.alias, q.readSet)}${keyColumns(keys, reads)}, ${q.parentColumn} as "__parent", row_number() over (partition by ${q.parentColumn} order by ${orderSql(walk)}) as "__rn"
             from ${q.from} where ${q.where.sql} and ${parentIn}${cond ? ` and (${cond.sql})` : ''}) x
           where x."__rn" > ? and x."__rn" <= ? order by x."__parent", x."__rn"`,
          [...q.where.params, parentParam, ...(cond?.params ?? []), skip, skip + size + 1],
          'all',
        );
  const byParent = new Map<number, Row[]>();
  for (const row of raw) {
    const parent = Number(row.__parent);
    const list = byParent.get(parent) ?? [];
    list.push(row);
    byParent.set(parent, list);
  }
  let totals: Promise<Map<number, number>> | undefined;
  const totalsOnce = () =>
    (totals ??= em
      .execute<Array<{ parent: number; n: string }>>(
        `select ${q.parentColumn} as parent, count(*) as n from ${q.from} where ${q.where.sql} and ${parentIn} group by ${q.parentColumn}`,
        [...q.where.params, parentParam],
        'all',
      )
      .then((rows) => new Map(rows.map((r) => [Number(r.parent), Number(r.n)]))));
  let acrossOnce: Promise<Set<number>> | undefined;
  const across = () => {
    if (!values) return Promise.resolve(new Set<number>());
    const c = afterCursor(walk, values);
    return (acrossOnce ??= em
      .execute<Array<{ parent: number }>>(
        `select distinct ${q.parentColumn} as parent from ${q.from} where ${q.where.sql} and ${parentIn} and not coalesce((${c.sql}), false)`,
        [...q.where.params, parentParam, ...c.params],
        'all',
      )
      .then((rows) => new Set(rows.map((r) => Number(r.parent)))));
  };
  const result = new Map<number, ConnectionData<T>>();
  for (const parent of parentIds) {
    const all = byParent.get(parent) ?? [];
    const rows = all.slice(0, size);
    const more = all.length > size;
    if (paging.kind === 'cursor' && paging.backward) rows.reverse();
    const cursors = cursorsOf(rows, keys, signature, reads);
    const total = async () => (await totalsOnce()).get(parent) ?? 0;
    const nodes = hydrate(em, entity, rows, q.readSet);
    if (paging.kind === 'offset') {
      result.set(parent, { nodes, cursors, hasNextPage: more, hasPreviousPage: skip > 0, totalCount: total });
      continue;
    }
    const beyond = size === 0 ? async () => (await total()) > 0 && !values : more;
    const acrossParent = values ? async () => (await across()).has(parent) : false;
    result.set(parent, {
      nodes,
      cursors,
      hasNextPage: paging.backward ? acrossParent : beyond,
      hasPreviousPage: paging.backward ? beyond : acrossParent,
      totalCount: total,
    });
  }
  return result;
}

/** How a resource's order field reads the row: the expression, whether it can be null, and its type. */
export type OrderColumn = Pick<OrderKey, 'sql' | 'nullable' | 'type'>;

/** The most ordering keys one list takes (the id always ends the order besides). */
export const MAX_ORDER_KEYS = 5;

/**
 * An `orderBy` argument as order keys, from the resource's table of order columns; `fallback`
 * when none are given. More than MAX_ORDER_KEYS is a BAD_USER_INPUT error.
 */
export function orderKeysOf<F extends string>(
  orderBy: ReadonlyArray<{ readonly field: F; readonly direction: 'ASC' | 'DESC' }> | null | undefined,
  columns: Readonly<Record<F, OrderColumn>>,
  fallback: readonly OrderKey[],
): readonly OrderKey[] {
  if (!orderBy || orderBy.length === 0) return fallback;
  if (orderBy.length > MAX_ORDER_KEYS) throw new BadInputError('orderBy', `at most ${MAX_ORDER_KEYS} keys, got ${orderBy.length}`);
  return orderBy.map((o) => ({ ...columns[o.field], desc: o.direction === 'DESC' }));
}
