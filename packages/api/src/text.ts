/**
 * What a text input may contain, decided once for every string a procedure accepts (content,
 * names, emails, passwords, ids, cursors, urls): any Unicode text, emoji with their joiners and
 * variation selectors included, but no C0/C1 control characters other than tab, line feed and
 * carriage return, and no lone surrogate halves. Such input is refused with a 400 naming the
 * field rather than stripped: PostgreSQL refuses NUL in text columns, the other control
 * characters only hide or garble what a reader sees, and a lone surrogate is not text at all
 * (UTF-8 has no encoding for it, so it would be stored as U+FFFD). Passwords follow the rule
 * too: no keyboard types these characters, and a lone surrogate would hash as U+FFFD, so two
 * different passwords would match. Imports only zod: the web forms use the same rule.
 */
import { z } from 'zod';

/**
 * Everything but U+0000–U+001F except \t \n \r, U+007F–U+009F, and any surrogate left alone: with
 * the u flag a pair of surrogates is one code point, outside the class. A whole-string pattern, so
 * JSON Schema (the OpenAPI document) carries the rule as it is.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
export const ALLOWED_TEXT = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]*$/u;

/** True when `value` holds nothing but allowed characters. */
export function isAllowedText(value: string): boolean {
  return ALLOWED_TEXT.test(value);
}

/** The message of a refused field, e.g. "Content contains characters that are not allowed". */
export function notAllowedMessage(label: string): string {
  return `${label} contains characters that are not allowed`;
}

/**
 * A string schema that refuses control characters and lone surrogates, named `label` in the
 * message (a pattern, so the OpenAPI document states it too); chain `.trim()`, `.min()`, `.max()`,
 * `.regex()` as on `z.string()`. The check runs first and stops the others, so a huge hostile
 * value yields one issue.
 */
export function text(label: string, params?: { error?: string }) {
  return z
    .string(params?.error ? { error: params.error } : undefined)
    .regex(ALLOWED_TEXT, { message: notAllowedMessage(label), abort: true });
}
