/**
 * `sort` of the v3 list routes (DECISIONS: Conditions: `[-]table.column`, whitelisted). Shared with
 * the core, which reads a saved search's sort with the same code: src/kit/v3/sort.ts.
 */
export * from '../../src/kit/v3/sort';
