/**
 * The header's language menu (issue #50): each language named in itself. A visitor's choice is
 * remembered on this device (choose-language.ts); a member's is saved on their account too, so it
 * follows them to every device (language-sync.tsx).
 */
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@cubes/api/languages';
import { useLingui } from '@lingui/react/macro';
import { Check, Languages } from 'lucide-react';
import { buttonClasses } from '../../components/ui/button';
import { LazyMenu } from '../../components/ui/lazy-menu';
import { useSaveLanguage } from './language-sync';

const itemClasses =
  'flex cursor-pointer select-none items-center gap-2 rounded-md py-2 ps-2 pe-8 text-sm outline-none transition-colors ' +
  'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4';

export function LanguageMenu() {
  const { i18n, t } = useLingui();
  const save = useSaveLanguage();
  const current = isLanguage(i18n.locale) ? i18n.locale : 'en';
  const name = LANGUAGE_NAMES[current];
  const label = t`Language: ${name}`;
  return (
    <LazyMenu
      kind="menu"
      trigger={
        <button type="button" aria-label={label} title={label} className={buttonClasses('ghost', 'icon')}>
          <Languages aria-hidden="true" />
        </button>
      }
    >
      {({ DropdownMenu }) => (
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="menu-content z-50 min-w-40 overflow-hidden rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-muted-foreground">
            {t`Language`}
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={current}
            onValueChange={(value) => {
              if (isLanguage(value)) void save(value);
            }}
          >
            {LANGUAGES.map((code) => (
              <DropdownMenu.RadioItem
                key={code}
                value={code}
                lang={code}
                dir="auto"
                className={`relative ${itemClasses}`}
              >
                {LANGUAGE_NAMES[code]}
                <DropdownMenu.ItemIndicator className="absolute end-2 inline-flex">
                  <Check aria-hidden="true" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      )}
    </LazyMenu>
  );
}
