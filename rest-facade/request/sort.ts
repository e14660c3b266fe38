import { FacadeInputError } from '../errors/facade-error';

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

function unsortable(item: string): FacadeInputError {
  return new FacadeInputError('sort', `is not a sortable attribute: ${item.length > 100 ? `${item.slice(0, 100)}…` : item}`);
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
    if (typeof part !== 'string') throw new FacadeInputError('sort', 'must be a comma-separated list of attributes');
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
