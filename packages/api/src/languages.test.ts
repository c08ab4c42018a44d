import { describe, expect, it } from 'vitest';
import { chooseLanguage, directionOf, languageOfAccepted, languageOfCookie } from './languages.js';

describe('a request’s language', () => {
  it('reads Accept-Language by quality, then order, by the primary subtag', () => {
    expect(languageOfAccepted('de-CH, en;q=0.8')).toBe('de');
    expect(languageOfAccepted('fr, en;q=0.5, ar;q=0.9')).toBe('ar');
    expect(languageOfAccepted('en;q=0.5, de;q=0.5')).toBe('en');
    expect(languageOfAccepted('AR-eg')).toBe('ar');
    expect(languageOfAccepted('de;q=0, en;q=0.1')).toBe('en');
    expect(languageOfAccepted(['fr-FR', 'de-DE', 'en'])).toBe('de');
  });

  it('gives none for what is not ours or not a header', () => {
    for (const header of [
      '',
      'fr',
      '*',
      'de;q=abc',
      'de;q=0',
      ',,,;;',
      'x'.repeat(70_000),
      'de\u0000',
      'deu',
    ])
      expect(languageOfAccepted(header), header.slice(0, 20)).toBeNull();
    expect(languageOfAccepted(undefined)).toBeNull();
    // Only the first 32 ranges are read.
    expect(languageOfAccepted(`${'fr, '.repeat(40)}de`)).toBeNull();
    expect(languageOfAccepted(`${'fr, '.repeat(20)}de`)).toBe('de');
  });

  it('reads the lang cookie among others', () => {
    expect(languageOfCookie('session=abc; lang=ar; theme=dark')).toBe('ar');
    expect(languageOfCookie('lang=de')).toBe('de');
    expect(languageOfCookie('xlang=de')).toBeNull();
    expect(languageOfCookie('lang=fr')).toBeNull();
    expect(languageOfCookie('lang=')).toBeNull();
    expect(languageOfCookie(undefined)).toBeNull();
  });

  it('chooses ?lang=, then the cookie, then the browser, then English', () => {
    expect(chooseLanguage({ query: 'ar', cookies: 'lang=de', accepted: 'de' })).toBe('ar');
    expect(chooseLanguage({ query: 'xx', cookies: 'lang=de', accepted: 'ar' })).toBe('de');
    expect(chooseLanguage({ cookies: 'lang=nope', accepted: 'ar-SA' })).toBe('ar');
    expect(chooseLanguage({})).toBe('en');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
  });
});
