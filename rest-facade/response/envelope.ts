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
 * integer, because clients loop `1..pages`: `ceil(total / per_page)`, but never below 1: an empty
 * list answers `pages: 1`, as the real service did (DECISIONS: Responses; recorded for every empty
 * list in the official clients' cassettes, e.g. deal_loss_reasons_index.yml and the embedded
 * `comments` of PipelineDeals_Deal_notes.yml: `"pages":1,"total":0`). `extras` go at the top level beside
 * `entries` and `pagination` (e.g. deal `totals`, DECISIONS: Responses).
 */
export function envelope<T>(entries: T[], info: PageInfo, extras?: Readonly<Record<string, unknown>>): V3Envelope<T> {
  const perPage = Math.max(1, count(info.perPage, 1));
  const total = count(info.total, 0);
  return {
    entries,
    pagination: { page: Math.max(1, count(info.page, 1)), per_page: perPage, total, pages: Math.max(1, Math.ceil(total / perPage)), page_var: 'page' },
    ...extras,
  };
}
