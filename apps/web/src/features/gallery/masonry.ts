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
    heights[shortest]! += heightOf(item);
  });
  return lists;
}

/** An item's height in units of column width; a small constant for the caption under each image. */
const heightOf = (item: Sized) => item.height / Math.max(1, item.width) + 0.25;

/**
 * The items whose top lies within `screen` pixels of the top of their column, for columns
 * `columnWidth` pixels wide: on screen at once, so their images load at once, not lazily.
 */
export function onFirstScreen<T extends Sized>(
  items: readonly T[],
  layout: readonly number[][],
  columnWidth: number,
  screen: number,
): Set<number> {
  const shown = new Set<number>();
  for (const column of layout) {
    let top = 0;
    for (const index of column) {
      const item = items[index];
      if (!item || top >= screen) break;
      shown.add(index);
      top += heightOf(item) * columnWidth;
    }
  }
  return shown;
}
