import type { Request, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import { FacadeInputError } from './errors/facade-error';
import { replyForErrors, replyForUserErrors, validationReply, type CoreError, type UserError, type V3Reply } from './errors/map-errors';
import { parseAttrs } from './request/attrs';
import { readBody } from './request/body';
import { toBoolean, toId } from './request/coerce';
import { conditionFilter, conditionTable, customLabelAt } from './request/conditions';
import { parseNestedParams, DEFAULT_PARAM_LIMITS } from './request/params';
import { parsePaging } from './request/paging';
import { parseSort } from './request/sort';
import type { Formatter } from './resources/resource-spec';
import { toGraphQLInput } from './resources/writable';
import { formatDate, formatDateTime } from './response/datetime';
import { envelope } from './response/envelope';
import { pickAttrs } from './response/pick';
import type { HookRequest, RouteSpec } from './routes/route-spec';
import { matchRoute, type RouteTable } from './routes/match';

/** What the facade needs to know of a request's context; the core's context satisfies it. */
export interface FacadeContext {
  readonly viewer: { readonly timeZone: string; readonly currency: { readonly decimals: number } };
  readonly requestId: string;
  readonly rate: { readonly limit: number; readonly remaining: number; readonly reset: number } | null;
}

export interface FacadeDeps<C extends FacadeContext> {
  /** The core's schema: the routes' sort tables come from its sort enums, and the field tables are checked against it at boot. */
  readonly schema: GraphQLSchema;
  /** Resolves the viewer; throws an error with `code: 'UNAUTHENTICATED'` and a message otherwise. */
  authenticate(req: Request, requestId: string): Promise<C>;
  /** Runs a compiled operation in-process on the request's context. */
  run(op: string, variables: Record<string, unknown>, ctx: C): Promise<{ data: Record<string, unknown> | null; errors: readonly CoreError[] }>;
  /**
   * Takes 1 from the viewer's budget: every authenticated v3 request costs 1, whatever it answers
   * (an unknown route, a 422); the operation it runs is then not charged again. Throws the core's
   * rate-limit error (429 with Retry-After) when the budget is spent.
   */
  admit(ctx: C): Promise<void>;
  /**
   * Rate-limit state for the headers when no operation ran (no token is taken). `null`: no viewer
   * is known (401, unknown route without a valid key, unreadable body): the default tier, full.
   */
  peekRate(ctx: C | null): Promise<RateHeaders>;
  readonly maxBodyBytes: number;
}

export interface RateHeaders {
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}

type Params = Record<string, unknown>;

function setPath(target: Params, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Params;
  node[keys[keys.length - 1]] = value;
}

function formatterFor(ctx: FacadeContext): Formatter {
  const tz = ctx.viewer.timeZone;
  return {
    timeZone: tz,
    currencyDecimals: ctx.viewer.currency.decimals,
    dateTime: (v) => formatDateTime(v as string | Date | null | undefined, tz),
    date: (v) => formatDate(v as string | Date | null | undefined, tz),
  };
}

/** The record's attributes: under the root key (the contract), or at the top level of a JSON body. */
function attributesOf(route: RouteSpec, body: Params): Params {
  const rooted = body[route.resource.root];
  if (rooted && typeof rooted === 'object' && !Array.isArray(rooted)) return rooted as Params;
  if (rooted !== undefined) throw new FacadeInputError(route.resource.root, 'must be an object of attributes');
  return body;
}

function recordId(params: Record<string, string>, name: string): number | null {
  const raw = params[name];
  return /^\d{1,10}$/.test(raw) && Number(raw) <= 2_147_483_647 && Number(raw) > 0 ? Number(raw) : null;
}

function buildVariables(
  schema: GraphQLSchema,
  route: RouteSpec,
  sort: Readonly<Record<string, string>> | null,
  params: Record<string, string>,
  query: Params,
  body: Params,
  tz: string,
): Params | 'not-found' {
  const variables: Params = {};
  const pathFilter: Params = {};
  for (const name of Object.keys(params)) {
    const id = recordId(params, name);
    if (id === null) return 'not-found'; // DECISIONS: a malformed id is answered like a missing record
    if (name === 'id') variables.id = id;
    // A nested list (`/companies/:id/people`) filters on its parent; its operation also reads the
    // parent itself, so a parent the viewer cannot see answers 404 like the record routes.
    if (route.pathFilters?.[name]) pathFilter[route.pathFilters[name]] = { in: [id] };
  }
  for (const [flag, spec] of Object.entries(route.flags ?? {})) {
    const raw = body[flag] !== undefined ? body[flag] : query[flag];
    if (raw === undefined) continue;
    const value = spec.kind === 'boolean' ? toBoolean(raw, flag) : toId(raw, flag);
    if (value !== null) setPath(variables, spec.to, value);
  }
  switch (route.kind) {
    case 'list': {
      // Query filters, conditions and the path's parent each must hold.
      const parts = [
        route.queryFilters ? conditionFilter(query, route.queryFilters, tz, { prefix: null }) : {},
        route.conditions ? conditionFilter(query.conditions, conditionTable(schema, route.conditions), tz) : {},
        pathFilter,
      ].filter((part) => Object.keys(part).length > 0);
      variables.filter = parts.length <= 1 ? (parts[0] ?? {}) : { and: parts };
      const limits = route.paging ?? { default: 100, max: 100 };
      // A list without the envelope answers one page, whatever was asked.
      const paging = route.entriesKey ? { page: 1, perPage: limits.max } : parsePaging(query as { page?: unknown; per_page?: unknown }, limits);
      variables.page = paging.page;
      variables.perPage = paging.perPage;
      if (sort) variables.orderBy = parseSort(query.sort, sort, { table: route.sortTable });
      break;
    }
    case 'feed': {
      // A cursor as the feed writes it (base64url, bounded); the core checks what it holds.
      const since = query.since;
      if (since !== undefined && since !== '' && (typeof since !== 'string' || !FEED_CURSOR.test(since)))
        throw new FacadeInputError('since', 'is not a cursor of this feed (pass the next_cursor a read gave)');
      if (typeof since === 'string' && since !== '') variables.after = since;
      variables.first = parsePaging(query as { page?: unknown; per_page?: unknown }, route.paging ?? { default: 100, max: 100 }).perPage;
      break;
    }
    case 'create':
    case 'update':
      variables.input = toGraphQLInput(route.resource, attributesOf(route, body), tz, route.kind);
      break;
    default:
      break;
  }
  return variables;
}

/**
 * The query string alone. Not `new URL(path, base)`: a path starting `//` (doubled slashes are
 * accepted) would be read as a host, and an odd one (`//%zz/...`) would throw.
 */
function queryOf(url: string): URLSearchParams {
  const start = url.indexOf('?');
  if (start < 0) return new URLSearchParams();
  const end = url.indexOf('#', start);
  return new URLSearchParams(url.slice(start + 1, end < 0 ? undefined : end));
}

function dig(data: Record<string, unknown> | null, path: string): any {
  let node: any = data;
  for (const key of path.split('.')) node = node?.[key];
  return node;
}

function successReply(route: RouteSpec, payload: any, fmt: Formatter, attrs: string[] | null, variables: Params): V3Reply {
  // The rows already carry v3 keys (the fragments alias them): serialize formats them in place.
  const show = (record: Record<string, unknown>) => pickAttrs(route.resource.serialize(record, fmt), attrs);
  switch (route.kind) {
    case 'list': {
      const entries: Record<string, unknown>[] = payload.nodes;
      for (let i = 0; i < entries.length; i++) entries[i] = show(entries[i]);
      if (route.entriesKey) return { status: 200, body: { [route.entriesKey]: entries } };
      return { status: 200, body: envelope(entries, { page: variables.page as number, perPage: variables.perPage as number, total: payload.totalCount }) };
    }
    case 'feed': {
      const entries: Record<string, unknown>[] = payload.nodes;
      for (let i = 0; i < entries.length; i++) entries[i] = show(entries[i]);
      return { status: 200, body: { entries, pagination: { per_page: variables.first, next_cursor: payload.endCursor, has_more: payload.hasNextPage } } };
    }
    case 'delete':
      if (route.deleteBody === 'ids') return { status: 200, body: [payload.deletedDatabaseId] };
      if (route.deleteBody === 'record') return { status: 200, body: show(payload) };
      if (route.deleteBody === 'null') return { status: 200, body: null };
      return { status: 200 };
    default:
      return { status: 200, body: show(payload) };
  }
}

/** A feed's cursor as the core writes it: base64url, bounded. */
const FEED_CURSOR = /^[A-Za-z0-9_-]{1,64000}$/;

const notFound = (route: RouteSpec): V3Reply => (route.errorShape === 'error-object' ? { status: 404, body: { error: 'Not found' } } : { status: 404 });

/**
 * v3 §4: "where search_id is listed, all other parameters except page and per_page are ignored
 * when it is given". The saved search's id (a blank one is no search), and the query reduced to
 * what still counts; null when the route takes no search or none is given. A malformed id is a
 * 422 naming `search_id`; one the viewer cannot run there is a 404 (see listErrorReply).
 */
function savedSearchOf(route: RouteSpec, query: Params): { id: number; query: Params } | null {
  if (!route.searchId || route.kind !== 'list' || query.search_id === undefined || query.search_id === '') return null;
  const id = toId(query.search_id, 'search_id');
  if (id === null) return null;
  const kept: Params = { search_id: query.search_id };
  if (query.page !== undefined) kept.page = query.page;
  if (query.per_page !== undefined) kept.per_page = query.per_page;
  return { id, query: kept };
}

/**
 * A list's input error that `search_id` or a condition caused, in v3 terms; null for any other.
 * - `search_id` the viewer cannot run on this list (another list's search, another user's private
 *   one, a missing one: the core marks it `reason: NOT_FOUND`) is a 404 (v3 §4; DECISIONS: Admin
 *   surface); a stored search that no longer runs (a custom field deleted since) a 422 naming it.
 * - An error inside the filter that a v3 condition put there (a custom field the core does not know
 *   for the resource, a value its kind does not take: issue 11 §3) is a 422 naming
 *   `conditions[custom_label_N]`, as the facade's own checks name conditions.
 */
function listErrorReply(route: RouteSpec, error: CoreError, variables: Params, searching: boolean): V3Reply | null {
  const code = error.extensions?.code;
  const argument = error.extensions?.argument;
  if (route.kind !== 'list' || (code !== 'BAD_USER_INPUT' && code !== 'VALIDATION_FAILED') || typeof argument !== 'string') return null;
  const message = error.message.startsWith(`${argument}: `) ? error.message.slice(argument.length + 2) : error.message;
  if (searching) {
    if (argument === 'searchId' && error.extensions?.reason === 'NOT_FOUND') return notFound(route);
    if (/^(searchId|filter)\b/.test(argument)) return validationReply(route.errorShape, [{ field: 'search_id', message }]);
  }
  const label = customLabelAt(variables, argument);
  return label ? validationReply(route.errorShape, [{ field: `conditions[${label}]`, message }]) : null;
}

/** What a route reads of its request: the URL's query, the headers, the body (read only by writes). */
interface RouteRequest {
  readonly url: string;
  readonly headers: HookRequest['headers'];
  readBody(): Promise<Params>;
}

async function handle<C extends FacadeContext>(
  deps: Pick<FacadeDeps<C>, 'schema' | 'run'>,
  route: RouteSpec,
  sort: Readonly<Record<string, string>> | null,
  params: Record<string, string>,
  req: RouteRequest,
  ctx: C,
): Promise<V3Reply> {
  const parsed = parseNestedParams(queryOf(req.url), DEFAULT_PARAM_LIMITS);
  const search = savedSearchOf(route, parsed);
  const query = search ? search.query : parsed;
  const body = route.kind === 'create' || route.kind === 'update' ? await req.readBody() : {};
  const built = buildVariables(deps.schema, route, sort, params, query, body, ctx.viewer.timeZone);
  if (built === 'not-found') return notFound(route);
  if (search) built.searchId = search.id;
  const hookRequest: HookRequest = { query, body, params: idParams(params), headers: req.headers };
  const variables = route.hooks?.variables ? route.hooks.variables(built, hookRequest) : built;
  const attrs = parseAttrs(query.attrs);
  const result = await deps.run(route.op, variables, ctx);
  if (result.errors.length > 0)
    return (
      listErrorReply(route, result.errors[0], variables, search !== null) ?? replyForErrors(result.errors, route.errorShape, route.resource, ctx.requestId)
    );
  // A mutation's payload answers its input problems as data (`userErrors`).
  const rootPayload = dig(result.data, route.result.split('.')[0]);
  const userErrors: UserError[] | undefined = rootPayload?.userErrors;
  if (userErrors && userErrors.length > 0) return replyForUserErrors(userErrors, route.errorShape, route.resource);
  // Lookups answer null for a record that is missing or hidden; a nested list reads its parent as `parent`.
  const payload = dig(result.data, route.result);
  if ((route.kind !== 'list' && route.kind !== 'feed' && route.kind !== 'delete' && payload == null) || (result.data && result.data.parent === null))
    return notFound(route);
  const reply = successReply(route, payload, formatterFor(ctx), attrs, variables);
  return route.hooks?.reply ? route.hooks.reply(reply, payload, hookRequest, result.data ?? {}) : reply;
}

/** Path parameters as ids (buildVariables has already answered 404 for any that is not one). */
function idParams(params: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of Object.keys(params)) out[name] = Number(params[name]);
  return out;
}

