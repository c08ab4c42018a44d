/**
 * Relative times of docs/web.md, "Timings" ('just now', '5 minutes ago', 'about 1 hour ago',
 * '3 days ago'...). Pure: the caller passes `now`, so the thresholds can be tested exactly.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

/**
 * < 1 min 'just now'; < 45 min 'N minutes ago'; 45–90 min 'about 1 hour ago'; 'N hours ago' up to
 * 24 h; 'N days ago' up to 30 days; 'about 1 month ago' / 'N months ago' up to 12 months; then
 * 'about 1 year ago' / 'N years ago'. A time in the future (clock skew) counts as 'just now'.
 */
export function formatRelativeTime(date: Date | string | number, now: Date | number = Date.now()): string {
  const then = new Date(date).getTime();
  const current = typeof now === 'number' ? now : now.getTime();
  if (Number.isNaN(then)) return '';
  const elapsed = Math.max(0, current - then);

  if (elapsed < MINUTE) return 'just now';
  const minutes = Math.floor(elapsed / MINUTE);
  if (minutes < 45) return plural(minutes, 'minute');
  if (minutes < 90) return 'about 1 hour ago';
  if (elapsed < DAY) return plural(Math.min(23, Math.round(elapsed / HOUR)), 'hour');
  const days = Math.floor(elapsed / DAY);
  if (days < 30) return plural(days, 'day');
  if (days < 365) {
    const months = Math.min(11, Math.floor(days / 30));
    return months <= 1 ? 'about 1 month ago' : plural(months, 'month');
  }
  const years = Math.floor(days / 365);
  return years === 1 ? 'about 1 year ago' : plural(years, 'year');
}

/**
 * One formatter for every card: `toLocaleString(undefined, options)` builds a new one per call,
 * and a feed page of cards spent 80 ms in it on first render (a CPU profile of `/`).
 */
let fullDate: Intl.DateTimeFormat | undefined;

/** The full date for a tooltip or title: 'Tuesday, 3 June 2025 at 14:05' in the user's locale. */
export function formatFullDate(date: Date | string | number): string {
  const value = new Date(date);
  if (Number.isNaN(value.getTime())) return '';
  fullDate ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });
  return fullDate.format(value);
}
