/**
 * Typed domain errors with stable codes. Services throw these; each surface maps them once
 * (GraphQL: extensions.code; v3 facade: status and body shape per route). Anything else is masked.
 */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'VALIDATION_FAILED'
  | 'BAD_USER_INPUT'
  | 'RATE_LIMITED'
  | 'TIMEOUT'
  | 'CONFLICT'
  | 'GONE'
  | 'STALE'
  | 'PRECONDITION_REQUIRED';

/**
 * Why a field was refused, stable for clients (GraphQL `UserErrorCode`): a form can branch on the
 * code and show the message.
 */
export type IssueCode = 'BLANK' | 'TOO_LONG' | 'INVALID' | 'NOT_FOUND' | 'OUT_OF_RANGE' | 'TAKEN' | 'DUPLICATE' | 'AMBIGUOUS_MATCH';

export interface FieldIssue {
  /** The GraphQL input field (camelCase, dotted below the top), or `base` for the record as a whole. */
  readonly field: string;
  readonly code: IssueCode;
  readonly message: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  extensions(): Record<string, unknown> {
    return {};
  }
}

export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED' as const;
  constructor(message = 'Unknown api_key') {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN' as const;
  constructor(message = 'Not allowed') {
    super(message);
  }
}

/**
 * A scoped API key (issue 26 §3) lacks the scope an operation needs: FORBIDDEN naming the scope
 * (GraphQL `extensions.scope`; v3 a 403 with the message).
 */
export class ScopeMissingError extends DomainError {
  readonly code = 'FORBIDDEN' as const;
  constructor(readonly scope: string) {
    super(`This API key lacks the scope ${scope}`);
  }
  override extensions() {
    return { scope: this.scope };
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND' as const;
  constructor(
    readonly resource: string,
    readonly id?: number | string,
  ) {
    super(`${resource}${id === undefined ? '' : ` ${id}`} not found`);
  }
  override extensions() {
    return { resource: this.resource };
  }
}

/** An update or delete named a version of the record (`expectedVersion`, v3 If-Match) that is no longer its version. */
export class StaleError extends DomainError {
  readonly code = 'STALE' as const;
  constructor(
    readonly resource: string,
    readonly expected: number,
    readonly current: number,
  ) {
    super(`${resource} changed since version ${expected} (it is at version ${current} now): read it again, then retry`);
  }
  override extensions() {
    return { resource: this.resource, currentVersion: this.current };
  }
}

/** The account requires updates and deletes to name the version they change, and this one did not. */
export class PreconditionRequiredError extends DomainError {
  readonly code = 'PRECONDITION_REQUIRED' as const;
  constructor(readonly resource: string) {
    super(`This account requires the version of the ${resource} you change: give expectedVersion (v3: an If-Match header with its ETag)`);
  }
}

export class ValidationFailed extends DomainError {
  readonly code = 'VALIDATION_FAILED' as const;
  constructor(readonly issues: readonly FieldIssue[]) {
    super(issues.map((i) => `${i.field} ${i.message}`).join('; '));
  }
  static one(field: string, code: IssueCode, message: string): ValidationFailed {
    return new ValidationFailed([{ field, code, message }]);
  }
  override extensions() {
    return { fields: this.issues };
  }
}

export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED' as const;
  constructor(
    readonly retryAfterSeconds: number,
    reason = 'Rate limit exceeded',
  ) {
    super(`${reason}: retry in ${retryAfterSeconds} s`);
  }
  override extensions() {
    return { retryAfter: this.retryAfterSeconds };
  }
}

/**
 * A statement ran past the database's `statement_timeout` (DATABASE_STATEMENT_TIMEOUT_MS) and was
 * cancelled. Not the client's fault and not a crash: GraphQL `TIMEOUT` with HTTP 503, v3 503.
 */
export class StatementTimeoutError extends DomainError {
  readonly code = 'TIMEOUT' as const;
  constructor() {
    super('The request took too long in the database and was cancelled; try again or ask for less');
  }
}

/**
 * A write met concurrent writes of the same records and lost more than once (a deadlock or a
 * serialization failure, retried by `mutation()` before this is raised): nothing was written; the
 * same request sent again will most likely pass. GraphQL `CONFLICT`; v3 409 with Retry-After.
 */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT' as const;
  constructor() {
    super('The write met concurrent writes of the same records and was rolled back; nothing was written; send it again');
  }
}

/** The SQLSTATE of `error` as pg raises it or as MikroORM wraps it (the code is copied), if any. */
function sqlStateOf(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return null;
}

/** PostgreSQL gave up a transaction for another's sake (deadlock_detected 40P01, serialization_failure 40001): running it again is the cure. */
export function isTransientConflict(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === '40P01' || state === '40001';
}

/** PostgreSQL's query_canceled (57014), as pg raises it or as MikroORM wraps it (the code is copied). */
export function isStatementTimeout(error: unknown): boolean {
  return sqlStateOf(error) === '57014';
}

/** What the request points at is no longer kept (a change feed cursor past the retention): start again from the lists. v3: 410. */
export class GoneError extends DomainError {
  readonly code = 'GONE' as const;
  constructor(
    message: string,
    readonly argument: string,
  ) {
    super(message);
  }
  override extensions(): Record<string, unknown> {
    return { argument: this.argument };
  }
}

/**
 * A request argument that cannot be used at all (a malformed cursor, a filter nested too deep):
 * a top-level error naming the argument, not a user error of a record.
 */
export class BadInputError extends DomainError {
  readonly code = 'BAD_USER_INPUT' as const;
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(`${argument}: ${message}`);
  }
  override extensions() {
    return { argument: this.argument };
  }
}

/** Collects field problems and throws them together, so a client sees every issue at once. */
export class Issues {
  private readonly list: FieldIssue[] = [];
  add(field: string, code: IssueCode, message: string): this {
    this.list.push({ field, code, message });
    return this;
  }
  blank(field: string): this {
    return this.add(field, 'BLANK', "can't be blank");
  }
  tooLong(field: string, maximum: number): this {
    return this.add(field, 'TOO_LONG', `is too long (maximum is ${maximum} characters)`);
  }
  /** A referenced record that does not exist, or that the viewer may not see. */
  missing(field: string): this {
    return this.add(field, 'NOT_FOUND', 'does not exist');
  }
  outOfRange(field: string): this {
    return this.add(field, 'OUT_OF_RANGE', 'is out of range');
  }
  taken(field: string): this {
    return this.add(field, 'TAKEN', 'has already been taken');
  }
  invalid(field: string, message: string): this {
    return this.add(field, 'INVALID', message);
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new ValidationFailed(this.list);
  }
}
