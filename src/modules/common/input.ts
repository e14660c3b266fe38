import { Issues } from '../../common/errors';

/**
 * Input that would fail in PostgreSQL rather than in validation (a 500): checked or cleaned before
 * it reaches SQL. The v3 facade refuses the same input earlier; GraphQL clients reach here directly.
 */

/** PostgreSQL holds years 1..9999 as written by the driver (ISO text); anything else fails the statement. */
export function storableInstant(value: Date): boolean {
  const year = value.getUTCFullYear();
  return Number.isFinite(value.getTime()) && year >= 1 && year <= 9999;
}

/** NUL cannot be stored or compared in PostgreSQL text (a 500); dropped, as assignFields drops it from columns. */
export const withoutNul = (text: string): string => text.replace(/\u0000/g, '');

/**
 * Years 1..9999 only, as for filters: `9999-12-31 23:59 -0500` is year 10000 in UTC and would fail
 * the write. Each field outside them is reported as out of range and left unapplied.
 */
export function dropUnstorableDates<I extends object>(input: I, fields: ReadonlyArray<keyof I & string>, issues: Issues): void {
  for (const field of fields) {
    const value = input[field];
    if (value instanceof Date && !storableInstant(value)) {
      issues.outOfRange(field);
      input[field] = undefined as I[typeof field];
    }
  }
}
