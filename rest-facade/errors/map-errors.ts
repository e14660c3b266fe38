import type { V3Reply } from '../response/reply';
import type { ErrorShape } from '../routes/route-spec';
import type { V3Resource } from '../resources/resource-spec';
import { v3FieldName } from '../resources/writable';
import { humanize } from '../response/humanize';

/** The shape of an error as the core's GraphQL layer formats it. */
export interface CoreError {
  readonly message: string;
  readonly extensions?: { readonly code?: unknown; readonly fields?: unknown; readonly retryAfter?: unknown; readonly [key: string]: unknown };
}

export type { V3Reply } from '../response/reply';

export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

/** 422 body by route (v3 §7; DECISIONS: Status codes and bodies). */
export function validationReply(shape: ErrorShape, problems: readonly FieldProblem[]): V3Reply {
  const list = problems.map((p) => ({ field: p.field, humanized_field: humanize(p.field), msg: p.message }));
  switch (shape) {
    case 'array':
      return { status: 422, body: list };
    case 'wrapped':
      return { status: 422, body: { errors: list } };
    case 'error-object':
      return { status: 400, body: { error: list.map((p) => `${p.humanized_field} ${p.msg}`).join(', ') } };
  }
}

/** A mutation payload's user error (GraphQL `UserError`). */
export interface UserError {
  /** Path from the mutation's arguments: `["input", "lastName"]`, `["options", "todoTemplateId"]`, `["id"]`; null for the record. */
  readonly field: readonly string[] | null;
  readonly code: string;
  readonly message: string;
}

/**
 * User errors to the v3 reply: the record named by `id` missing (or hidden) is a 404, as a
 * lookup's; anything else is the route's 422 naming v3 attributes (`base` for the record).
 */
export function replyForUserErrors(errors: readonly UserError[], shape: ErrorShape, resource: V3Resource): V3Reply {
  if (errors.some((e) => e.code === 'NOT_FOUND' && e.field?.length === 1 && e.field[0] === 'id')) {
    return shape === 'error-object' ? { status: 404, body: { error: 'Not found' } } : { status: 404 };
  }
  // Conditional writes (issue 26 §2): the version If-Match named is no longer the record's (412),
  // or the account requires one and the request had no If-Match (428, RFC 6585).
  const stale = errors.find((e) => e.code === 'STALE');
  if (stale) return { status: 412, body: { error: `The record changed since the ETag given in If-Match: read it again, then retry` } };
  const required = errors.find((e) => e.code === 'PRECONDITION_REQUIRED');
  if (required)
    return { status: 428, body: { error: 'This account requires an If-Match header (the ETag of the record as you read it) on updates and deletes' } };
  const problems = errors.map((e) => ({
    field: e.field && e.field.length > 1 ? v3FieldName(resource, e.field.slice(1).join('.')) : 'base',
    message: e.message,
  }));
  return validationReply(shape, problems);
}

/**
 * GraphQL error code to v3 status and body. The first error decides (an operation here has one
 * root field). Unknown codes are internal errors: masked, with the request id for support.
 */
export function replyForErrors(errors: readonly CoreError[], shape: ErrorShape, resource: V3Resource, requestId: string): V3Reply {
  const error = errors[0];
  const code = error.extensions?.code;
  switch (code) {
    case 'NOT_FOUND':
      return shape === 'error-object' ? { status: 404, body: { error: error.message } } : { status: 404 };
    case 'VALIDATION_FAILED': {
      const fields = Array.isArray(error.extensions?.fields) ? (error.extensions.fields as FieldProblem[]) : [{ field: 'base', message: error.message }];
      return validationReply(
        shape,
        fields.map((f) => ({ field: v3FieldName(resource, f.field), message: f.message })),
      );
    }
    case 'BAD_USER_INPUT':
    case 'GRAPHQL_VALIDATION_FAILED':
      return validationReply(shape, [{ field: 'base', message: error.message }]);
    case 'RATE_LIMITED': {
      const retryAfter = Number(error.extensions?.retryAfter ?? 1);
      return { status: 429, body: { error: `Rate limit exceeded. Retry in ${retryAfter} second(s).` }, headers: { 'Retry-After': String(retryAfter) } };
    }
    case 'TIMEOUT': // a statement ran past DATABASE_STATEMENT_TIMEOUT_MS: the service, not the request, failed
      return { status: 503, body: { error: error.message } };
    case 'CONFLICT': // concurrent writes of the same records won, more than once: nothing was written, send it again
      return { status: 409, body: { error: error.message }, headers: { 'Retry-After': '1' } };
    case 'UNAUTHENTICATED':
      return { status: 401, body: { error: error.message } };
    case 'FORBIDDEN':
      return { status: 403, body: { error: error.message } };
    case 'GONE':
      return { status: 410, body: { error: error.message } };
    default:
      return { status: 500, body: { error: 'Internal error', request_id: requestId } };
  }
}
