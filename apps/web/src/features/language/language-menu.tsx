/**
 * The header's language menu (issue #50): each language named in itself. A visitor's choice is
 * remembered on this device (choose-language.ts); a member's is saved on their account too, so it
 * follows them to every device (language-sync.tsx).
 */
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@cubes/api/languages';
import { useLingui } from '@lingui/react/macro';
import { Languages } from 'lucide-react';
import { RadioMenu } from '../../components/ui/radio-menu';
import { useSaveLanguage } from './language-sync';

const ITEMS = LANGUAGES.map((code) => ({ value: code, content: LANGUAGE_NAMES[code], lang: code }));

export function LanguageMenu() {
  const { i18n, t } = useLingui();
  const save = useSaveLanguage();
  const current = isLanguage(i18n.locale) ? i18n.locale : 'en';
  const name = LANGUAGE_NAMES[current];
  return (
    <RadioMenu
      label={t`Language: ${name}`}
      heading={t`Language`}
      icon={<Languages aria-hidden="true" />}
      value={current}
      items={ITEMS}
      onChoose={(code) => void save(code)}
    />
  );
}
