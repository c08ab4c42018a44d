/**
 * A push notification's words (issue #50): every kind the server pushes has a sentence in every
 * language, with its placeholder, and each is filled; and the built worker words a push in the
 * payload's language, or one it cannot read in the `lang` cookie's or the browser's.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath, URL as NodeURL } from 'node:url';
import vm from 'node:vm';
import { LANGUAGES } from '@cubes/api/languages';
import { PUSH_PAYLOAD_KINDS } from '@cubes/api/schemas';
import { describe, expect, it } from 'vitest';
import { PUSH_TEXT_KINDS, PUSH_TEXTS, pushLanguage, pushNotice } from './push-texts';

const FSI = '\u2068';
const PDI = '\u2069';

/**
 * The worker as the build writes it (sw.plugin.ts's workerSource), made in a Node process of its
 * own: Vite, which it uses, does not load inside the tests' jsdom.
 */
const built = new Promise<string>((resolve, reject) => {
  const plugin = fileURLToPath(new NodeURL('./sw.plugin.ts', import.meta.url));
  const tsx = fileURLToPath(new NodeURL('../../node_modules/.bin/tsx', import.meta.url));
  execFile(
    tsx,
    [
      '-e',
      `import(${JSON.stringify(plugin)}).then((m) => m.workerSource()).then((s) => process.stdout.write(s))`,
    ],
    { maxBuffer: 1 << 22 },
    (error, stdout) => (error ? reject(error) : resolve(stdout)),
  );
});

describe('the push texts', () => {
  it('have every kind the server pushes, in every language, each with its one placeholder', () => {
    expect([...PUSH_TEXT_KINDS].sort()).toEqual([...PUSH_PAYLOAD_KINDS].sort());
    expect(Object.keys(PUSH_TEXTS).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      const texts = PUSH_TEXTS[language];
      expect(Object.keys(texts.kinds).sort(), language).toEqual([...PUSH_TEXT_KINDS].sort());
      for (const kind of PUSH_TEXT_KINDS) {
        const sentence = texts.kinds[kind];
        expect(sentence.match(/\{[^}]*\}/g), `${language} ${kind}`).toEqual(['{name}']);
        if (language !== 'en') expect(sentence, `${language} ${kind}`).not.toBe(PUSH_TEXTS.en.kinds[kind]);
      }
      expect(texts.quote.match(/\{[^}]*\}/g), language).toEqual(['{snippet}']);
      expect(texts.fallback, language).not.toMatch(/[{}]/);
      if (language !== 'en') expect(texts.fallback).not.toBe(PUSH_TEXTS.en.fallback);
    }
  });

  it('fill every placeholder, the name isolated from the sentence’s direction', () => {
    for (const language of LANGUAGES) {
      for (const kind of PUSH_TEXT_KINDS) {
        const notice = pushNotice(
          { kind, who: 'bob', name: 'Bob {name} 🧊', snippet: 'hi {snippet}', lang: language },
          [],
        );
        expect(notice.lang).toBe(language);
        expect(notice.dir).toBe(language === 'ar' ? 'rtl' : 'ltr');
        const [sentence, quote] = notice.body.split('\n');
        expect(sentence).toContain(`${FSI}Bob {name} 🧊${PDI}`);
        expect(sentence!.replace(`${FSI}Bob {name} 🧊${PDI}`, '')).not.toMatch(/[{}]/);
        expect(quote).toBe(PUSH_TEXTS[language].quote.replace('{snippet}', 'hi {snippet}'));
      }
    }
  });

  it('word German and Arabic pushes as the app’s catalogs do', () => {
    const like = { kind: 'like', who: 'bob', name: 'Bob', snippet: null, url: '/posts/1' };
    expect(pushNotice({ ...like, lang: 'de' }).body).toBe(`${FSI}Bob${PDI} gefällt dein Beitrag`);
    expect(pushNotice({ ...like, lang: 'ar' }).body).toBe(`أعجب ${FSI}Bob${PDI} بمنشورك`);
    expect(pushNotice({ ...like, kind: 'comment', snippet: 'Schön!', lang: 'de' }).body).toBe(
      `${FSI}Bob${PDI} hat deinen Beitrag kommentiert\n„Schön!“`,
    );
    // No display name: the username.
    expect(pushNotice({ ...like, name: '', lang: 'en' }).body).toBe(`${FSI}bob${PDI} liked your post`);
  });

  it('say the fallback line for what they cannot read, in the language they can find', () => {
    expect(pushNotice(null, [null, 'de-CH', 'en'])).toEqual({
      body: 'Du hast eine neue Benachrichtigung',
      lang: 'de',
      dir: 'ltr',
    });
    expect(pushNotice({ kind: 'unknown', who: 'bob', lang: 'ar' }).body).toBe('لديك إشعار جديد');
    expect(pushNotice({ kind: 'like', lang: 'de' }).body).toBe('Du hast eine neue Benachrichtigung');
    expect(pushNotice('text', ['fr', 'xx']).body).toBe('You have a new notification');
    // The payload's language comes first.
    expect(pushNotice({ kind: 'follow', who: 'a', lang: 'en' }, ['ar']).lang).toBe('en');
    expect(pushLanguage(['AR-eg'])).toBe('ar');
  });
});

describe('the built worker', () => {
  type Shown = { title: string; options: Record<string, unknown> };

  async function worker(options: { cookie?: string; languages?: string[] } = {}) {
    const listeners = new Map<string, (event: unknown) => void>();
    const shown: Shown[] = [];
    const self = {
      location: { origin: 'https://cubes.example' },
      navigator: { languages: options.languages ?? [] },
      cookieStore: {
        get: async (name: string) => (name === 'lang' && options.cookie ? { value: options.cookie } : null),
      },
      addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
      registration: {
        showNotification: async (title: string, opts: Record<string, unknown>) => {
          shown.push({ title, options: opts });
        },
      },
      clients: {},
    };
    vm.runInNewContext(await built, { self, caches: {}, URL: NodeURL });
    const push = async (data: unknown) => {
      let done: Promise<unknown> = Promise.resolve();
      listeners.get('push')!({
        data:
          data === undefined
            ? null
            : {
                json: () => {
                  if (typeof data === 'string') return JSON.parse(data);
                  return data;
                },
              },
        waitUntil: (p: Promise<unknown>) => {
          done = p;
        },
      });
      await done;
      return shown.at(-1)!;
    };
    return { push };
  }

  it('shows a push in its language, with the url as its tag', async () => {
    const { push } = await worker({ languages: ['en'] });
    const shown = await push({
      kind: 'mention',
      who: 'bob',
      name: 'بوب',
      snippet: 'hallo @alice',
      lang: 'de',
      url: '/posts/p1',
    });
    expect(shown.title).toBe('Cubes');
    expect(shown.options).toMatchObject({
      body: `${FSI}بوب${PDI} hat dich erwähnt\n„hallo @alice“`,
      lang: 'de',
      dir: 'ltr',
      tag: '/posts/p1',
      data: { url: '/posts/p1' },
    });
  });

  it('words a push it cannot read in the lang cookie’s language, else the browser’s', async () => {
    expect(
      (await (await worker({ cookie: 'ar', languages: ['de'] })).push('{not json')).options,
    ).toMatchObject({
      body: 'لديك إشعار جديد',
      lang: 'ar',
      dir: 'rtl',
      tag: '/',
    });
    expect((await (await worker({ languages: ['de-AT'] })).push(undefined)).options).toMatchObject({
      body: 'Du hast eine neue Benachrichtigung',
      lang: 'de',
    });
  });
});
