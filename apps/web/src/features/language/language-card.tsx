/**
 * Settings' Language card (issue #50): the member's language, saved on their account so every
 * device they sign in on speaks it (language-sync.tsx). The same choice as the header's menu.
 */
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@cubes/api/languages';
import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { SettingsCard } from '../settings/settings-card';
import { useSaveLanguage } from './language-sync';

export function LanguageCard() {
  const { i18n, t } = useLingui();
  const save = useSaveLanguage();
  const selectId = useId();
  const current = isLanguage(i18n.locale) ? i18n.locale : 'en';
  return (
    <SettingsCard
      id="language-card-title"
      title={t`Language`}
      description={t`The language of Cubes on every device you sign in on, and of the mails we send you.`}
    >
      <div className="grid max-w-xs gap-2">
        <label htmlFor={selectId} className="text-sm font-medium">
          {t`Language`}
        </label>
        <select
          id={selectId}
          value={current}
          onChange={(event) => {
            const value = event.target.value;
            if (isLanguage(value)) void save(value);
          }}
          className="h-10 rounded-md border bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </div>
    </SettingsCard>
  );
}
