import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { toGlobalId } from '../src/graphql/node';
import { FacadeInputError } from './errors/facade-error';
import { replyForErrors, replyForUserErrors, validationReply, type CoreError, type UserError, type V3Reply } from './errors/map-errors';
import { parseAttrs } from './request/attrs';
import { ifMatchTags } from './request/if-match';
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
  /** Idempotency-Key on writes (issue 26 §1), kept by the host; without it the header is ignored. */
  readonly idempotency?: FacadeIdempotency;
}

/** A stored answer: what a retry with the same Idempotency-Key gets again. */
export interface IdempotentAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

/** Where the host keeps idempotency keys (src/http/idempotency.ts): scoped there to the caller's key. */
export interface FacadeIdempotency {
  /** The request's Idempotency-Key: null without one; `error` says what is wrong with it (a 400). */
  keyOf(req: Request): { key: string } | { error: string } | null;
  /** Takes the key for this request (`new`, then `finish` or `abandon`), or says what it holds. */
  begin(
    req: Request,
    scope: string,
    key: string,
    /** What the request asked (requestParts): compared with the first request's, as the host fingerprints it. */
    parts: readonly string[],
  ): Promise<{ kind: 'new'; id: string } | { kind: 'replay'; answer: IdempotentAnswer } | { kind: 'mismatch' } | { kind: 'running' }>;
  finish(id: string, answer: IdempotentAnswer): Promise<void>;
  abandon(id: string): Promise<void>;
}

/** The methods an Idempotency-Key applies to: the writes. */
const IDEMPOTENT_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The hand operation that reads a versioned record's version (operations/common.graphql). */
const VERSION_OPERATION = 'RecordVersion';

/** What a v3 write asked: its method, path, query (without the credentials) and body; the host hashes them. */
function requestParts(req: Request, body: unknown): string[] {
  const q = (req.originalUrl ?? req.url).indexOf('?');
  const query = new URLSearchParams(q < 0 ? '' : (req.originalUrl ?? req.url).slice(q + 1));
  query.delete('api_key');
  query.delete('app_key');
  return [req.method, req.path, query.toString(), JSON.stringify(body)];
}

