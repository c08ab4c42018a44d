/**
 * The checked-in catalogs read back (src/locales/{language}/messages.po), for the checks that
 * every language has every message and that each one is valid ICU (catalogs.test.ts,
 * scripts/check-catalogs.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language } from '@cubes/api/languages';
import { formatter } from '@lingui/format-po';

export const LOCALES_DIR = path.dirname(fileURLToPath(import.meta.url));

export interface CatalogEntry {
  /** The English source. */
  message: string;
  /** The language's text ('' while untranslated). */
  translation: string;
  origins: string[];
}

export async function readCatalog(language: Language, dir = LOCALES_DIR): Promise<Map<string, CatalogEntry>> {
  const filename = path.join(dir, language, 'messages.po');
  const parsed = await formatter({ lineNumbers: false }).parse(readFileSync(filename, 'utf8'), {
    locale: language,
    sourceLocale: 'en',
    filename,
  });
  const entries = new Map<string, CatalogEntry>();
  for (const [id, entry] of Object.entries(parsed ?? {})) {
    if (entry.obsolete) continue;
    entries.set(id, {
      message: entry.message ?? id,
      translation: entry.translation ?? '',
      origins: (entry.origin ?? []).map(([file]) => file),
    });
  }
  return entries;
}
