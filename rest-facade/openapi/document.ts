import type { DocumentNode, GraphQLSchema } from 'graphql';
import { FACADE_MODULES } from '../modules';
import { v3Resources } from '../resources';
import type { V3Resource } from '../resources/resource-spec';
import { v3Routes } from '../routes';
import type { RouteSpec } from '../routes/route-spec';
import type { JsonSchema } from './json-schema';
import { originOf, type RouteOrigin } from './origins';
import { flagSchema, parametersOf, SharedSchemas, type Parameter } from './parameters';
import { exampleOf, inputName, inputSchema, recordName, recordSchema, refTo, requiredOnCreate, SelectionReader, type ShapeTools } from './records';
import { COMMON_HEADERS, ERROR_SCHEMAS, errorResponses, HEADERS, RESPONSES, type MediaType, type Response, type ResponseOrRef } from './responses';

/**
 * The OpenAPI 3.1 document of the v3 surface, generated at boot from what the facade runs on: the
 * route table (`v3Routes`: methods, paths, kinds, conditions, paging, sort, flags, error shapes,
 * delete bodies, hooks' `doc`), the resources' field tables (records, writable attributes), the
 * GraphQL schema (each key's type and description, the sort enums, the filters' descriptions) and
 * the error mapping. Nothing in it is written by hand but prose: a route added to the table is in
 * it by adding nothing. docs/openapi.md says how to read and extend it.
 */

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: Record<string, unknown>;
  readonly servers: ReadonlyArray<{ readonly url: string; readonly description?: string }>;
  readonly tags: ReadonlyArray<Record<string, unknown>>;
  readonly 'x-tagGroups': ReadonlyArray<{ readonly name: string; readonly tags: readonly string[] }>;
  readonly security: ReadonlyArray<Record<string, readonly string[]>>;
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: {
    readonly schemas: Record<string, JsonSchema>;
    readonly responses: Readonly<Record<string, Response>>;
    readonly headers: Readonly<Record<string, unknown>>;
    readonly securitySchemes: Readonly<Record<string, unknown>>;
  };
}

export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly parameters: readonly Parameter[];
  readonly requestBody?: { readonly required?: boolean; readonly content: Readonly<Record<string, MediaType>> };
  readonly responses: Record<string, ResponseOrRef>;
  readonly security?: ReadonlyArray<Record<string, readonly string[]>>;
  readonly 'x-crm-origin': RouteOrigin;
  readonly 'x-crm-source': string;
  /** The route as the table declares it: `{method, path, kind, resource, operation}`. */
  readonly 'x-crm-route'?: { readonly method: string; readonly path: string; readonly kind: string; readonly resource: string; readonly operation: string };
}

/** The facade's base path: every path below is under it. */
export const V3_BASE = '/api/v3';

/** Where the document is served, under V3_BASE. */
export const OPENAPI_PATH = '/openapi.json';

const ORIGIN_TAGS: Readonly<Record<Exclude<RouteOrigin, 'spec'>, { name: string; description: string }>> = {
  decisions: {
    name: 'Beyond the spec: DECISIONS',
    description:
      'Routes the v3 spec leaves out but the official clients call, served as DECISIONS.md settles them (the admin surface, `GET /account.json`, a saved search). Each is also listed under its resource.',
  },
  addition: {
    name: 'Beyond the spec: additions',
    description:
      'Routes of ours, in the v3 style: the change feed, webhooks, the iCalendar feed, documents by parent, this document. Each is also listed under its resource.',
  },
};

const SECURITY_SCHEMES = {
  api_key: {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description: 'The user’s key (v3 §5). The request acts as that user and sees what they may see.',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The same key as `Authorization: Bearer <key>`, so that it stays out of URLs and logs (DECISIONS: Auth).',
  },
  x_api_key: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The same key as an `X-Api-Key` header.' },
  app_key: {
    type: 'apiKey',
    in: 'query',
    name: 'app_key',
    description:
      'A registered application’s key, with a user’s key: a higher rate limit (v3 §5.4). Also accepted as an `X-App-Key` header. An unknown one is a 401.',
  },
  x_app_key: { type: 'apiKey', in: 'header', name: 'X-App-Key', description: 'The application key as a header.' },
} as const;

