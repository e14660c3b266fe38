import type { Issues } from '../../common/errors';
import { storableInstant } from '../../db/sql';

export { storableInstant, withoutNul } from '../../db/sql';

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
