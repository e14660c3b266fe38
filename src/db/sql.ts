/** Small helpers for hand-written list conditions (parameterised; never string-concatenated input). */

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
