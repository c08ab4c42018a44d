/**
 * Settings → Privacy → Content warnings and sensitive media (docs/features/feed.md, "Content
 * warnings"): whether the member's cards show what authors fold at once. Both are off by default;
 * each switch saves as it is flipped (rolled back on failure) and the session's preferences follow,
 * so every card on every page shows the change without a reload.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { Switch } from 'radix-ui';
import { useId, useState } from 'react';
import { Label } from '../../components/ui/label';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import type { Session } from '../auth/session-queries';
import type { SettingsForms } from './queries';
import { SettingsCard } from './settings-card';

type Key = 'alwaysShowContentWarnings' | 'alwaysShowSensitiveMedia';

const SWITCHES: { key: Key; label: MessageDescriptor; hint: MessageDescriptor }[] = [
  {
    key: 'alwaysShowContentWarnings',
    label: msg`Always show content behind warnings`,
    hint: msg`Posts show their text and images at once, with the warning above them.`,
  },
  {
    key: 'alwaysShowSensitiveMedia',
    label: msg`Always show sensitive media`,
    hint: msg`Images marked sensitive show without blur.`,
  },
];

type Preferences = NonNullable<Session['preferences']>;

/** Puts the changed preferences into the session's cache, keeping the rest (here: the first page leaves it out). */
function setSessionPreferences(queryClient: QueryClient, preferences: Preferences) {
  queryClient.setQueryData<Session | null>(
    getQueryKey(trpc.auth.session, undefined, 'query'),
    (session) => session && { ...session, preferences },
  );
}

export function ContentPreferencesCard({ settings }: { settings: SettingsForms }) {
  const { i18n, t } = useLingui();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const baseId = useId();
  const [values, setValues] = useState({
    alwaysShowContentWarnings: settings.alwaysShowContentWarnings,
    alwaysShowSensitiveMedia: settings.alwaysShowSensitiveMedia,
  });
  const update = trpc.settings.update.useMutation();

  const flip = (key: Key, on: boolean) => {
    const before = values;
    const next = { ...values, [key]: on };
    setValues(next);
    setSessionPreferences(queryClient, next);
    update.mutate(
      { [key]: on },
      {
        onSuccess: () => void utils.settings.get.invalidate(),
        onError: (error) => {
          setValues(before);
          setSessionPreferences(queryClient, before);
          errorToast(t`Could not save the setting`, error, t`Please try again`);
        },
      },
    );
  };

  return (
    <SettingsCard
      id={`${baseId}-title`}
      title={t`Content warnings and sensitive media`}
      description={t`Authors can fold a post behind a warning and mark images as sensitive. Choose whether you see them at once.`}
    >
      <div className="grid gap-3">
        {SWITCHES.map(({ key, label, hint }) => (
          <div key={key} className="flex items-center justify-between gap-4 rounded-lg border p-3">
            <div className="grid gap-1">
              <Label htmlFor={`${baseId}-${key}`}>{i18n._(label)}</Label>
              <p id={`${baseId}-${key}-hint`} className="text-xs text-muted-foreground">
                {i18n._(hint)}
              </p>
            </div>
            <Switch.Root
              id={`${baseId}-${key}`}
              checked={values[key]}
              onCheckedChange={(on) => flip(key, on)}
              aria-describedby={`${baseId}-${key}-hint`}
              className="peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-input transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=checked]:bg-primary"
            >
              <Switch.Thumb className="pointer-events-none block size-5 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-5 rtl:data-[state=checked]:-translate-x-5 data-[state=unchecked]:translate-x-0" />
            </Switch.Root>
          </div>
        ))}
      </div>
    </SettingsCard>
  );
}
