/** Joins class names, skipping falsy ones. Enough for our variants without a class-merging dependency. */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}
