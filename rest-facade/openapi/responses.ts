import type { ErrorShape, RouteSpec } from '../routes/route-spec';
import { refTo } from './records';
import type { JsonSchema } from './json-schema';

/**
 * What v3 answers besides a success, from the error mapping (rest-facade/errors/map-errors.ts) and
 * the route's declared `errorShape` (v3 §7; DECISIONS: Status codes and bodies), with the headers
 * every v3 response carries (DECISIONS: Responses).
 */

export interface Header {
  readonly description: string;
  readonly schema: JsonSchema;
  readonly required?: boolean;
}

export interface MediaType {
  readonly schema: JsonSchema;
  readonly example?: unknown;
  readonly examples?: Readonly<Record<string, { readonly summary?: string; readonly value: unknown }>>;
  readonly encoding?: Readonly<Record<string, { readonly style?: string; readonly explode?: boolean; readonly contentType?: string }>>;
}

export interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, Header | { readonly $ref: string }>>;
  readonly content?: Readonly<Record<string, MediaType>>;
}

export type ResponseOrRef = Response | { readonly $ref: string };

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** On every v3 response, errors included. */
export const COMMON_HEADERS = {
  'X-Ratelimit-Limit': headerRef('X-Ratelimit-Limit'),
  'X-Ratelimit-Remaining': headerRef('X-Ratelimit-Remaining'),
  'X-Ratelimit-Reset': headerRef('X-Ratelimit-Reset'),
  'X-Request-Id': headerRef('X-Request-Id'),
} as const;

export const HEADERS: Readonly<Record<string, Header>> = {
  'X-Ratelimit-Limit': { description: 'The size of the caller’s token bucket (DECISIONS: Auth and rate limit).', schema: { type: 'integer', minimum: 0 } },
  'X-Ratelimit-Remaining': { description: 'Tokens left in the bucket after this request.', schema: { type: 'integer', minimum: 0 } },
  'X-Ratelimit-Reset': { description: 'When the bucket is full again, in epoch seconds.', schema: { type: 'integer', minimum: 0 } },
  'X-Request-Id': { description: 'The request’s id, as logged; give it to support with a 500.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before the next request.', schema: { type: 'integer', minimum: 1 }, required: true },
};

const JSON_TYPE = 'application/json';

export const ERROR_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Error: {
    type: 'object',
    description: 'An error that is not about a record’s attributes.',
    properties: { error: { type: 'string' } },
    required: ['error'],
    additionalProperties: false,
  },
  InternalError: {
    type: 'object',
    description: 'A failure of the service; never a stack trace.',
    properties: { error: { const: 'Internal error' }, request_id: { type: 'string' } },
    required: ['error', 'request_id'],
    additionalProperties: false,
  },
  ValidationError: {
    type: 'object',
    properties: {
      field: {
        type: 'string',
        description: 'The v3 attribute or parameter (`last_name`, `conditions[deal_created][from_date]`, `sort`; `base` for the record).',
      },
      humanized_field: { type: 'string', description: 'The field as Rails humanizes it (`Last name`).' },
      msg: { type: 'string', examples: ["can't be blank"] },
    },
    required: ['field', 'humanized_field', 'msg'],
    additionalProperties: false,
  },
  ValidationErrors: {
    type: 'array',
    description: 'v3 §7: most resources answer a bare array.',
    items: refTo('ValidationError'),
    minItems: 1,
    examples: [[{ field: 'name', humanized_field: 'Name', msg: "can't be blank" }]],
  },
  WrappedValidationErrors: {
    type: 'object',
    description: 'v3 §4.2, §7: notes wrap the array.',
    properties: { errors: refTo('ValidationErrors') },
    required: ['errors'],
    additionalProperties: false,
    examples: [{ errors: [{ field: 'content', humanized_field: 'Content', msg: "can't be blank" }] }],
  },
  Pagination: {
    type: 'object',
    description: 'v3 §8.2; DECISIONS: Paging. `pages` is always there, at least 1: loop `1..pages`.',
    properties: {
      page: { type: 'integer', minimum: 1 },
      per_page: { type: 'integer', minimum: 1 },
      total: { type: 'integer', minimum: 0 },
      pages: { type: 'integer', minimum: 1 },
      page_var: { const: 'page' },
    },
    required: ['page', 'per_page', 'total', 'pages', 'page_var'],
    additionalProperties: false,
    examples: [{ page: 1, per_page: 200, total: 2, pages: 1, page_var: 'page' }],
  },
  FeedPagination: {
    type: 'object',
    description: 'A feed has no total: read on with `since=next_cursor` while `has_more`.',
    properties: {
      per_page: { type: 'integer', minimum: 1 },
      next_cursor: { type: ['string', 'null'], description: 'Where the next read starts (`since`); null when nothing was read yet.' },
      has_more: { type: 'boolean' },
    },
    required: ['per_page', 'next_cursor', 'has_more'],
    additionalProperties: false,
  },
};

