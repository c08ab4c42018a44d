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
 * Follows the account's language: each time the session brings a language the page has not been
 * switched to yet (a sign-in, another device's change), not on every render, so a choice made here
 * is not undone while it is being saved.
 */
export function LanguageSync() {
  const { language } = useAuth();
  const { i18n } = useLingui();
  const followed = useRef<Language | null>(null);
  useEffect(() => {
    if (!language || followed.current === language) return;
    followed.current = language;
    if (i18n.locale !== language) void switchLanguage(language);
  }, [language, i18n]);
  return null;
}

/** What the language menu calls: switch now, and for a member save it on the account. */
export function useSaveLanguage(): (language: Language) => Promise<void> {
  const { user } = useAuth();
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const update = trpc.settings.update.useMutation();
  const signedIn = user !== null;
  return useCallback(
    async (language: Language) => {
      await switchLanguage(language);
      if (!signedIn) return;
      try {
        await update.mutateAsync({ language });
        await utils.auth.session.invalidate();
      } catch (error) {
        errorToast(t`Could not save your language`, error);
      }
    },
    [signedIn, update, utils, t],
  );
}
