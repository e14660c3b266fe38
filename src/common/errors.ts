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
  | 'CONFLICT';

export interface FieldIssue {
  /** The GraphQL input field (camelCase), or `base` for the record as a whole. */
  readonly field: string;
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

export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND' as const;
  constructor(readonly resource: string, readonly id?: number | string) {
    super(`${resource}${id === undefined ? '' : ` ${id}`} not found`);
  }
  override extensions() {
    return { resource: this.resource };
  }
}

export class ValidationFailed extends DomainError {
  readonly code = 'VALIDATION_FAILED' as const;
  constructor(readonly issues: readonly FieldIssue[]) {
    super(issues.map((i) => `${i.field} ${i.message}`).join('; '));
  }
  static one(field: string, message: string): ValidationFailed {
    return new ValidationFailed([{ field, message }]);
  }
  override extensions() {
    return { fields: this.issues };
  }
}

export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED' as const;
  constructor(readonly retryAfterSeconds: number) {
    super(`Rate limit exceeded: retry in ${retryAfterSeconds} s`);
  }
  override extensions() {
    return { retryAfter: this.retryAfterSeconds };
  }
}

/** Collects field problems and throws them together, so a client sees every issue at once. */
export class Issues {
  private readonly list: FieldIssue[] = [];
  add(field: string, message: string): this {
    this.list.push({ field, message });
    return this;
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new ValidationFailed(this.list);
  }
}
