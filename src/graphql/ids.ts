/** Postgres `integer` bounds: an id outside them can match nothing, so it is answered as not found. */
export const MAX_ID = 2_147_483_647;

export function isValidId(id: number): boolean {
  return Number.isInteger(id) && id > 0 && id <= MAX_ID;
}
