/**
 * Masonry from stored image sizes: each item goes to the column that is shortest so far, its
 * height known before the image loads, so nothing moves while images arrive and the reading
 * order stays roughly row by row.
 */
export interface Sized {
  width: number;
  height: number;
}

/** Item indexes per column. */
export function masonryColumns<T extends Sized>(items: readonly T[], columns: number): number[][] {
  const count = Math.max(1, Math.floor(columns));
  const lists: number[][] = Array.from({ length: count }, () => []);
  const heights = new Array<number>(count).fill(0);
  items.forEach((item, index) => {
    let shortest = 0;
    for (let c = 1; c < count; c += 1) if (heights[c]! < heights[shortest]!) shortest = c;
    lists[shortest]!.push(index);
    // Heights in units of column width; a small constant for the caption under each image.
    heights[shortest]! += item.height / Math.max(1, item.width) + 0.25;
  });
  return lists;
}
