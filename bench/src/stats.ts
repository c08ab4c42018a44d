/** Figures the benches print, computed once. */

/**
 * The middle value of `values` (not changed); for an even count, the upper of the two middle ones,
 * as the benches have always printed it.
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
