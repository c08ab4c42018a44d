/** The header's theme menu: Light, Dark or System (the device's setting, the default). */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, Monitor, Moon, Sun } from 'lucide-react';
import { buttonClasses } from '../../components/ui/button';
import { LazyMenu } from '../../components/ui/lazy-menu';
import { useHydrated } from '../../lib/server-rendered';
import { THEME_PREFERENCES, type ThemePreference } from '../../lib/theme';
import { useTheme } from './theme-provider';

const LABELS: Record<ThemePreference, MessageDescriptor> = {
  light: msg`Light`,
  dark: msg`Dark`,
  system: msg`System`,
};
const ICONS = { light: Sun, dark: Moon, system: Monitor } as const;

const itemClasses =
  'flex cursor-pointer select-none items-center gap-2 rounded-md py-2 pe-8 ps-2 text-sm outline-none transition-colors ' +
  'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4';

export function ThemeToggle() {
  const { theme, preference: stored, setPreference } = useTheme();
  // The server knows no device's choice: a page it rendered hydrates as System, then shows it.
  const preference = useHydrated() ? stored : 'system';
  const { i18n, t } = useLingui();
  const current = i18n._(LABELS[preference]);
  const label = t`Theme: ${current}`;
  // The button shows what the page looks like now (a System choice shows the device's scheme).
  const Icon = preference === 'system' ? Monitor : theme === 'dark' ? Moon : Sun;
  return (
    <LazyMenu
      kind="menu"
      trigger={
        <button type="button" aria-label={label} title={label} className={buttonClasses('ghost', 'icon')}>
          <Icon aria-hidden="true" />
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
            <Trans>Theme</Trans>
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={preference}
            onValueChange={(value) => {
              const next = THEME_PREFERENCES.find((p) => p === value);
              if (next) setPreference(next);
            }}
          >
            {THEME_PREFERENCES.map((value) => {
              const ItemIcon = ICONS[value];
              return (
                <DropdownMenu.RadioItem key={value} value={value} className={`relative ${itemClasses}`}>
                  <ItemIcon aria-hidden="true" className="text-muted-foreground" />
                  {i18n._(LABELS[value])}
                  <DropdownMenu.ItemIndicator className="absolute end-2 inline-flex">
                    <Check aria-hidden="true" />
                  </DropdownMenu.ItemIndicator>
                </DropdownMenu.RadioItem>
              );
            })}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      )}
    </LazyMenu>
  );
}
