import { LANGUAGES } from '@cubes/api/languages';
import ar_SA from '@uppy/locales/lib/ar_SA';
import de_DE from '@uppy/locales/lib/de_DE';
import en_US from '@uppy/locales/lib/en_US';
import { describe, expect, it } from 'vitest';
import { uppyLocale } from './uppy-locales';

const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("Uppy's words in each language", () => {
  it('keeps every placeholder of the English line, in every form of our own lines', () => {
    const library = { en: en_US, de: de_DE, ar: ar_SA };
    for (const language of LANGUAGES) {
      const { strings } = uppyLocale(language);
      for (const [key, value] of Object.entries(strings)) {
        if (language !== 'en' && value === (library[language].strings as Record<string, unknown>)[key])
          continue;
        const english = (en_US.strings as Record<string, string | Record<number, string>>)[key];
        if (english === undefined) continue;
        const englishNames = new Set(placeholders(typeof english === 'string' ? english : english[1]!));
        const forms = typeof value === 'string' ? [value] : Object.values(value);
        for (const form of forms) {
          // A form may say the count in words ("ملفين", "eine Datei"); it names nothing else.
          for (const name of placeholders(form))
            expect(englishNames, `${language} ${key}: ${form}`).toContain(name);
        }
      }
    }
  });

  it('picks one of the six Arabic forms by Arabic plural rules, and says the count where it is a number', () => {
    const arabic = uppyLocale('ar');
    const forms = arabic.strings.uploadXFiles as Record<number, string>;
    expect(Object.keys(forms)).toHaveLength(6);
    const form = (count: number) => forms[arabic.pluralize!(count)];
    expect(form(1)).toBe('رفع ملف واحد');
    expect(form(2)).toBe('رفع ملفين');
    expect(form(3)).toBe('رفع %{smart_count} ملفات');
    expect(form(11)).toBe('رفع %{smart_count} ملفًا');
    expect(form(100)).toBe('رفع %{smart_count} ملف');
    for (let count = 0; count < 120; count += 1) expect(form(count), String(count)).toBeDefined();
  });

  it("speaks German with the app's du, and English as Uppy does", () => {
    expect(uppyLocale('de').strings.youCanOnlyUploadFileTypes).toMatch(/^Du kannst/);
    expect(uppyLocale('de').strings.browseFiles).toBe('Dateien durchsuchen');
    expect(uppyLocale('en')).toBe(en_US);
  });
});
