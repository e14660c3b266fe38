import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { getNamedType, Kind, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_PATH, openApiDocument as buildOpenApiDocument, type OpenApiDocument } from './openapi/document';
import { applyRateHeaders, createPipeline, readShow, type FacadeContext, type FacadeDeps } from './pipeline';
import { checkFacade } from './agreement';
import { fragmentsSource, RESOURCES, v3Resources } from './resources';
import { completeFromSchema } from './resources/resource-spec';
import { compileRoutes, type RouteTable } from './routes/match';
import type { RouteSpec } from './routes/route-spec';
import { adminListsOf, v3RouteDeclarations, v3Routes } from './routes';
import { derivedOperationsSource } from './routes/derived-operations';

export type { FacadeContext, FacadeDeps } from './pipeline';
export type { OpenApiDocument } from './openapi/document';
export { V3_ROUTES, v3Routes } from './routes';

/**
 * The facade's GraphQL documents: the operations written by hand for routes with a quirk
 * (operations/*.graphql), the fragments generated from the resources' field tables and, given the
 * schema, the fragments of the admin lists derived from it (routes/derived-admin-lists.ts) and the
 * operations of every route that names none (routes/derived-operations.ts). The core parses,
 * validates and compiles them once at boot.
 */
export function operationsSource(schema?: GraphQLSchema): string {
  if (schema) completeResources(schema);
  const dir = join(__dirname, '..', '..', 'rest-facade', 'operations');
  const local = join(__dirname, 'operations');
  const folder = (() => {
    try {
      readdirSync(local);
      return local;
    } catch {
      return dir;
    }
  })();
  const written = readdirSync(folder)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(folder, f), 'utf8'))
    .concat(fragmentsSource())
    .join('\n');
  return schema ? [written, adminListsOf(schema).source, derivedOperations(schema, written)].join('\n') : written;
}

/** The operations derived for the routes that name none, given the documents written by hand (whose names they must not take). */
export function derivedOperations(schema: GraphQLSchema, written: string): string {
  const handNames = new Set(
    parse(written, { noLocation: true }).definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : [])),
  );
  return derivedOperationsSource(schema, v3RouteDeclarations(schema), handNames);
}

/**
 * Resources that derive from the schema get the fields their tables do not list (once, at boot);
 * an input field the facade cannot map is a boot error naming it.
 */
function completeResources(schema: GraphQLSchema): void {
  const unmapped = RESOURCES.flatMap((r) => completeFromSchema(r, schema));
  if (unmapped.length > 0) throw new Error(`The v3 facade cannot derive these fields; list them in their resource's table: ${unmapped.join(', ')}`);
}

/** The facade's operations (parsed) and route table, checked against the schema. */
function checkedFacade(schema: GraphQLSchema): { operations: DocumentNode; table: RouteTable } {
  const operations = parse(operationsSource(schema), { noLocation: true });
  const routes = v3Routes(schema);
  const problems = checkFacade(schema, operations, routes, v3Resources(schema));
  if (problems.length > 0) throw new Error(`The v3 field tables, operations and schema disagree:\n${problems.join('\n')}`);
  return { operations, table: compileRoutes(routes, schema, operations) };
}

/**
 * The OpenAPI 3.1 document of the v3 surface on this schema, generated from the route table, the
 * field tables and the schema (rest-facade/openapi/, docs/openapi.md). Checks the facade first, as
 * the boot does.
 */
export function openApiDocument(schema: GraphQLSchema): OpenApiDocument {
  return buildOpenApiDocument(schema, checkedFacade(schema).operations);
}

/**
 * `GET /api/v3/openapi.json`: the document, built once, before the pipeline: no key asked, no rate
 * token taken. A strong ETag of its bytes answers a matching If-None-Match with a 304.
 */
function openApiHandler(document: OpenApiDocument): RequestHandler {
  const bytes = Buffer.from(JSON.stringify(document));
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
  return (req, res) => {
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    if (
      req
        .get('if-none-match')
        ?.split(',')
        .some((tag) => tag.trim().replace(/^W\//, '') === etag)
    ) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.status(200).end(bytes);
  };
}

/** Mounted at /api/v3. */
export function createV3Router<C extends FacadeContext>(deps: FacadeDeps<C>): Router {
  const router = express.Router();
  const { operations, table } = checkedFacade(deps.schema);
  const pipeline = createPipeline(deps, table);
  router.get(OPENAPI_PATH, openApiHandler(buildOpenApiDocument(deps.schema, operations)));
  router.use(express.raw({ type: () => true, limit: deps.maxBodyBytes }));
  router.use((req, res, next) => {
    pipeline(req, res).catch(next);
  });
  // A body refused before the pipeline ran (413 too large, 400 unreadable) still carries the
  // rate headers (DECISIONS: Responses); the app's error handler writes the {error} reply.
  const withRateHeaders: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.getHeader('X-Ratelimit-Limit') !== undefined) return next(error);
    applyRateHeaders(deps, res, null).then(
      () => next(error),
      () => next(error),
    );
  };
  router.use(withRateHeaders);
  return router;
}

/** A record as a v3 client sees it: its show route's body for the context's viewer, null when missing or hidden. */
export type V3RecordReader<C extends FacadeContext> = (typeName: string, id: number, ctx: C) => Promise<unknown>;

/**
 * Reads records as their show routes answer them (a webhook's delivery carries the record as its
 * endpoint's owner sees it over v3), by GraphQL type: the show route of a type is the GET route of
 * kind `show` whose result is a Query field of that type, so a new resource's show is found by
 * adding nothing. A type without one reads null.
 */
export function createV3RecordReader<C extends FacadeContext>(deps: Pick<FacadeDeps<C>, 'schema' | 'run'>): V3RecordReader<C> {
  const shows = v3ShowRoutes(deps.schema);
  return async (typeName, id, ctx) => {
    const route = shows.get(typeName);
    return route ? readShow(deps, route, id, ctx) : null;
  };
}

/**
 * Each GraphQL type's v3 show route: the first GET route of kind `show`, with an `:id`, whose
 * result is a Query field of that type. Read off the route declarations: the facade's check and
 * compiled table belong to the router, which the reader's caller has already built or does not need.
 */
export function v3ShowRoutes(schema: GraphQLSchema): Map<string, RouteSpec> {
  const queryFields = schema.getQueryType()?.getFields() ?? {};
  const shows = new Map<string, RouteSpec>();
  for (const route of v3Routes(schema)) {
    if (route.method !== 'GET' || route.kind !== 'show' || route.result.includes('.') || !route.path.split('/').includes(':id')) continue;
    const field = queryFields[route.result];
    const typeName = field ? getNamedType(field.type).name : null;
    if (typeName && !shows.has(typeName)) shows.set(typeName, route);
  }
  return shows;
}
