/**
 * A count with its noun, as the app writes counts everywhere: "1 like", "3 likes",
 * "1,204 people". A count button's accessible name ends with it ("Like, 3 likes"), so the number
 * it shows beside its icon (formatCount) must be written the same way.
 */
const format = new Intl.NumberFormat('en');

/** "1,204": a count as shown. */
export function formatCount(count: number): string {
  return format.format(count);
}

/** "1 post" / "4 posts": `one` for exactly one, `many` otherwise. */
export function countLabel(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
