/** HTTP statuses a v3 input problem can answer with: malformed (400), too large (413), invalid (422). */
export type V3InputStatus = 400 | 413 | 422;

/**
 * A v3 input refused before any query runs. `field` is the v3 name being blamed
 * (`person[last_name]`, `conditions[deal_created][from_date]`, `sort`, `per_page`) so the facade
 * can answer in the route's own error shape (v3 §7; DECISIONS: Status codes and bodies: 422 names
 * the field, never a 500).
 *
 * It lives in the core with the rest of the v3 vocabulary (coercion, conditions, sort) because
 * saved searches store v3 conditions and the core reads them too (src/modules/saved-searches);
 * the core turns it into its own errors there. The facade re-exports it from
 * rest-facade/errors/facade-error.ts under the same name.
 */
export class V3InputError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly status: V3InputStatus = 422,
  ) {
    super(message);
    this.name = 'V3InputError';
  }
}
