import type { Request, RequestHandler, Response } from 'express';
import type { ApolloServerPlugin } from '@apollo/server';
import type { LevelWithSilent } from 'pino';
import { pinoHttp } from 'pino-http';
import { followLogLevel, pinoLogger } from '../common/logger';
import { graphqlOperationDuration, graphqlOperations, httpRequestDuration, operationNames } from '../common/metrics';
import type { RequestContext } from '../context/context';
import type { Viewer } from '../context/viewer';
import { requestIdOf } from './request-id';

/*
 * What is known of a request as it is answered, for its log line and its metrics, kept on
 * `res.locals`: set by whoever learns it (the route table, the context factory, the GraphQL plugin).
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** performance.now() when the request arrived. */
      started?: number;
      /** The route template the request took (`/api/v3/deals/:id`, `/graphql`): never a path, which holds ids and tokens. */
      route?: string;
      /** The GraphQL operation's name (/graphql), for the log line only. */
      operation?: string;
      /** Who asked, once authenticated: the log line's accountId and userId. */
      viewer?: Viewer;
    }
  }
}

/** The label of the requests no route took (404s, preflights, bodies refused before routing): one value, never the raw path. */
export const UNMATCHED = 'unmatched';
/** Left out of the latency histogram (Prometheus times its own scrapes) and logged at debug when answered. */
export const METRICS_ROUTE = '/metrics';

/** Names the route template of the request being answered (when Express's own route does not say it: a mounted app, Apollo). */
export function labelRoute(route: string): RequestHandler {
  return (_req, res, next) => {
    res.locals.route = route;
    next();
  };
}

/** Remembers who asked, for the request's log line (called where the viewer is resolved). */
export function noteViewer(req: Request, viewer: Viewer): void {
  if (req.res) req.res.locals.viewer = viewer;
}

/**
 * The route template: what the handler named (the v3 route table, /graphql), else the Express
 * route that answered (`/healthz`, `/documents/public/:token`, a router mounted at the root),
 * else `unmatched`. Kept on locals once found (the log line reads it after the histogram).
 */
export function routeOf(req: Request, res: Response): string {
  const named = res.locals.route;
  if (named !== undefined) return named;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  const route = typeof path === 'string' ? req.baseUrl + path : UNMATCHED;
  res.locals.route = route;
  return route;
}

/** The path without the query string (which may carry api_key): the log line's `path`; a public link's token is redacted from it as text. */
function pathOf(req: Request): string {
  const raw = req.originalUrl ?? req.url;
  const end = raw.search(/[?#]/);
  return end < 0 ? raw : raw.slice(0, end);
}

type Child = ReturnType<typeof httpRequestDuration.labels>;
/** route → method → status → the histogram's child: no label object or hash string is made per request once a combination was seen. */
const children = new Map<string, Map<string, Map<number, Child>>>();

function histogramChild(route: string, method: string, status: number): Child {
  let byMethod = children.get(route);
  if (!byMethod) children.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let child = byStatus.get(status);
  if (!child) byStatus.set(status, (child = httpRequestDuration.labels(method, route, String(status))));
  return child;
}

/** A 'finish' listener shared by every response (no closure per request). */
function observeFinished(this: Response): void {
  const req = this.req;
  const route = routeOf(req, this);
  if (route === METRICS_ROUTE || this.locals.started === undefined) return;
  histogramChild(route, req.method, this.statusCode).observe((performance.now() - this.locals.started) / 1000);
}

/** The request line's fields (its requestId comes from pino-http's per-request logger). */
function requestLine(req: Request, res: Response): Record<string, unknown> {
  const { viewer, started } = res.locals;
  return {
    method: req.method,
    path: pathOf(req),
    route: routeOf(req, res),
    operation: res.locals.operation,
    status: res.statusCode,
    ms: started === undefined ? undefined : Math.round((performance.now() - started) * 1000) / 1000,
    accountId: viewer?.accountId,
    userId: viewer?.userId,
    appId: viewer?.appId ?? undefined,
    // Which scoped API key (its id, never its secret), when the request came with one.
    apiKeyId: viewer?.apiKeyId ?? undefined,
    // The client went away before the response was written.
    aborted: res.writableFinished ? undefined : true,
  };
}

const omit = (): undefined => undefined;

/**
 * The first middleware: the request id (X-Request-Id, kept from the caller when sane), the latency
 * histogram, and one JSON line per request written by pino-http on the response's end:
 * `{"message":"request","requestId","method","path","route","operation","status","ms","accountId","userId"}`.
 * Never the query string (api_key) nor headers: pino-http's `req`/`res` serializers are replaced by
 * nothing, the line is built from the fields above. Above LOG_LEVEL=info no line is written, so
 * pino-http is not entered at all (no per-request logger, nothing serialised).
 */
export function observeRequests(): RequestHandler {
  const http = pinoHttp<Request, Response>({
    logger: pinoLogger(),
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // One logger per request carrying only the id; the request and response are never serialised.
    quietReqLogger: true,
    quietResLogger: true,
    wrapSerializers: false,
    serializers: { req: omit, res: omit, err: omit },
    customAttributeKeys: { reqId: 'requestId' },
    customLogLevel: (_req, res): LevelWithSilent => {
      const level = res.locals.route === METRICS_ROUTE && res.statusCode < 300 ? 'debug' : 'info';
      return http.logger.isLevelEnabled(level) ? level : 'silent';
    },
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customSuccessObject: (req, res) => requestLine(req, res),
    customErrorObject: (req, res) => requestLine(req, res),
  });
  followLogLevel(http.logger);
  return (req, res, next) => {
    res.locals.started = performance.now();
    res.on('finish', observeFinished);
    if (http.logger.isLevelEnabled('info')) return http(req, res, next);
    const id = requestIdOf(req);
    res.setHeader('X-Request-Id', id);
    req.id = id;
    next();
  };
}

/**
 * /graphql operations by name (bounded: operationNames), type and outcome, and their duration;
 * the name also goes on the request's log line. The context factory binds the request's locals to
 * its context (bindLocals), since Apollo hands plugins the context and not the response.
 */
export function graphqlObserver(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operation, operationName, errors, contextValue }) {
          if (!operation) return; // not parsed or not resolved: the HTTP histogram has its 400
          const name = operationName ?? operation.name?.value;
          const locals = contextValue ? localsOf(contextValue) : undefined;
          if (locals && name) locals.operation = name.length > 100 ? `${name.slice(0, 100)}…` : name;
          const label = name ? operationNames.of(name) : '(anonymous)';
          graphqlOperations.inc({ operation: label, type: operation.operation, outcome: errors && errors.length > 0 ? 'error' : 'ok' });
          graphqlOperationDuration.observe({ operation: label }, (performance.now() - started) / 1000);
        },
      };
    },
  };
}

/**
 * The request's locals on its context, under a symbol: Apollo hands plugins a shallow copy of the
 * context (Object.assign, which copies symbol-keyed properties too), so a map keyed by the
 * context object would not find it.
 */
const LOCALS = Symbol('response locals');
type WithLocals = { [LOCALS]?: Response['locals'] };

/** Lets graphqlObserver name the operation on the request's log line. */
export function bindLocals(ctx: RequestContext, res: Response): void {
  (ctx as RequestContext & WithLocals)[LOCALS] = res.locals;
}

const localsOf = (ctx: RequestContext): Response['locals'] | undefined => (ctx as RequestContext & WithLocals)[LOCALS];