const SECURITY: ReadonlyArray<Record<string, readonly string[]>> = [
  { api_key: [] },
  { api_key: [], app_key: [] },
  { bearer: [] },
  { bearer: [], app_key: [] },
  { x_api_key: [] },
  { x_api_key: [], x_app_key: [] },
];

/** `/deals/:id/people` → `/deals/{id}/people.json` (a path with its own extension, `/calendar_entries.ics`, keeps it). */
export function documentPath(path: string): string {
  const templated = path.replace(/:([a-zA-Z]+)/g, '{$1}');
  const last = templated.split('/').at(-1) ?? '';
  return /\.[a-z]+$/.test(last) && !last.includes('{') ? templated : `${templated}.json`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const words = (snake: string) => snake.replace(/_/g, ' ');
const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** Each route's module (rest-facade/modules.ts), by `METHOD path`; routes derived at boot are admin lists. */
function moduleNames(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of FACADE_MODULES) for (const r of m.routes) out.set(`${r.method} ${r.path}`, capitalize(m.name));
  return out;
}

/** The record a nested list's parent is (`/companies/:id/people` → company), from the show route at the path's prefix. */
function parentNoun(route: RouteSpec, routes: readonly RouteSpec[]): string | null {
  const m = /^(\/[^/]+)\/:[a-zA-Z]+\//.exec(route.path);
  if (!m) return null;
  const show = routes.find((r) => r.kind === 'show' && r.path === `${m[1]}/:id`);
  return show ? words(show.resource.root) : null;
}

function summaryOf(route: RouteSpec, routes: readonly RouteSpec[]): string {
  const noun = words(route.resource.root);
  const collection = words(
    route.path
      .split('/')
      .filter((s) => s && !s.startsWith(':'))
      .at(-1) ?? noun,
  );
  switch (route.kind) {
    case 'list': {
      if (route.produces) return `${capitalize(collection.replace(/\.\w+$/, ''))} as ${route.produces}`;
      const parent = parentNoun(route, routes);
      return parent ? `List ${article(parent)}’s ${collection}` : `List ${collection}`;
    }
    case 'feed':
      return `Read ${collection}`;
    case 'singleton':
      return `Show the ${collection}`;
    case 'show':
      return `Show ${article(noun)}`;
    case 'create':
      return `Create ${article(noun)}`;
    case 'update':
      return `Update ${article(noun)}`;
    case 'delete':
      return `Delete ${article(noun)}`;
  }
}

/** Operation ids: the route's GraphQL operation name, made unique by its path where two routes share one. */
function operationIds(routes: readonly RouteSpec[]): Map<RouteSpec, string> {
  const counts = new Map<string, number>();
  for (const r of routes) counts.set(r.op, (counts.get(r.op) ?? 0) + 1);
  const ids = new Map<RouteSpec, string>();
  for (const r of routes) {
    const base = r.op.charAt(0).toLowerCase() + r.op.slice(1);
    const unique =
      counts.get(r.op) === 1
        ? base
        : `${base}Via${r.path
            .split('/')
            .filter((s) => s && !s.startsWith(':'))
            .map((s) => s.replace(/(?:^|_)([a-z0-9])/g, (_, c: string) => c.toUpperCase()))
            .join('')}`;
    ids.set(r, unique);
  }
  return ids;
}