function send(res: Response, reply: V3Reply): void {
  res.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if (reply.raw) {
    res.setHeader('Content-Type', reply.raw.contentType);
    res.end(reply.raw.bytes);
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (reply.body === undefined) res.end();
  else res.end(JSON.stringify(reply.body));
}

function setRateHeaders(res: Response, rate: RateHeaders): void {
  res.setHeader('X-Ratelimit-Limit', String(rate.limit));
  res.setHeader('X-Ratelimit-Remaining', String(rate.remaining));
  res.setHeader('X-Ratelimit-Reset', String(rate.reset));
}

/**
 * DECISIONS: Responses: the X-Ratelimit-* headers are on every v3 response, errors included
 * (401, 404, 413, 500 too). Best effort: a failing peek must not turn into another error.
 */
export async function applyRateHeaders<C extends FacadeContext>(deps: Pick<FacadeDeps<C>, 'peekRate'>, res: Response, ctx: C | null): Promise<void> {
  if (res.headersSent) return;
  try {
    setRateHeaders(res, ctx?.rate ?? (await deps.peekRate(ctx)));
  } catch {
    // headers are advisory; the reply itself matters more
  }
}

/** One v3 request: match, authenticate, translate, run in-process, translate back. */
export function createPipeline<C extends FacadeContext>(deps: FacadeDeps<C>, table: RouteTable) {
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = String(res.getHeader('X-Request-Id') ?? '');
    const match = matchRoute(table, req.method, req.path);
    let ctx: C | null = null;
    try {
      ctx = await deps.authenticate(req, requestId);
    } catch (error) {
      if ((error as { code?: string }).code !== 'UNAUTHENTICATED') {
        await applyRateHeaders(deps, res, null);
        throw error;
      }
      // DECISIONS: an unknown route is a 404 naming the path, with or without a valid key.
      if (match) {
        await applyRateHeaders(deps, res, null);
        send(res, { status: 401, body: { error: (error as Error).message } });
        return;
      }
    }
    if (ctx) {
      try {
        await deps.admit(ctx);
      } catch (error) {
        await applyRateHeaders(deps, res, ctx);
        throw error; // the app's error handler answers the 429
      }
    }
    if (!match || !ctx) {
      await applyRateHeaders(deps, res, ctx);
      send(res, { status: 404, body: { error: `No route matches ${req.method} /api/v3${req.path}` } });
      return;
    }
    let reply: V3Reply;
    try {
      const request: RouteRequest = { url: req.originalUrl ?? req.url, headers: req.headers, readBody: () => readBody(req) };
      reply = await handle(deps, match.route, match.sort, match.params, request, ctx);
    } catch (error) {
      if (!(error instanceof FacadeInputError)) {
        await applyRateHeaders(deps, res, ctx); // the app's error handler answers the 500
        throw error;
      }
      reply =
        error.status === 422
          ? validationReply(match.route.errorShape, [{ field: error.field, message: error.message }])
          : { status: error.status, body: { error: `${error.field} ${error.message}` } };
    }
    await applyRateHeaders(deps, res, ctx);
    send(res, reply);
  };
}

/**
 * A record's show route answered in-process for `ctx`, as its v3 client would get it (the viewer's
 * zone and rights, every convenience object), without HTTP or a rate charge: the v3 body, or null
 * when the record is missing or hidden (or the route answers anything but 200). Only the route's
 * `:id` is filled: a nested show (`/notes/:noteId/comments/:id`) leaves its parent out, which its
 * operation takes as optional.
 */
export async function readShow<C extends FacadeContext>(deps: Pick<FacadeDeps<C>, 'schema' | 'run'>, route: RouteSpec, id: number, ctx: C): Promise<unknown> {
  const request: RouteRequest = { url: '', headers: {}, readBody: async () => ({}) };
  const reply = await handle(deps, route, null, { id: String(id) }, request, ctx);
  return reply.status === 200 && !reply.raw ? (reply.body ?? null) : null;
}