const json = (schema: JsonSchema, example?: unknown): Readonly<Record<string, MediaType>> => ({
  [JSON_TYPE]: { schema, ...(example === undefined ? {} : { example }) },
});

/** The shared responses, referenced by each operation. */
export const RESPONSES: Readonly<Record<string, Response>> = {
  BadRequest: {
    description:
      'The request cannot be read: a body that is not JSON or form data, a JSON body that is not an object, parameters whose names conflict (`a=1&a[b]=2`).',
    headers: COMMON_HEADERS,
    content: json(refTo('Error'), { error: 'body is not valid JSON' }),
  },
  Unauthorized: {
    description: 'No `api_key` (nor `Authorization: Bearer`, `X-Api-Key`), an unknown one (a revoked or expired scoped key too), or an unknown `app_key`.',
    headers: COMMON_HEADERS,
    content: json(refTo('Error'), { error: 'Unknown api_key' }),
  },
  Forbidden: {
    description: 'Administrators only (DECISIONS: Admin surface: writes of the admin lists; webhooks: reads too).',
    headers: COMMON_HEADERS,
    content: json(refTo('Error'), { error: 'Only administrators may change admin lists' }),
  },
  NotFound: {
    description: 'No such record, or one the user may not see (answered alike); a malformed id too. Empty body (v3 §7).',
    headers: COMMON_HEADERS,
  },
  NotFoundError: {
    description: 'No such record, or one the user may not see (answered alike); a malformed id too (v3 §4.9).',
    headers: COMMON_HEADERS,
    content: json(refTo('Error'), { error: 'Not found' }),
  },
  Gone: {
    description: 'The cursor points before the oldest change kept: start again from the lists.',
    headers: COMMON_HEADERS,
    content: json(refTo('Error')),
  },
  PayloadTooLarge: {
    description: 'The body, or the number, nesting or length of the parameters, is beyond the limits.',
    headers: COMMON_HEADERS,
    content: json(refTo('Error'), { error: 'Request body is larger than 1048576 bytes' }),
  },
  ValidationFailed: {
    description: 'Invalid attributes or parameters, each named (v3 §7).',
    headers: COMMON_HEADERS,
    content: json(refTo('ValidationErrors')),
  },
  ValidationFailedWrapped: {
    description: 'Invalid attributes or parameters, each named, wrapped in `errors` (v3 §4.2).',
    headers: COMMON_HEADERS,
    content: json(refTo('WrappedValidationErrors')),
  },
  BadParameters: {
    description: 'Missing or invalid attributes or parameters (v3 §4.9, §7: `{"error"}` with status 400 on this resource).',
    headers: COMMON_HEADERS,
    content: json(refTo('Error'), { error: "Text can't be blank" }),
  },
  Conflict: {
    description:
      'An addition to v3: a request with this `Idempotency-Key` is still running (issue 26 §1): retry after it, when its answer is replayed; or the write met concurrent writes of the same records more than once and was rolled back (nothing was written): send it again after `Retry-After`.',
    headers: { 'Retry-After': headerRef('Retry-After'), ...COMMON_HEADERS },
    content: json(refTo('Error'), { error: 'A request with this Idempotency-Key is still running: retry after it' }),
  },
  PreconditionFailed: {
    description:
      'An addition to v3 (issue 26 §2): `If-Match` named no ETag the record has now (it changed since it was read, or the tag was weak), or the resource has no show to compare with. Nothing was written; the `ETag` header carries the current one.',
    headers: { ETag: { description: 'The record’s current ETag.', schema: { type: 'string' } }, ...COMMON_HEADERS },
    content: json(refTo('Error'), {
      error: 'The record changed since the ETag given in If-Match (its current ETag is in the ETag header): read it again, then retry',
    }),
  },
  PreconditionRequired: {
    description:
      'An addition to v3 (issue 26 §2; RFC 6585): the account requires `If-Match` on updates and deletes of its records (GraphQL `updateAccountSettings`), and none came. Nothing was written.',
    headers: COMMON_HEADERS,
    content: json(refTo('Error'), {
      error: 'This account requires an If-Match header (the ETag of the record as you read it) on updates and deletes',
    }),
  },
  TooManyRequests: {
    description:
      'The caller’s token bucket is empty (DECISIONS: 5 a second, up to 10 back to back; twice that with an `app_key`), or too many failed keys came from this address.',
    headers: { 'Retry-After': headerRef('Retry-After'), ...COMMON_HEADERS },
    content: json(refTo('Error'), { error: 'Rate limit exceeded: retry in 1 s' }),
  },
  InternalError: {
    description: 'A failure of the service (DECISIONS: Status codes and bodies).',
    headers: COMMON_HEADERS,
    content: json(refTo('InternalError'), { error: 'Internal error', request_id: '5f0c2a1e-…' }),
  },
  ServiceUnavailable: {
    description: 'A statement ran past the database’s time limit and was cancelled: try again or ask for less.',
    headers: COMMON_HEADERS,
    content: json(refTo('Error')),
  },
};

