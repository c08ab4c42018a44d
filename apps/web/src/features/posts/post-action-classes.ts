/**
 * The look of a post card's footer actions (like, comment, repost, quote, share, bookmark,
 * report): one place, so they stay alike. Tighter on a phone, where seven share a 326 px row.
 */
export const postActionClasses =
  'inline-flex h-9 items-center gap-1.5 rounded-md px-2 sm:px-2.5 text-sm font-medium text-muted-foreground transition-colors ' +
  'hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-[18px]';
