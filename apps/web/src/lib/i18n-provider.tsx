/**
 * Lingui's context for the app's components (`useLingui`, `<Trans>`): the i18n of the app's
 * language (lib/i18n.ts), or the one a server render brings.
 *
 * Lingui's own I18nProvider follows one i18n switched in place. This one holds the instance in
 * React state, so a render of an older state keeps that state's language: React hydrates a part
 * of the page that is still to hydrate with the state the server rendered, before a change
 * (lib/i18n.test.tsx). Not useSyncExternalStore: it reads the newest instance in every
 * render, that one too.
 *
 * It also tells Radix the language's direction. Radix's tabs, menus and radio groups set their own
 * `dir` attribute ("ltr" unless told), which turned a whole tab panel (the member's feed) left
 * to right inside an Arabic page, and their arrow keys with it.
 */
import { DEFAULT_LANGUAGE, directionOf, isLanguage } from '@cubes/api/languages';
import type { I18n } from '@lingui/core';
import { LinguiContext } from '@lingui/react';
import { Direction } from 'radix-ui';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { activeI18n, onLanguageChange } from './i18n';

export function AppI18nProvider({ i18n: given, children }: { i18n?: I18n; children: ReactNode }) {
  const [active, setActive] = useState(activeI18n);
  useEffect(() => {
    const follow = () => setActive(activeI18n());
    // A change between the first render and now is followed too.
    follow();
    return onLanguageChange(follow);
  }, []);
  const i18n = given ?? active;
  const context = useMemo(() => ({ i18n, _: i18n.t.bind(i18n) }), [i18n]);
  const dir = directionOf(isLanguage(i18n.locale) ? i18n.locale : DEFAULT_LANGUAGE);
  return (
    <LinguiContext.Provider value={context}>
      <Direction.Provider dir={dir}>{children}</Direction.Provider>
    </LinguiContext.Provider>
  );
}