const ref = (name: keyof typeof RESPONSES) => ({ $ref: `#/components/responses/${name}` });

/** The validation reply of an error shape. */
function validation(shape: ErrorShape): ResponseOrRef {
  return shape === 'array' ? ref('ValidationFailed') : shape === 'wrapped' ? ref('ValidationFailedWrapped') : ref('BadParameters');
}

/** Whether a route reads input that can be refused (a body, conditions, sort, flags, a cursor, what its hooks read). */
function takesInput(route: RouteSpec): boolean {
  const doc = route.hooks?.doc;
  return (
    route.kind === 'create' ||
    route.kind === 'update' ||
    route.kind === 'list' ||
    route.kind === 'feed' ||
    route.kind === 'delete' ||
    Object.keys(route.flags ?? {}).length > 0 ||
    Object.keys(doc?.query ?? {}).length > 0
  );
}

/** The methods an `Idempotency-Key` applies to (rest-facade/pipeline.ts). */
export const IDEMPOTENT: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every answer but the success, by status. */
export function errorResponses(route: RouteSpec): Record<string, ResponseOrRef> {
  const out: Record<string, ResponseOrRef> = {};
  const hasRecordPath = route.path.includes(':');
  const errorObject = route.errorShape === 'error-object';
  out['400'] = errorObject
    ? {
        description: `${RESPONSES.BadParameters.description} Also: ${RESPONSES.BadRequest.description}`,
        headers: COMMON_HEADERS,
        content: json(refTo('Error')),
      }
    : ref('BadRequest');
  out['401'] = ref('Unauthorized');
  if (route.path.startsWith('/admin/')) out['403'] = ref('Forbidden');
  if (hasRecordPath || route.searchId) out['404'] = errorObject ? ref('NotFoundError') : ref('NotFound');
  if (route.kind === 'feed') out['410'] = ref('Gone');
  if (IDEMPOTENT.has(route.method)) out['409'] = ref('Conflict');
  if (route.kind === 'update' || route.kind === 'delete') {
    out['412'] = ref('PreconditionFailed');
    out['428'] = ref('PreconditionRequired');
  }
  out['413'] = ref('PayloadTooLarge');
  // A write also answers 422 when its Idempotency-Key was used with another request.
  if ((takesInput(route) || IDEMPOTENT.has(route.method)) && !errorObject) out['422'] = validation(route.errorShape);
  out['429'] = ref('TooManyRequests');
  out['500'] = ref('InternalError');
  out['503'] = ref('ServiceUnavailable');
  return out;
}