/** What the facade answers on success, by kind (rest-facade/pipeline.ts successReply, and the route's hooks). */
function successResponse(route: RouteSpec, record: JsonSchema): Response {
  const doc = route.hooks?.doc;
  const headers = {
    ...COMMON_HEADERS,
    ...(route.method === 'GET' && !Object.keys(doc?.replyHeaders ?? {}).some((name) => name.toLowerCase() === 'etag')
      ? {
          ETag: {
            description:
              route.kind === 'show' || route.kind === 'singleton' || route.produces
                ? 'Strong: the SHA-256 of this answer’s bytes (an addition to v3, issue 26 §2). Sent back as `If-None-Match`, it answers 304 while the record reads the same.'
                : 'Weak (`W/"…"`): the SHA-256 of this page’s bytes (an addition to v3, issue 26 §2). Sent back as `If-None-Match`, it answers 304 while the page reads the same.',
            schema: { type: 'string' as const },
          },
        }
      : {}),
    ...Object.fromEntries(Object.entries(doc?.replyHeaders ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }])),
  };
  if (route.produces) {
    return { description: `The entries as ${route.produces}.`, headers, content: { [route.produces]: { schema: { type: 'string' } } } };
  }
  const json = (schema: JsonSchema, description: string): Response => ({ description, headers, content: { 'application/json': { schema } } });
  switch (route.kind) {
    case 'list': {
      if (route.entriesKey) {
        return json(
          { type: 'object', properties: { [route.entriesKey]: { type: 'array', items: record } }, required: [route.entriesKey], additionalProperties: false },
          `Every entry, under \`${route.entriesKey}\`, without the envelope or paging (at most ${route.paging?.max ?? 100}).`,
        );
      }
      const extras = doc?.envelope ?? {};
      return json(
        {
          type: 'object',
          properties: { entries: { type: 'array', items: record }, pagination: refTo('Pagination'), ...extras },
          required: ['entries', 'pagination'],
          additionalProperties: false,
        },
        `The page of entries in the envelope (v3 §8.2)${Object.keys(extras).length > 0 ? `, with ${Object.keys(extras).join(', ')} when asked` : ''}.`,
      );
    }
    case 'feed':
      return json(
        {
          type: 'object',
          properties: { entries: { type: 'array', items: record }, pagination: refTo('FeedPagination') },
          required: ['entries', 'pagination'],
          additionalProperties: false,
        },
        'The changes after `since`, oldest first.',
      );
    case 'delete':
      switch (route.deleteBody) {
        case 'ids':
          return json(
            { type: 'array', items: { type: 'integer' }, minItems: 1 },
            'Deleted: the ids of the deleted records (DECISIONS: a series answers every entry of it).',
          );
        case 'record':
          return json(record, 'Deleted: the deleted record.');
        case 'null':
          return json({ type: 'null' }, 'Deleted: `null`.');
        default:
          return { description: 'Deleted: an empty body (DECISIONS: Status codes and bodies).', headers };
      }
    default:
      return json(record, route.kind === 'create' || route.kind === 'update' ? 'The whole record as stored (status 200, never 201).' : 'The record.');
  }
}

/** The body of a create or update, as JSON and as a form (`root[attr]=value`), from the resource's writable attributes and the hooks'. */
function requestBody(schema: GraphQLSchema, route: RouteSpec, inputs: Map<V3Resource, string | null>): Operation['requestBody'] | undefined {
  if (route.kind !== 'create' && route.kind !== 'update') return undefined;
  const resource = route.resource;
  const hookBody = route.hooks?.doc?.body ?? {};
  const named = inputs.get(resource) ?? null;
  const own: JsonSchema | null = Object.keys(hookBody).length > 0 ? inputSchema(schema, resource, hookBody) : named ? refTo(named) : null;
  const required = route.kind === 'create' ? requiredOnCreate(resource, Object.keys(route.args ?? {})) : [];
  const attributes: JsonSchema = own
    ? required.length > 0
      ? { allOf: [own, { required }] }
      : own
    : { type: 'object', description: 'Nothing here is written.' };
  const flags = Object.fromEntries(
    Object.entries(route.flags ?? {}).map(([name, flag]) => [name, { ...flagSchema(flag), description: `A flag (also in the query): \`${flag.to}\`.` }]),
  );
  const body: JsonSchema = {
    type: 'object',
    properties: { [resource.root]: attributes, ...flags },
    ...(route.kind === 'create' ? { required: [resource.root] } : {}),
  };
  const writable = { ...resource.writable, ...resource.alsoReads, ...hookBody };
  const keys = [...required, ...Object.keys(writable).filter((k) => !required.includes(k) && writable[k].type === 'text' && !k.endsWith('_url'))].slice(
    0,
    Math.max(required.length, 2),
  );
  const example = { [resource.root]: Object.fromEntries(keys.map((k) => [k, exampleOf(k, writable[k])])) };
  return {
    required: route.kind === 'create',
    content: {
      'application/json': { schema: body, example },
      'application/x-www-form-urlencoded': {
        schema: body,
        example,
        encoding: { [resource.root]: { style: 'deepObject', explode: true } },
      },
    },
  };
}

