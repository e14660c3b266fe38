import { V3InputError } from './input-error';

export type SortDirection = 'ASC' | 'DESC';

export interface SortKey {
  readonly field: string;
  readonly direction: SortDirection;
}

export interface SortOptions {
  /** When set, a `table.` prefix must name this table (`deals` for /deals): `people.name` is refused there. */
  readonly table?: string;
}

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function unsortable(item: string): V3InputError {
  return new V3InputError('sort', `is not a sortable attribute: ${item.length > 100 ? `${item.slice(0, 100)}…` : item}`);
}

/**
 * DECISIONS: Conditions: "Sort: `[-]table.column` (e.g. `-deals.created_at`, `people.last_name`)
 * or a bare column; only whitelisted columns; unknown sort → 422 naming `sort`". Also accepted:
 * comma-separated keys (first = primary), `sort[]=` lists, and a trailing ` asc`/` desc` (SQL
 * habit). The whitelist maps bare v3 columns to GraphQL sort fields; a repeated field keeps its
 * first direction. Blank → [] (the core's default order).
 */
export function parseSort(raw: unknown, whitelist: Readonly<Record<string, string>>, options: SortOptions = {}): SortKey[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const items: string[] = [];
  for (const part of Array.isArray(raw) ? raw : [raw]) {
    if (typeof part !== 'string') throw new V3InputError('sort', 'must be a comma-separated list of attributes');
    items.push(...part.split(','));
  }
  const out: SortKey[] = [];
  const seen = new Set<string>();
  for (const rawItem of items) {
    let item = rawItem.trim();
    if (item === '') continue;
    let direction: SortDirection = 'ASC';
    const suffix = /\s+(asc|desc)$/i.exec(item);
    if (suffix) {
      direction = suffix[1].toLowerCase() === 'desc' ? 'DESC' : 'ASC';
      item = item.slice(0, suffix.index);
    }
    let column = item;
    if (column.startsWith('-')) {
      direction = 'DESC';
      column = column.slice(1);
    } else if (column.startsWith('+')) {
      column = column.slice(1);
    }
    const dot = column.indexOf('.');
    let key = column;
    if (!has(whitelist, column) && dot >= 0) {
      const table = column.slice(0, dot);
      if (options.table !== undefined && table !== options.table) throw unsortable(rawItem.trim());
      key = column.slice(dot + 1);
    }
    if (!has(whitelist, key)) throw unsortable(rawItem.trim());
    const field = whitelist[key];
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, direction });
  }
  return out;
}

/** A list's v3 sort declaration (the route table's and a saved search's): v3 keys beyond the enum's own names. */
export interface V3SortSpec {
  /** v3 keys that are not an enum value's lower case: `user_id` → `OWNER_ID`. */
  readonly aliases?: Readonly<Record<string, string>>;
}

/**
 * A v3 sort whitelist from an order enum's value names: each under its lower case (`LAST_NAME` ↔
 * `last_name`), then the aliases (which must name a value). The facade derives the same table from
 * the schema at boot (rest-facade/routes/sort-table.ts).
 */
export function sortWhitelist(enumNames: Iterable<string>, spec: V3SortSpec = {}): Readonly<Record<string, string>> {
  const table: Record<string, string> = {};
  const names = new Set(enumNames);
  for (const name of names) table[name.toLowerCase()] = name;
  for (const [key, value] of Object.entries(spec.aliases ?? {})) {
    if (!names.has(value)) throw new Error(`sort alias ${key} names no order value (${value})`);
    table[key] = value;
  }
  return table;
}
