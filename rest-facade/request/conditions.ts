/**
 * `conditions[...]` of the v3 list routes, translated into GraphQL filters (v3 §4 list queries;
 * DECISIONS: Conditions the spec leaves unshown). The vocabulary lives in the core
 * (src/kit/v3/conditions.ts) because saved searches store v3 conditions and the core validates
 * and runs them with the same code; the tables sit beside each module's fields.
 */
export * from '../../src/kit/v3/conditions';
export * from '../../src/kit/v3/vocabulary';
