import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError, isStatementTimeout, StatementTimeoutError, ValidationFailed } from '../common/errors';
import { logger } from '../common/logger';

function domainErrorOf(error: unknown): DomainError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof DomainError) return current;
    if (current instanceof UniqueConstraintViolationException) return ValidationFailed.one('base', 'has already been taken');
    if (isStatementTimeout(current)) return new StatementTimeoutError();
    current = (current as { originalError?: unknown }).originalError;
  }
  return null;
}

/**
 * One mapper for both surfaces: domain errors keep their code and details, GraphQL's own request
 * errors (syntax, validation, variable coercion) pass through, anything else is masked and logged.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const domain = domainErrorOf(error);
  if (domain) {
    return { message: domain.message, path: formatted.path, locations: formatted.locations, extensions: { code: domain.code, ...domain.extensions() } };
  }
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) {
    const code = (formatted.extensions?.code as string | undefined) ?? 'BAD_USER_INPUT';
    return { message: formatted.message, path: formatted.path, locations: formatted.locations, extensions: { code } };
  }
  logger.error('unhandled error', { error: original instanceof Error ? original.stack ?? original.message : String(original), path: formatted.path });
  return { message: 'Internal error', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** For errors raised outside execution (e.g. in the in-process executor) that need the same shape. */
export function formatAny(error: unknown): GraphQLFormattedError {
  const asGraphQL = error instanceof GraphQLError ? error : new GraphQLError(error instanceof Error ? error.message : String(error), { originalError: error instanceof Error ? error : undefined });
  return formatError(asGraphQL.toJSON(), asGraphQL);
}
