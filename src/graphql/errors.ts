import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ConflictError, DomainError, isStatementTimeout, isTransientConflict, StatementTimeoutError, ValidationFailed } from '../common/errors';
import { logger } from '../common/logger';

function domainErrorOf(error: unknown): DomainError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof DomainError) return current;
    if (current instanceof UniqueConstraintViolationException) return ValidationFailed.one('base', 'TAKEN', 'has already been taken');
    if (isStatementTimeout(current)) return new StatementTimeoutError();
    if (isTransientConflict(current)) return new ConflictError();
    current = (current as { originalError?: unknown }).originalError;
  }
  return null;
}

/** The error a client must not see (it is masked as "Internal error"), or null when it is a client or domain error. */
export function maskedCause(error: unknown): unknown {
  if (domainErrorOf(error)) return null;
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) return null;
  return original ?? error;
}

const logged = new WeakSet<object>();

/**
 * Logs a masked error once, with the request id when known: Apollo's formatError has no context,
 * so /graphql logs from a plugin that has it (didEncounterErrors) before formatError runs.
 */
export function logMasked(error: unknown, requestId: string | undefined, path?: GraphQLFormattedError['path']): void {
  const cause = maskedCause(error);
  if (cause === null) return;
  if (typeof cause === 'object' && cause !== null) {
    if (logged.has(cause)) return;
    logged.add(cause);
  }
  logger.error('unhandled error', { requestId, error: cause instanceof Error ? (cause.stack ?? cause.message) : String(cause), path });
}

/**
 * One mapper for both surfaces: domain errors keep their code and details, GraphQL's own request
 * errors (syntax, validation, variable coercion) pass through, anything else is masked and logged
 * (with `requestId` when the caller knows it).
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown, requestId?: string): GraphQLFormattedError {
  const domain = domainErrorOf(error);
  if (domain) {
    return { message: domain.message, path: formatted.path, locations: formatted.locations, extensions: { code: domain.code, ...domain.extensions() } };
  }
  if (maskedCause(error) === null) {
    const code = (formatted.extensions?.code as string | undefined) ?? 'BAD_USER_INPUT';
    return { message: formatted.message, path: formatted.path, locations: formatted.locations, extensions: { code } };
  }
  logMasked(error, requestId, formatted.path);
  return { message: 'Internal error', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** For errors raised outside execution (e.g. in the in-process executor) that need the same shape. */
export function formatAny(error: unknown, requestId?: string): GraphQLFormattedError {
  const asGraphQL =
    error instanceof GraphQLError
      ? error
      : new GraphQLError(error instanceof Error ? error.message : String(error), { originalError: error instanceof Error ? error : undefined });
  return formatError(asGraphQL.toJSON(), asGraphQL, requestId);
}
