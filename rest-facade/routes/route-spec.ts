import type { JsonSchema } from '../openapi/json-schema';
import type { V3Reply } from '../response/reply';
import type { Conditions, ConditionTable } from '../request/conditions';
import type { InputDoc, V3Resource } from '../resources/resource-spec';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/**
 * `feed`: a list read by cursor instead of pages (the change feed): `since` and `per_page` in,
 * the entries and `{per_page, next_cursor, has_more}` out.
 */
export type RouteKind = 'list' | 'feed' | 'show' | 'create' | 'update' | 'delete' | 'singleton';

/**
 * How a route answers validation errors (v3 §7): most resources a bare array; notes wrap it in
 * {errors}; account notifications answer 400 {error}.
 */
export type ErrorShape = 'array' | 'wrapped' | 'error-object';

/** What a route answers on a successful delete (DECISIONS: Status codes and bodies). */
export type DeleteBody = 'empty' | 'ids' | 'record' | 'null';

export interface SortSpec {
  /** v3 keys that are not an enum value's lower case: `user_id` → `OWNER_ID`. */
  readonly aliases?: Readonly<Record<string, string>>;
}

export type FlagKind = 'boolean' | 'id';

/** A top-level request parameter (query string or body top level) that becomes a GraphQL variable path. */
export interface FlagSpec {
  /** Dotted path into the variables, e.g. `options.checkForDuplicates`. */
  readonly to: string;
  readonly kind: FlagKind;
}

/** One v3 route, as data. The pipeline does the rest. */
export interface RouteSpec {
  readonly method: Method;
  /** Without `.json`; `:name` segments are integer ids. */
  readonly path: string;
  /**
   * The operation it runs. Set in a route table only for a route with a quirk, whose operation is
   * written in operations/*.graphql; the others' are derived (routes/derived-operations.ts).
   */
  readonly op: string;
  readonly kind: RouteKind;
  readonly resource: V3Resource;
  /**
   * Where the payload sits in the operation's data, e.g. `companies` or `createCompany.company`.
   * A mutation's root field (the first segment) answers `userErrors`, mapped to the v3 422.
   */
  readonly result: string;
  readonly errorShape: ErrorShape;
  readonly paging?: { readonly default: number; readonly max: number };
  /** `conditions[...]` accepted by a list route; translated into `filter`. */
  readonly conditions?: Conditions;
  /** Plain query parameters that filter too (older clients: `/notes.json?deal_id=1`). */
  readonly queryFilters?: ConditionTable;
  /**
   * Sortable: the v3 sort keys are the values of the operation's `$orderBy` enum in lower case
   * (`LAST_NAME` ↔ `last_name`), resolved against the schema at boot, plus these aliases.
   */
  readonly sort?: SortSpec;
  /** The table a `table.column` sort key must name (`people.last_name`); other tables are rejected. */
  readonly sortTable?: string;
  readonly flags?: Readonly<Record<string, FlagSpec>>;
  /**
   * v3 §4 `search_id`: a list whose operation takes `$searchId` runs a saved search of its kind; every
   * other parameter but page and per_page is then ignored (conditions, sort, totals, attrs...).
   */
  readonly searchId?: boolean;
  /** Path parameters that filter a nested list (`{id: 'companyId'}`, as `{in: [id]}`); `:id` is also passed as `id`. */
  readonly pathFilters?: Readonly<Record<string, string>>;
  readonly deleteBody?: DeleteBody;
  /**
   * A list answering its entries under this key, without the envelope or paging (DECISIONS:
   * Webhooks, `{"webhooks": [...]}`): one page of `paging.max` entries.
   */
  readonly entriesKey?: string;
  /** Enum values the derived operation passes to its root field where it takes them (`{kind: 'LEAD_STATUS'}`). */
  readonly args?: Readonly<Record<string, string>>;
  /** Stages of the pipeline this route extends or replaces (see RouteHooks). */
  readonly hooks?: RouteHooks;
  /**
   * The media type a success answers when it is not v3 JSON: the `reply` hook answers the bytes
   * (`V3Reply.raw`), e.g. `text/calendar` for the iCalendar feed. Errors stay v3 JSON. Tests driven
   * by the route table read it.
   */
  readonly produces?: string;
}

/** A route as a route table declares it: `op` only where its operation is written by hand. */
export type RouteDeclaration = Omit<RouteSpec, 'op'> & { readonly op?: string };

/** What a hook sees of the request: already parsed, bounded and decoded. */
export interface HookRequest {
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: Readonly<Record<string, unknown>>;
  /** Path parameters (`:id`), as validated ids. */
  readonly params: Readonly<Record<string, number>>;
  /** The request's headers, names in lower case (e.g. `if-none-match` for a conditional download). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * Per-route stages on top of the pipeline's defaults (Ghost's api-framework: each endpoint may
 * replace a stage): a route with a quirk declares it here instead of adding a branch to the
 * pipeline. Each hook receives what the default stage produced and returns what goes on.
 * - `variables`: after the default translation (conditions, paging, sort, input, flags); e.g.
 *   `associations=people` on a company show, `totals=true` on the deals list.
 * - `reply`: after the default success reply (envelope, record, empty delete); e.g. totals added
 *   to the envelope, a series delete answering ids, a download answering bytes (`V3Reply.raw`).
 *   `data` is the operation's whole result, for what it reads beside the payload.
 */
export interface RouteHooks {
  readonly variables?: (variables: Record<string, unknown>, request: HookRequest) => Record<string, unknown>;
  readonly reply?: (reply: V3Reply, payload: unknown, request: HookRequest, data: Readonly<Record<string, unknown>>) => V3Reply;
  /** What the hooks read and answer beyond the route's declaration, for the OpenAPI document (rest-facade/openapi/). */
  readonly doc?: HookDoc;
}

/**
 * The part of a route's interface its hooks make: the OpenAPI document cannot read it from code, so
 * the hook says it beside the code that does it.
 */
export interface HookDoc {
  /** Query parameters a hook reads (`totals`, `associations`). */
  readonly query?: Readonly<Record<string, InputDoc>>;
  /** Conditions a hook reads, as `conditions[...]` and as plain parameters (`search_type`). */
  readonly conditions?: ConditionTable;
  /** Record attributes a hook reads from the body (under the root key) beyond the resource's writable ones. */
  readonly body?: Readonly<Record<string, InputDoc>>;
  /** Request headers a hook reads (`If-None-Match`). */
  readonly headers?: Readonly<Record<string, InputDoc>>;
  /** Keys the reply hook adds beside a list's `entries` and `pagination` (`totals`). */
  readonly envelope?: Readonly<Record<string, JsonSchema>>;
  /** Statuses the reply hook answers besides the route's own, with what they mean (304). */
  readonly statuses?: Readonly<Record<number, string>>;
  /** Headers the reply hook sets on a success, with what they mean (`ETag`). */
  readonly replyHeaders?: Readonly<Record<string, string>>;
}
