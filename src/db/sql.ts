import { isStorableInstant } from '../common/dates';

/** Small helpers for hand-written list conditions (parameterised; never string-concatenated input). */

/*
 * Input that would fail in PostgreSQL rather than in validation (a 500) is checked or cleaned
 * before it reaches SQL. The v3 facade refuses the same input earlier; GraphQL clients reach here.
 */

/**
 * PostgreSQL holds years 1..9999 as written by the driver (ISO text); anything else fails the
 * statement. The one range every date input is checked against (src/common/dates.ts), in UTC.
 */
export function storableInstant(value: Date): boolean {
  return value instanceof Date && isStorableInstant(value);
}

/** NUL cannot be stored or compared in PostgreSQL text (a 500); dropped, as assignFields drops it from columns. */
export const withoutNul = (text: string): string => text.replace(/\u0000/g, '');

/** Escapes LIKE wildcards so user input matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export const contains = (value: string): string => `%${escapeLike(value)}%`;
export const startsWith = (value: string): string => `${escapeLike(value.toLowerCase())}%`;

/** Accumulates `AND`ed SQL fragments with positional `?` parameters. */
export class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }

  /** Inclusive datetime range on `column`; either bound may be missing. */
  range(column: string, range: { from?: Date | number | null; to?: Date | number | null } | null | undefined): this {
    if (range?.from != null) this.add(`${column} >= ?`, range.from);
    if (range?.to != null) this.add(`${column} <= ?`, range.to);
    return this;
  }

  ids(column: string, ids: readonly number[] | null | undefined): this {
    // Ids are validated integers; passed as one array literal so the statement text stays stable.
    if (ids && ids.length > 0) this.add(`${column} = any(?::int[])`, `{${ids.map((id) => Math.trunc(id)).join(',')}}`);
    return this;
  }

  get sql(): string {
    return this.parts.length === 0 ? 'true' : this.parts.map((p) => `(${p})`).join(' and ');
  }
}
