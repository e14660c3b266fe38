/**
 * Typed coercion of v3 input values (DECISIONS: Paths and requests). Part of the v3 vocabulary
 * the core shares with the facade (saved searches store v3 conditions): src/kit/v3/coerce.ts.
 */
export * from '../../src/kit/v3/coerce';