function descriptionOf(route: RouteSpec, origin: { origin: RouteOrigin; source: string }): string {
  const lines: string[] = [];
  lines.push(
    `From: ${origin.source}${origin.origin === 'spec' ? '' : ` (${origin.origin === 'decisions' ? 'not in the spec: DECISIONS' : 'not in the spec: an addition'})`}.`,
  );
  if (route.kind === 'create' || route.kind === 'update')
    lines.push(
      `Body: \`${route.resource.root}[attr]=value\` form parameters, or JSON \`{"${route.resource.root}": {...}}\` (the attributes may also sit at the top of a JSON body). Unknown and read-only attributes are ignored.`,
    );
  if (route.kind === 'list' && route.searchId) lines.push('`search_id` runs a saved search instead of the other parameters.');
  for (const [status, meaning] of Object.entries(route.hooks?.doc?.statuses ?? {})) lines.push(`${status}: ${meaning}`);
  lines.push(`Also answered without the \`.json\` suffix. Runs the GraphQL operation \`${route.op}\`.`);
  return lines.join('\n\n');
}

/** One route's operation. */
function operationOf(
  schema: GraphQLSchema,
  operations: DocumentNode,
  route: RouteSpec,
  routes: readonly RouteSpec[],
  context: { ids: Map<RouteSpec, string>; modules: Map<string, string>; inputs: Map<V3Resource, string | null>; shared: SharedSchemas },
): Operation {
  const origin = originOf(route);
  const module = context.modules.get(`${route.method} ${route.path}`) ?? 'Admin lists';
  const responses: Record<string, ResponseOrRef> = { '200': successResponse(route, refTo(recordName(route.resource))) };
  for (const [status, meaning] of Object.entries(route.hooks?.doc?.statuses ?? {})) responses[status] = { description: meaning, headers: COMMON_HEADERS };
  if (route.method === 'GET')
    responses['304'] = { description: 'Not modified: `If-None-Match` named this answer’s ETag (or `*`). No body.', headers: COMMON_HEADERS };
  Object.assign(responses, errorResponses(route));
  const body = requestBody(schema, route, context.inputs);
  return {
    operationId: context.ids.get(route)!,
    summary: summaryOf(route, routes),
    description: descriptionOf(route, origin),
    tags: [module, ...(origin.origin === 'spec' ? [] : [ORIGIN_TAGS[origin.origin].name])],
    parameters: parametersOf(schema, operations, route, context.shared),
    ...(body ? { requestBody: body } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
    'x-crm-origin': origin.origin,
    'x-crm-source': origin.source,
    'x-crm-route': { method: route.method, path: route.path, kind: route.kind, resource: route.resource.root, operation: route.op },
  };
}

/** The operation of the document itself: no key, no rate limit. */
function documentOperation(): Operation {
  return {
    operationId: 'openApiDocument',
    summary: 'This document',
    description: 'The v3 surface as OpenAPI 3.1, generated at boot from the facade’s declarations (docs/openapi.md). No key needed; not rate limited.',
    tags: ['About', ORIGIN_TAGS.addition.name],
    parameters: [],
    security: [],
    responses: {
      '200': {
        description: 'The document.',
        headers: { ETag: { description: 'Changes when the service’s v3 surface changes.', schema: { type: 'string' } } },
        content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'paths'] } } },
      },
      '304': { description: 'Not modified since the `If-None-Match` ETag.' },
    },
    'x-crm-origin': 'addition',
    'x-crm-source': 'issue 25 §1',
  };
}