/** A reply as bytes (what `send` writes): for storing it. */
function answerOf(reply: V3Reply): IdempotentAnswer {
  if (reply.raw) return { status: reply.status, contentType: reply.raw.contentType, body: Buffer.from(reply.raw.bytes) };
  return {
    status: reply.status,
    contentType: 'application/json; charset=utf-8',
    body: Buffer.from(reply.body === undefined ? '' : JSON.stringify(reply.body)),
  };
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
  /** The version an update or delete expects, from a matching If-Match (conditional-writes below). */
  readonly expectedVersion?: number;
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
  if (req.expectedVersion !== undefined) built.expectedVersion = req.expectedVersion;
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

/** What a retry with a key already taken gets: the first answer again, a 422 for another request, a 409 while the first runs. */
function sendClaimed(res: Response, route: RouteSpec, claim: { kind: 'replay'; answer: IdempotentAnswer } | { kind: 'mismatch' } | { kind: 'running' }): void {
  if (claim.kind === 'replay') {
    res.status(claim.answer.status);
    res.setHeader('Idempotent-Replayed', 'true');
    res.setHeader('Content-Type', claim.answer.contentType);
    res.end(claim.answer.body);
    return;
  }
  if (claim.kind === 'mismatch') {
    send(res, validationReply(route.errorShape, [{ field: 'Idempotency-Key', message: 'was already used with another request' }]));
    return;
  }
  send(res, { status: 409, headers: { 'Retry-After': '1' }, body: { error: 'A request with this Idempotency-Key is still running: retry after it' } });
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
    // The route template the request took, for the host's metrics and log line (`/api/v3/deals/:id`): never the path, which holds ids.
    if (match) res.locals.route = req.baseUrl + match.route.path;
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
    const idempotency = deps.idempotency && IDEMPOTENT_METHODS.has(req.method) ? deps.idempotency : null;
    const keyed = idempotency?.keyOf(req) ?? null;
    if (keyed && 'error' in keyed) {
      await applyRateHeaders(deps, res, ctx);
      send(res, { status: 400, body: { error: keyed.error } });
      return;
    }
    let claimed: string | null = null;
    let reply: V3Reply;
    try {
      let body: Promise<Params> | null = null;
      const request: RouteRequest = { url: req.originalUrl ?? req.url, headers: req.headers, readBody: () => (body ??= readBody(req)) };
      if (keyed && idempotency) {
        const route = match.route;
        const read = route.kind === 'create' || route.kind === 'update' ? await request.readBody() : {};
        const claim = await idempotency.begin(req, `${req.method} ${req.baseUrl}${req.path}`, keyed.key, requestParts(req, read));
        if (claim.kind !== 'new') {
          await applyRateHeaders(deps, res, ctx);
          sendClaimed(res, route, claim);
          return;
        }
        claimed = claim.id;
      }
      const precondition = await ifMatch(deps, table, req, match.route, match.params, ctx);
      reply =
        'refused' in precondition
          ? precondition.refused
          : await handle(deps, match.route, match.sort, match.params, { ...request, expectedVersion: precondition.expectedVersion }, ctx);
    } catch (error) {
      if (!(error instanceof FacadeInputError)) {
        if (claimed) await idempotency!.abandon(claimed);
        await applyRateHeaders(deps, res, ctx); // the app's error handler answers the 500
        throw error;
      }
      reply =
        error.status === 422
          ? validationReply(match.route.errorShape, [{ field: error.field, message: error.message }])
          : { status: error.status, body: { error: `${error.field} ${error.message}` } };
    }
    // Stored before the client has it: a retry sent on its receipt finds it.
    if (claimed) await idempotency!.finish(claimed, answerOf(reply));
    await applyRateHeaders(deps, res, ctx);
    // A route that tags its answers itself (the iCalendar feed) is left to do so.
    if (req.method === 'GET' && reply.status === 200 && !Object.keys(reply.headers ?? {}).some((name) => name.toLowerCase() === 'etag'))
      sendRepresentation(req, res, reply, match.route.kind === 'show' || match.route.kind === 'singleton' || reply.raw !== undefined);
    else send(res, reply);
  };
}

/**
 * A read's 200 with its ETag (issue 26 §2): the SHA-256 of the bytes sent, so it changes with
 * anything in the answer, convenience objects included. Strong on a record (and a download), weak
 * on a list (its bytes are a page's, whose order and paging may be equal in meaning and differ).
 * `If-None-Match` naming it (or `*`) answers 304 with no body (RFC 9110 §13.1.2, weak comparison).
 */
function sendRepresentation(req: Request, res: Response, reply: V3Reply, strong: boolean): void {
  const answer = answerOf(reply);
  const tag = tagOf(answer);
  const etag = strong ? tag : `W/${tag}`;
  res.setHeader('ETag', etag);
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  const wanted = req.headers['if-none-match'];
  if (wanted !== undefined && noneMatchHits(wanted, tag)) {
    res.status(304).end();
    return;
  }
  res.status(reply.status);
  res.setHeader('Content-Type', answer.contentType);
  res.end(answer.body);
}

/** The entity tag of an answer: the SHA-256 of its bytes. */
function tagOf(answer: IdempotentAnswer): string {
  return `"${createHash('sha256').update(answer.body).digest('base64url')}"`;
}

/**
 * `If-Match` on a v3 update or delete (issue 26 §2; RFC 9110 §13.1.1). The record's current
 * representation is its show route's answer for this viewer: its strong ETag must be one of the
 * tags given (strong comparison: a weak tag never matches), or the header `*` (any current
 * representation). Otherwise 412, with the current ETag. A record that is missing or hidden answers
 * 404, as the write itself would. For a versioned record (GraphQL `Versioned`) the version is read
 * before the representation and handed to the write as `expectedVersion`: the core compares it
 * under the row's lock, so a write between this check and the write's own is a 412 too, never a
 * lost update (two writers racing with one ETag: one wins, the other gets 412). The write of a
 * record with no version (admin lists, users, saved searches) is checked here only. Without the
 * header, an account that requires preconditions gets a 428 from the core (versioned records).
 */
