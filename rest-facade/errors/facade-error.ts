/** HTTP statuses a v3 input problem can answer with: malformed (400), too large (413), invalid (422). */
export type FacadeInputStatus = 400 | 413 | 422;

/**
 * A v3 request input the facade refuses before any GraphQL runs. `field` is the v3 name being
 * blamed (`person[last_name]`, `conditions[deal_created][from_date]`, `sort`, `per_page`) so the
 * route can answer in its own error shape (v3 §7; DECISIONS: Status codes and bodies: 422 names
 * the field, never a 500).
 */
export class FacadeInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly status: FacadeInputStatus = 422,
  ) {
    super(message);
    this.name = 'FacadeInputError';
  }
}
