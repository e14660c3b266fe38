export interface PageInfo {
  readonly page: number;
  readonly perPage: number;
  readonly total: number;
}

export interface V3Pagination {
  readonly page: number;
  readonly per_page: number;
  readonly total: number;
  readonly pages: number;
  readonly page_var: 'page';
}

export interface V3Envelope<T> {
  readonly entries: T[];
  readonly pagination: V3Pagination;
  readonly [extra: string]: unknown;
}

const count = (n: number, fallback: number) => (Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback);

/**
 * The list envelope (v3 §8.2; DECISIONS: Responses, Paging). `pages` is always present and an
 * integer, because clients loop `1..pages`: `ceil(total / per_page)`, hence 0 for an empty list
 * (the loop runs zero times; 1 would only make them fetch the same empty page again). `extras`
 * go at the top level beside `entries` and `pagination` (e.g. deal `totals`, DECISIONS: Responses).
 */
export function envelope<T>(entries: T[], info: PageInfo, extras?: Readonly<Record<string, unknown>>): V3Envelope<T> {
  const perPage = Math.max(1, count(info.perPage, 1));
  const total = count(info.total, 0);
  return {
    entries,
    pagination: { page: Math.max(1, count(info.page, 1)), per_page: perPage, total, pages: Math.ceil(total / perPage), page_var: 'page' },
    ...extras,
  };
}
