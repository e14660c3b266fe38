/** Per-route paging bounds (DECISIONS: Paging: defaults and maxima per endpoint). */
export interface PagingSpec {
  readonly default: number;
  readonly max: number;
}

export interface Paging {
  readonly page: number;
  readonly perPage: number;
}

/** Far beyond any real list; keeps OFFSET arithmetic (page × perPage) small and exact. */
export const MAX_PAGE = 1_000_000;

/** A positive integer from a query value, or null. Digits only: `2.5`, `1e3`, `2abc`, `[2]` are not pages. */
function positiveInt(raw: unknown): number | null {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string' && /^\s*\+?\d+\s*$/.test(raw)) n = Number(raw.trim());
  else return null;
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/**
 * `page`/`per_page` never fail a request (DECISIONS: Paging): `page` < 1 or non-numeric → 1,
 * capped at MAX_PAGE; `per_page` missing, invalid or < 1 → the route's default; above the
 * route's maximum → clamped to it, not rejected.
 */
export function parsePaging(query: { page?: unknown; per_page?: unknown }, spec: PagingSpec): Paging {
  const max = Math.max(1, Math.floor(spec.max));
  const page = Math.min(positiveInt(query.page) ?? 1, MAX_PAGE);
  const perPage = Math.min(positiveInt(query.per_page) ?? spec.default, max);
  return { page, perPage: Math.max(1, perPage) };
}
