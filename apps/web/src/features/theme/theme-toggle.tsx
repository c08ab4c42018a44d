/** The header's theme menu: Light, Dark or System (the device's setting, the default). */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Monitor, Moon, Sun } from 'lucide-react';
import { RadioMenu } from '../../components/ui/radio-menu';
import { useHydrated } from '../../lib/server-rendered';
import { THEME_PREFERENCES, type ThemePreference } from '../../lib/theme';
import { useTheme } from './theme-provider';

const LABELS: Record<ThemePreference, MessageDescriptor> = {
  light: msg`Light`,
  dark: msg`Dark`,
  system: msg`System`,
};
const ICONS = { light: Sun, dark: Moon, system: Monitor } as const;

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
    <RadioMenu
      label={label}
      heading={<Trans>Theme</Trans>}
      icon={<Icon aria-hidden="true" />}
      value={preference}
      items={THEME_PREFERENCES.map((value) => {
        const ItemIcon = ICONS[value];
        return {
          value,
          content: (
            <>
              <ItemIcon aria-hidden="true" className="text-muted-foreground" />
              {i18n._(LABELS[value])}
            </>
          ),
        };
      })}
      onChoose={setPreference}
    />
  );
}