const INFO_DESCRIPTION = `The legacy v3 JSON API of the CRM, as this service reproduces it. The contract is the v3 spec
(\`crm-api-v3.md\`), settled where it is silent or contradicts itself by \`DECISIONS.md\`; each
operation says which (\`x-crm-origin\`: \`spec\`, \`decisions\` or \`addition\`, with \`x-crm-source\`), and the
routes beyond the spec are also listed under the two "Beyond the spec" tags.

- **Paths** end in \`.json\` as clients call them; each is also answered without it, with a trailing slash and with doubled slashes.
- **Keys**: \`api_key\` in the query (the contract), or \`Authorization: Bearer <key>\`, or \`X-Api-Key\`; a registered \`app_key\` raises the rate limit; a scoped key (\`crm_sk_…\`, docs/api-keys.md) is refused what its scopes do not allow with 403 \`{"error": "This API key lacks the scope deals:write"}\`, on every route.
- **Rate limit**: a token bucket per key (5 a second, up to 10 back to back; twice that with an \`app_key\`), shared with GraphQL; every response carries \`X-Ratelimit-Limit\`, \`X-Ratelimit-Remaining\` and \`X-Ratelimit-Reset\`; a 429 says \`Retry-After\`.
- **Bodies**: form parameters \`root[attr]=value\` (\`root[ids][]=1\` for lists, urlencoded or multipart) or JSON \`{"root": {...}}\`; unknown and read-only attributes are ignored, so a record read may be sent back whole. Input datetimes take ISO 8601, \`YYYY-MM-DD [HH:MM[:SS]]\` or the v3 form, in the user's zone without an offset.
- **Responses**: records as the field tables show them, datetimes \`YYYY/MM/DD HH:MM:SS +hhmm\` in the user's time zone, dates \`YYYY/MM/DD\`, money as decimal strings; lists in the envelope \`{entries, pagination}\`; \`attrs=a,b\` keeps only those keys.
- **Errors**: validation 422 as a bare array of \`{field, humanized_field, msg}\` (notes: \`{"errors": [...]}\`; account notifications: 400 \`{"error"}\`); a missing or hidden record 404 with an empty body (account notifications: \`{"error"}\`); 401, 403, 429 and 500 as \`{"error"}\`.

Generated at boot from the facade's route table, field tables and the GraphQL schema: see docs/openapi.md.`;

/** The whole document. Call once at boot (it reads and checks the facade's operations against the schema). */
export function openApiDocument(schema: GraphQLSchema, operations: DocumentNode): OpenApiDocument {
  const routes = v3Routes(schema);
  const resources = v3Resources(schema);
  const reader = new SelectionReader(schema, operations);
  const schemas: Record<string, JsonSchema> = { ...ERROR_SCHEMAS };
  const tools: ShapeTools = {
    fragment: (name) => {
      const found = reader.fragment(name);
      if (!found) throw new Error(`OpenAPI: no fragment ${name}`);
      return found;
    },
    record: (resource) => refTo(recordName(resource)),
    envelope: (entries) => ({
      type: 'object',
      properties: { entries: { type: 'array', items: entries }, pagination: refTo('Pagination') },
      required: ['entries', 'pagination'],
      additionalProperties: false,
    }),
  };
  const inputs = new Map<V3Resource, string | null>();
  for (const resource of resources) {
    const name = recordName(resource);
    if (schemas[name]) throw new Error(`OpenAPI: two resources are named ${name}`);
    schemas[name] = recordSchema(schema, reader, resource, tools);
    const input = inputSchema(schema, resource);
    if (input) schemas[inputName(resource)] = input;
    inputs.set(resource, input ? inputName(resource) : null);
  }
  const ids = operationIds(routes);
  const shared = new SharedSchemas(schemas);
  const modules = moduleNames();
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const path = documentPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(schema, operations, route, routes, { ids, modules, inputs, shared });
  }
  paths[OPENAPI_PATH] = { get: documentOperation() };
  const moduleTags = [...new Set(Object.values(paths).flatMap((p) => Object.values(p).map((o) => o.tags[0])))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'CRM v3 REST API',
      version: '3',
      description: INFO_DESCRIPTION,
    },
    servers: [{ url: V3_BASE, description: 'This service' }],
    tags: [...moduleTags.map((name) => ({ name })), ...Object.values(ORIGIN_TAGS)],
    'x-tagGroups': [
      { name: 'Resources', tags: moduleTags },
      { name: 'Beyond the spec', tags: Object.values(ORIGIN_TAGS).map((t) => t.name) },
    ],
    security: SECURITY,
    paths,
    components: { schemas, responses: RESPONSES, headers: HEADERS, securitySchemes: SECURITY_SCHEMES },
  };
}
