/**
 * Every language has every message, translated, as valid ICU, with the same placeholders as the
 * English (issue #50). That the catalogs hold every message the source uses is
 * scripts/check-catalogs.ts's (it runs Lingui's extractor).
 */
import { LANGUAGES } from '@cubes/api/languages';
import { type CompiledMessage, compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { type CatalogEntry, readCatalog } from './catalogs';

/** The variables a compiled message reads (`{name}`, a plural's `{count}`), at any depth. */
function variables(tokens: CompiledMessage, out = new Set<string>()): Set<string> {
  for (const token of tokens) {
    if (!Array.isArray(token)) continue;
    const [name, , options] = token as [unknown, unknown, unknown];
    if (typeof name === 'string') out.add(name);
    if (options && typeof options === 'object')
      for (const branch of Object.values(options))
        if (Array.isArray(branch)) variables(branch as CompiledMessage, out);
  }
  return out;
}

/** What a translation must keep: the variables and the `<0>`, `</0>`, `<1/>` tags. */
function placeholders(message: string): string[] {
  const names = [...variables(compileMessageOrThrow(message))].map((name) => `{${name}}`);
  const tags = [...message.matchAll(/<\/?\d+\/?>/g)].map((match) => match[0]);
  return [...new Set([...names, ...tags])].sort();
}

describe('the catalogs', async () => {
  const catalogs = Object.fromEntries(
    await Promise.all(LANGUAGES.map(async (language) => [language, await readCatalog(language)] as const)),
  ) as Record<(typeof LANGUAGES)[number], Map<string, CatalogEntry>>;
  const english = catalogs.en;

  it('has messages in English', () => {
    expect(english.size).toBeGreaterThan(0);
  });

  for (const language of LANGUAGES) {
    const catalog = catalogs[language];
    describe(language, () => {
      it('has exactly the English messages', () => {
        expect([...catalog.keys()].sort()).toEqual([...english.keys()].sort());
      });

      it('translates every one, as valid ICU with the same placeholders', () => {
        const problems: string[] = [];
        for (const [id, entry] of catalog) {
          const text = entry.translation;
          if (!text.trim()) {
            problems.push(`untranslated: ${JSON.stringify(entry.message)}`);
            continue;
          }
          try {
            compileMessageOrThrow(text);
          } catch (error) {
            problems.push(`not ICU: ${JSON.stringify(text)} (${(error as Error).message})`);
            continue;
          }
          const source = english.get(id)?.message ?? entry.message;
          if (placeholders(text).join() !== placeholders(source).join())
            problems.push(`placeholders differ: ${JSON.stringify(source)} → ${JSON.stringify(text)}`);
        }
        expect(problems).toEqual([]);
      });

      // A count button's name ends with its count ("Like, 3 likes") and the button shows the number:
      // a form that words the number ("two likes") makes the name miss the text it shows (axe,
      // label-content-name-mismatch).
      it('keeps the number in every form of a label that ends with a count', () => {
        const problems: string[] = [];
        for (const [id, entry] of catalog) {
          const source = english.get(id)?.message ?? entry.message;
          const counted = /, \{(\w+), plural, (.*)\}$/.exec(source);
          if (!counted || !/^(?:\w+ \{[^{}]*#[^{}]*\} ?)+$/.test(counted[2]!)) continue;
          const forms = new RegExp(`\\{${counted[1]}, plural, (.*)\\}`).exec(entry.translation)?.[1] ?? '';
          for (const [, category, form] of forms.matchAll(/(\w+) \{([^{}]*)\}/g))
            if (!form!.includes('#')) problems.push(`${JSON.stringify(source)}: ${category} {${form}}`);
        }
        expect(problems).toEqual([]);
      });
    });
  }
});
