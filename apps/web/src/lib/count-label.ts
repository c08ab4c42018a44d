/**
 * A count with its noun, as the app writes counts everywhere: "1 like", "3 likes",
 * "1,204 people". A count button's accessible name ends with it ("Like, 3 likes"), so the number
 * it shows beside its icon (formatCount) must be written the same way: both in the active
 * language's digits and separators ("1.204" in German, "١٬٢٠٤" in Arabic).
 *
 * For text that is translated, write the count as an ICU plural in the message itself
 * (`plural(count, { one: '# like', other: '# likes' })` from '@lingui/core/macro', or `<Plural>`):
 * other languages have other plural forms than English's two (Arabic has six). `countLabel` only
 * picks between the two English nouns it is given.
 */
import { i18n as globalI18n, type I18n } from '@lingui/core';

/** One formatter per language: a feed draws many counts. */
const formats = new Map<string, Intl.NumberFormat>();

/** "1,204": a count as shown, in the active language (or `i18n`'s, a component's own). */
export function formatCount(count: number, i18n: I18n = globalI18n): string {
  const locale = i18n.locale || 'en';
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    formats.set(locale, format);
  }
  return format.format(count);
}

/** "1 post" / "4 posts": `one` for exactly one, `many` otherwise. */
export function countLabel(count: number, one: string, many: string, i18n: I18n = globalI18n): string {
  return `${formatCount(count, i18n)} ${count === 1 ? one : many}`;
}
