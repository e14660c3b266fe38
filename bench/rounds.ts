/** Small statistics over the per-round samples of an interleaved run (bench/README.md). */

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * The order of the arms in round `r`: as given in even rounds, reversed in odd ones (A B, B A,
 * A B, ...), so neither side always runs right after the other's load or always first.
 */
export function roundOrder<T>(arms: readonly T[], r: number): T[] {
  return r % 2 === 0 ? [...arms] : [...arms].reverse();
}
