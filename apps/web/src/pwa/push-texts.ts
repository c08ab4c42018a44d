/**
 * A push notification's words, in the member's language (issue #50). The server sends what
 * happened, not a sentence: `{ kind, who, name, snippet, lang, url }` (packages/api's
 * push.schema.ts); the service worker words it here, in `lang`. German says "du", Arabic is
 * Modern Standard, as the app's catalogs (src/locales) do; the sentences are the catalogs' own
 * where the app says the same thing.
 *
 * The service worker carries this module as it is, its types stripped (sw.plugin.ts): it imports
 * nothing, and its `export`s become plain declarations there. push-texts.test.ts checks every
 * language has every text with its placeholders.
 */

/** The kinds the server pushes (push.schema.ts's PUSH_PAYLOAD_KINDS). */
export const PUSH_TEXT_KINDS = ['like', 'comment', 'follow', 'mention', 'message'] as const;
export type PushTextKind = (typeof PUSH_TEXT_KINDS)[number];

export interface PushTexts {
  /** The sentence of each kind: `{name}` is who did it. */
  kinds: Record<PushTextKind, string>;
  /** What was said (a comment, a mention) as a quote under the sentence: `{snippet}`. */
  quote: string;
  /** A push that cannot be read, or of a kind this worker does not know yet. */
  fallback: string;
}

/** Each language the app speaks (@cubes/api/languages' LANGUAGES). */
export const PUSH_TEXTS: Record<'en' | 'de' | 'ar', PushTexts> = {
  en: {
    kinds: {
      like: '{name} liked your post',
      comment: '{name} commented on your post',
      follow: '{name} started following you',
      mention: '{name} mentioned you',
      message: '{name} sent you a message',
    },
    quote: '“{snippet}”',
    fallback: 'You have a new notification',
  },
  de: {
    kinds: {
      like: '{name} gefällt dein Beitrag',
      comment: '{name} hat deinen Beitrag kommentiert',
      follow: '{name} folgt dir jetzt',
      mention: '{name} hat dich erwähnt',
      message: '{name} hat dir eine Nachricht geschickt',
    },
    quote: '„{snippet}“',
    fallback: 'Du hast eine neue Benachrichtigung',
  },
  ar: {
    kinds: {
      like: 'أعجب {name} بمنشورك',
      comment: 'علّق {name} على منشورك',
      follow: 'بدأ {name} بمتابعتك',
      mention: 'أشار إليك {name}',
      message: 'أرسل إليك {name} رسالة',
    },
    quote: '«{snippet}»',
    fallback: 'لديك إشعار جديد',
  },
};

/** The language of the first of `candidates` the app speaks (`de-CH` → `de`), or English. */
export function pushLanguage(candidates: readonly unknown[]): 'en' | 'de' | 'ar' {
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    const primary = candidate.toLowerCase().split('-')[0];
    if (primary === 'en' || primary === 'de' || primary === 'ar') return primary;
  }
  return 'en';
}

/**
 * A member's words in a sentence, isolated (FSI … PDI): a name in one direction does not reorder
 * the sentence around it (a Latin name in Arabic, an Arabic one in German).
 */
function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}

/**
 * What the notification says, from a push's data: the sentence (and the quote) in the payload's
 * `lang`, else in the first of `languages` we speak (the `lang` cookie, the browser's languages);
 * the fallback line for a push that cannot be read.
 */
export function pushNotice(
  data: unknown,
  languages: readonly unknown[] = [],
): { body: string; lang: 'en' | 'de' | 'ar'; dir: 'ltr' | 'rtl' } {
  const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const lang = pushLanguage([d.lang, ...languages]);
  const texts = PUSH_TEXTS[lang];
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const kind = typeof d.kind === 'string' ? d.kind : '';
  const name = typeof d.name === 'string' && d.name ? d.name : typeof d.who === 'string' ? d.who : '';
  const sentence = (PUSH_TEXT_KINDS as readonly string[]).includes(kind)
    ? texts.kinds[kind as PushTextKind]
    : null;
  if (!sentence || !name) return { body: texts.fallback, lang, dir };
  const lines = [sentence.replace('{name}', isolate(name))];
  if (typeof d.snippet === 'string' && d.snippet) lines.push(texts.quote.replace('{snippet}', d.snippet));
  return { body: lines.join('\n'), lang, dir };
}
