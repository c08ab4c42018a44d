/**
 * A member's language lives on their account (settings.language), so it follows them to every
 * device: when their session names a language other than this page's, the app switches to it and
 * remembers it here (choose-language.ts). Their own choice in the language menu is saved on the
 * account too.
 */
import type { Language } from '@cubes/api/languages';
import { useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef } from 'react';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { switchLanguage } from './choose-language';

/**
 * A choice made on this page that the account may not have yet. Until the session says the
 * account has it, the session's language must not switch the page back: a session that answers
 * after the menu was used (the choice is then saved, as the member made it), or before the save's
 * own answer.
 */
let choosing: Language | null = null;

/** Saves `language` on the member's account, then reads the session again. */
function useSaveOnAccount(): (language: Language) => Promise<void> {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const { mutateAsync } = trpc.settings.update.useMutation();
  return useCallback(
    async (language: Language) => {
      try {
        await mutateAsync({ language });
        await utils.auth.session.invalidate();
      } catch (error) {
        if (choosing === language) choosing = null;
        errorToast(t`Could not save your language`, error);
      }
    },
    [mutateAsync, utils, t],
  );
}

/**
 * Follows the account's language: each time the session brings a language the page has not been
 * switched to yet (a sign-in, another device's change), not on every render.
 */
export function LanguageSync() {
  const { language } = useAuth();
  const { i18n } = useLingui();
  const saveOnAccount = useSaveOnAccount();
  const followed = useRef<Language | null>(null);
  const saved = useRef<Language | null>(null);
  useEffect(() => {
    if (!language || followed.current === language) return;
    if (choosing !== null && language !== choosing) {
      // Chosen here before the session was known: the account gets it (once).
      if (saved.current !== choosing) {
        saved.current = choosing;
        void saveOnAccount(choosing);
      }
      return;
    }
    choosing = null;
    followed.current = language;
    if (i18n.locale !== language) void switchLanguage(language);
  }, [language, i18n, saveOnAccount]);
  return null;
}

/** What the language menu and Settings call: switch now, and for a member save it on the account. */
export function useSaveLanguage(): (language: Language) => Promise<void> {
  const { user } = useAuth();
  const saveOnAccount = useSaveOnAccount();
  const signedIn = user !== null;
  return useCallback(
    async (language: Language) => {
      choosing = language;
      await switchLanguage(language);
      // A visitor's choice stays on this device; a member's session, still loading, is
      // LanguageSync's to bring it to the account.
      if (signedIn) await saveOnAccount(language);
    },
    [signedIn, saveOnAccount],
  );
}
