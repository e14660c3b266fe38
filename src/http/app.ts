import express, { type ErrorRequestHandler, type Express } from 'express';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createV3Router } from '../../rest-facade';
import type { Config } from '../config/config';
import { DomainError, isStatementTimeout, RateLimitedError, StatementTimeoutError } from '../common/errors';
import { logger } from '../common/logger';
import { createContext, type RequestContext } from '../context/context';
import { formatError, logMasked } from '../graphql/errors';
import { guardPlugin } from '../graphql/guard-plugin';
import { MAX_DOCUMENT_NESTING, MAX_DOCUMENT_TOKENS, documentNesting, queryLimits } from '../graphql/limits';
import { createJitGateway, type OperationRunner } from '../graphql/executor';
import type { RateLimiter } from '../graphql/rate-limit';
import { authenticate, type AuthFailureLimiter } from './auth';
import { cors } from './cors';
import { docsRouter } from './docs-page';
import { explorerRouter } from './explorer/explorer';
import { frontPageRouter } from './front-page';
import { fingerprintOf, graphqlIdempotency, idempotencyKeyOf, ownerOf } from './idempotency';
import { metricsHandler } from './metrics';
import { bindLocals, graphqlObserver, labelRoute, noteViewer, observeRequests } from './request-log';
import type { JobQueue } from '../context/job-queue';
import type { Clock } from '../common/clock';
import { documentLinkRouter } from '../modules/documents/document.public-link';
import { exportDownloadRouter } from '../modules/exports';
import { failedRowsRouter, importUploadRouter } from '../modules/imports/import.upload';
import { IdempotencyStore } from '../db/idempotency-keys';
import type { DocumentStorage } from '../modules/documents/storage';

export interface AppDeps {
  readonly orm: MikroORM;
  readonly config: Config;
  /** Already rate-limited (see applyRateLimit). */
  readonly schema: GraphQLSchema;
  readonly limiter: RateLimiter;
  /** Failed authentications per client address (429 once exhausted). */
  readonly authFailures: AuthFailureLimiter;
  readonly runOperation: OperationRunner;
  /** Where fetched documents are stored: their public links are served from it. */
  readonly documentStorage: DocumentStorage;
  /** The time of the service's rules (the system clock; tests pin it). */
  readonly clock: Clock;
  /** Where jobs go (Agenda, or none: the worker's sweep picks the work up from the rows). */
  readonly jobs: JobQueue;
  /** False until migrations are applied and start-up is done (demo key written): /healthz answers 503 until then. */
  readonly isReady: () => boolean;
}

/**
 * Refuses a document nested deeper than the parser can take, before Apollo parses it (graphql-js
 * recurses and would run out of stack): a cheap scan of its text (limits.ts).
 */
