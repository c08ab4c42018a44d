/**
 * Relative times of docs/web.md, "Timings" ('just now', '5 minutes ago', 'about 1 hour ago',
 * '3 days ago'...), in the active language (Lingui's ICU plurals: each language words and
 * inflects them its own way). Pure: the caller passes `now`, so the thresholds can be tested
 * exactly, and may pass its `i18n` (a component: `useLingui().i18n`, the one its render uses).
 */
import { i18n as globalI18n, type I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * < 1 min 'just now'; < 45 min 'N minutes ago'; 45–90 min 'about 1 hour ago'; 'N hours ago' up to
 * 24 h; 'N days ago' up to 30 days; 'about 1 month ago' / 'N months ago' up to 12 months; then
 * 'about 1 year ago' / 'N years ago'. A time in the future (clock skew) counts as 'just now'.
 */
export function formatRelativeTime(
  date: Date | string | number,
  now: Date | number = Date.now(),
  i18n: I18n = globalI18n,
): string {
  const then = new Date(date).getTime();
  const current = typeof now === 'number' ? now : now.getTime();
  if (Number.isNaN(then)) return '';
  const elapsed = Math.max(0, current - then);

  if (elapsed < MINUTE) return i18n._(msg`just now`);
  const minutes = Math.floor(elapsed / MINUTE);
  if (minutes < 45) return i18n._(msg`${plural(minutes, { one: '# minute ago', other: '# minutes ago' })}`);
  if (minutes < 90) return i18n._(msg`about 1 hour ago`);
  if (elapsed < DAY) {
    const hours = Math.min(23, Math.round(elapsed / HOUR));
    return i18n._(msg`${plural(hours, { one: '# hour ago', other: '# hours ago' })}`);
  }
  const days = Math.floor(elapsed / DAY);
  if (days < 30) return i18n._(msg`${plural(days, { one: '# day ago', other: '# days ago' })}`);
  if (days < 365) {
    const months = Math.min(11, Math.floor(days / 30));
    return months <= 1
      ? i18n._(msg`about 1 month ago`)
      : i18n._(msg`${plural(months, { one: '# month ago', other: '# months ago' })}`);
  }
  const years = Math.floor(days / 365);
  return years === 1
    ? i18n._(msg`about 1 year ago`)
    : i18n._(msg`${plural(years, { one: '# year ago', other: '# years ago' })}`);
}

/**
 * One formatter per language for every card: `toLocaleString(undefined, options)` builds a new
 * one per call, and a feed page of cards spent 80 ms in it on first render (a CPU profile of `/`).
 */
const fullDates = new Map<string, Intl.DateTimeFormat>();

/** The full date for a tooltip or title: 'Tuesday, 3 June 2025 at 14:05', in the active language. */
export function formatFullDate(date: Date | string | number, i18n: I18n = globalI18n): string {
  const value = new Date(date);
  if (Number.isNaN(value.getTime())) return '';
  const locale = i18n.locale || 'en';
  let format = fullDates.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' });
    fullDates.set(locale, format);
  }
  return format.format(value);
}