async function ifMatch<C extends FacadeContext>(
  deps: Pick<FacadeDeps<C>, 'schema' | 'run'>,
  table: RouteTable,
  req: Request,
  route: RouteSpec,
  params: Record<string, string>,
  ctx: C,
): Promise<{ expectedVersion?: number } | { refused: V3Reply }> {
  const header = req.headers['if-match'];
  if (header === undefined || (route.kind !== 'update' && route.kind !== 'delete')) return {};
  const tags = ifMatchTags(header);
  if (tags === null) return { refused: { status: 400, body: { error: 'If-Match must be * or a list of entity tags ("..."), as an ETag header gives them' } } };
  // A malformed id: the write answers it (404) as it would without the header.
  if (!/^[1-9]\d{0,9}$/.test(params.id ?? '')) return {};
  const id = Number(params.id);
  const show = matchRoute(table, 'GET', req.path);
  if (!show || show.route.kind !== 'show')
    return {
      refused: { status: 412, body: { error: 'If-Match: this resource has no representation to compare with (only a record shown by a GET has an ETag)' } },
    };
  const versioned =
    isObjectType(deps.schema.getType(route.resource.type)) && 'version' in (deps.schema.getType(route.resource.type) as GraphQLObjectType).getFields();
  let version: number | undefined;
  if (versioned) {
    const read = await deps.run(VERSION_OPERATION, { id: toGlobalId(route.resource.type, id) }, ctx);
    const found = (read.data?.node as { version?: number } | null | undefined)?.version;
    if (typeof found !== 'number') return { refused: notFound(route) };
    version = found;
  }
  const current = await showReply(deps, show.route, show.params, ctx);
  if (current.status === 404) return { refused: notFound(route) };
  if (current.status !== 200) return { refused: current };
  const tag = tagOf(answerOf(current));
  if (tags !== '*' && !tags.includes(tag))
    return {
      refused: {
        status: 412,
        headers: { ETag: tag },
        body: { error: 'The record changed since the ETag given in If-Match (its current ETag is in the ETag header): read it again, then retry' },
      },
    };
  return version === undefined ? {} : { expectedVersion: version };
}

/** Whether an If-None-Match value (`*`, or entity tags separated by commas) names `tag`, weakly: `W/` ignored. */
function noneMatchHits(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((given) => given.trim().replace(/^W\//, '') === tag);
}

/**
 * A record's show route answered in-process for `ctx`, as its v3 client would get it (the viewer's
 * zone and rights, every convenience object), without HTTP or a rate charge: the v3 body, or null
 * when the record is missing or hidden (or the route answers anything but 200). Only the route's
 * `:id` is filled: a nested show (`/notes/:noteId/comments/:id`) leaves its parent out, which its
 * operation takes as optional.
 */
export async function readShow<C extends FacadeContext>(deps: Pick<FacadeDeps<C>, 'schema' | 'run'>, route: RouteSpec, id: number, ctx: C): Promise<unknown> {
  const reply = await showReply(deps, route, { id: String(id) }, ctx);
  return reply.status === 200 && !reply.raw ? (reply.body ?? null) : null;
}

/** A show route's reply for `ctx`, run in-process with no query, body or headers. */
function showReply<C extends FacadeContext>(
  deps: Pick<FacadeDeps<C>, 'schema' | 'run'>,
  route: RouteSpec,
  params: Record<string, string>,
  ctx: C,
): Promise<V3Reply> {
  return handle(deps, route, null, params, { url: '', headers: {}, readBody: async () => ({}) }, ctx);
}