const documentGuard: express.RequestHandler = (req, res, next) => {
  const query = req.method === 'GET' ? req.query.query : (req.body as { query?: unknown } | undefined)?.query;
  if (typeof query === 'string' && documentNesting(query) === null) {
    const message = `Document is nested too deeply: more than ${MAX_DOCUMENT_NESTING} levels of braces, brackets or parentheses`;
    res.status(400).json({ errors: [{ message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
    return;
  }
  next();
};

/** Errors raised while building a /graphql request's context, as GraphQL errors with their HTTP status. */
function contextError(error: unknown): unknown {
  if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') {
    return new GraphQLError(error.message, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
  }
  if (error instanceof RateLimitedError) {
    const headers = new HeaderMap([['retry-after', String(error.retryAfterSeconds)]]);
    return new GraphQLError(error.message, { originalError: error, extensions: { code: 'RATE_LIMITED', http: { status: 429, headers } } });
  }
  if (isStatementTimeout(error)) {
    const timeout = new StatementTimeoutError();
    return new GraphQLError(timeout.message, { originalError: timeout, extensions: { code: 'TIMEOUT', http: { status: 503 } } });
  }
  return error;
}

/**
 * The path as the client sent it, mount prefix included (`req.path` is relative to the router
 * that handles it: `/people.json` under /api/v3), without the query string or a fragment.
 */
export function fullPathOf(req: express.Request): string {
  const raw = req.originalUrl ?? req.url;
  const end = raw.search(/[?#]/);
  return end < 0 ? raw : raw.slice(0, end);
}

/**
 * The origin a client reached us at, for links handed back to it when `PUBLIC_URL` is unset. The
 * Host header is the client's own; one that is not a plain host[:port] is replaced by localhost.
 */
export function requestOrigin(req: express.Request, port: number): string {
  const host = req.get('host') ?? '';
  return `${req.protocol}://${/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(host) ? host : `localhost:${port}`}`;
}

export async function createApp(deps: AppDeps): Promise<{ app: Express; apollo: ApolloServer<RequestContext> }> {
  const { orm, config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);

  // X-Request-Id, the latency histogram and the request's log line (pino-http): the route template,
  // never the query string, which may carry api_key (v3 §5.1).
  app.use(observeRequests());

  // DECISIONS: Paths and requests: doubled slashes are accepted (`//api/v3//companies.json`);
  // collapsed before routing so the /api/v3 mount matches. The query string is left as sent.
  app.use((req, _res, next) => {
    const q = req.url.indexOf('?');
    const path = q < 0 ? req.url : req.url.slice(0, q);
    if (path.includes('//')) req.url = path.replace(/\/{2,}/g, '/') + (q < 0 ? '' : req.url.slice(q));
    next();
  });

  // Browsers: CORS on the API routes, preflights answered before any key is asked for.
  app.use(['/graphql', '/api/v3'], cors(config.corsOrigins));

  app.get('/healthz', async (_req, res) => {
    try {
      await orm.em.getConnection().execute('select 1');
      if (!deps.isReady()) throw new Error('migrations pending');
      res.status(200).json({ status: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable' });
    }
  });

  // Prometheus metrics: open in development, behind METRICS_TOKEN elsewhere (src/http/metrics.ts).
  app.get('/metrics', metricsHandler(config));

  // For people: the front page (`/`, JSON unless the client prefers HTML) and the v3 API's docs page
  // (`/docs`, Redoc served from node_modules). No key asked; links use PUBLIC_URL when set.
  const publicOrigin = (req: express.Request) => config.publicUrl ?? requestOrigin(req, config.port);
  app.use(frontPageRouter({ config, origin: publicOrigin }));
  app.use(docsRouter({ config, orm, origin: publicOrigin }));

  // Documents' public links: no API key (the unguessable token is the credential), no CORS.
  app.use(documentLinkRouter({ orm, storage: deps.documentStorage }));
  // Exports' download links (issue 27 §2): no API key either, the token is the credential.
  app.use(exportDownloadRouter({ orm, storage: deps.documentStorage }));

  // Bulk import uploads (issue 27): streamed to storage, authenticated as /graphql is.
  app.use(importUploadRouter({ orm, storage: deps.documentStorage, maxBytes: config.imports.maxBytes, authFailures: deps.authFailures }));
  app.use(failedRowsRouter({ orm, storage: deps.documentStorage, maxColumns: config.imports.maxColumns, authFailures: deps.authFailures }));

  const contextFor = async (req: express.Request, requestId: string): Promise<RequestContext> => {
    const viewer = await authenticate(orm, req, deps.authFailures);
    noteViewer(req, viewer);
    return createContext(orm, viewer, requestId, {
      channel: req.originalUrl.startsWith('/api/v3') ? 'v3' : 'graphql',
      jobs: deps.jobs,
      clock: deps.clock,
      origin: config.publicUrl ?? requestOrigin(req, config.port),
    });
  };

  // Idempotency-Key on v3 writes and GraphQL mutations (issue 26 §1), scoped to the caller's key.
  const idempotencyKeys = new IdempotencyStore(orm, config.idempotencyKeyTtlHours);
  app.use(
    '/api/v3',
    createV3Router<RequestContext>({
      schema: deps.schema,
      authenticate: contextFor,
      run: deps.runOperation,
      admit: (ctx) => deps.limiter.admit(ctx),
      peekRate: (ctx) => deps.limiter.peek(ctx),
      maxBodyBytes: config.maxBodyBytes,
      idempotency: {
        keyOf: idempotencyKeyOf,
        // Only an authenticated request gets here: it came with a key.
        begin: (req, scope, key, parts) => idempotencyKeys.begin(ownerOf(req) ?? '', scope, key, fingerprintOf(parts)),
        finish: (id, answer) => idempotencyKeys.finish(id, answer),
        abandon: (id) => idempotencyKeys.abandon(id),
      },
    }),
  );

  const apollo = new ApolloServer<RequestContext>({
    gateway: createJitGateway(deps.schema, { checked: config.graphqlStrictLeaves }),
    formatError,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false, // main.ts owns shutdown; Apollo's own handler made its stop() hang
    validationRules: [queryLimits()],
    parseOptions: { maxTokens: MAX_DOCUMENT_TOKENS },
    plugins: [
      // Our own pages (explorer.ts) replace Apollo's: they work offline and only show the demo key locally.
      ApolloServerPluginLandingPageDisabled(),
      // Statuses (400, 429), rate headers, cost, input limits; logs masked errors with the request id.
      guardPlugin({ limiter: deps.limiter, maxCost: config.graphqlMaxCost }),
      // Responses are per-user and never HTTP-cached; the plugin would also wrap every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      // Operations by name (a bounded set) for /metrics, and the name on the request's log line.
      graphqlObserver(),
    ],
  });
  await apollo.start();
  app.use(explorerRouter({ config, orm }));
  app.use(
    '/graphql',
    labelRoute('/graphql'),
    express.json({ limit: config.maxBodyBytes }),
    documentGuard,
    graphqlIdempotency(idempotencyKeys),
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        const requestId = String(res.getHeader('X-Request-Id'));
        try {
          const ctx = await contextFor(req, requestId);
          bindLocals(ctx, res);
          await deps.limiter.admit(ctx);
          return ctx;
        } catch (error) {
          const mapped = contextError(error);
          // Anything not mapped to a client-facing error is masked by Apollo: log it with the request id.
          if (mapped === error) logMasked(error, requestId);
          throw mapped;
        }
      },
    }),
  );

  app.use((req, res) => {
    res.status(404).json({ error: `No route matches ${req.method} ${req.path}` });
  });

  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const requestId = String(res.getHeader('X-Request-Id') ?? '');
    // Raised before an operation ran (authentication): the same replies as the facade's mapper.
    if (error instanceof RateLimitedError && !res.headersSent) {
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      res.status(429).json({ error: error.message });
      return;
    }
    if (isStatementTimeout(error) && !res.headersSent) {
      res.status(503).json({ error: new StatementTimeoutError().message });
      return;
    }
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 413) {
      res.status(413).json({ error: `Request body is larger than ${config.maxBodyBytes} bytes` });
      return;
    }
    if (status < 500) {
      res.status(status).json({ error: error.type === 'entity.parse.failed' ? 'Request body is not valid JSON' : 'Bad request' });
      return;
    }
    logger.error('request failed', { requestId, method: req.method, path: fullPathOf(req), error: error?.stack ?? String(error) });
    if (res.headersSent) return;
    res.status(500).json({ error: 'Internal error', request_id: requestId });
  };
  app.use(onError);
  return { app, apollo };
}
