/**
 * Settings → Push notifications (docs/web.md, "Settings"): push notifications on this device, which
 * reach it with the tab closed (the service worker shows them), and which kinds are pushed:
 * likes, comments, follows, mentions, messages. The device switch asks the browser's permission
 * and subscribes with the server's key; the kind switches save at once (optimistic, rolled back
 * on failure) and apply to every device of the member.
 */
import type { RouterOutputs } from '@cubes/api/client';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Switch } from 'radix-ui';
import { useEffect, useId, useState } from 'react';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { SettingsCard } from '../settings/settings-card';
import {
  currentSubscription,
  PushUnavailableError,
  subscribeBrowser,
  unsubscribeBrowser,
  usePushSupport,
} from './push-browser';
import {
  usePushDevice,
  usePushPreferencesQuery,
  usePushStatusQuery,
  usePushSubscribeMutation,
  usePushUnsubscribeMutation,
  useUpdatePushPreferencesMutation,
} from './queries';

type Preferences = RouterOutputs['push']['preferences'];
type Kind = keyof Preferences;

/** Labels and hints are translated where they are shown (`i18n._`). */
const KINDS: { kind: Kind; label: MessageDescriptor; hint: MessageDescriptor }[] = [
  { kind: 'likes', label: msg`Likes`, hint: msg`Someone liked your post` },
  { kind: 'comments', label: msg`Comments`, hint: msg`Someone commented on your post` },
  { kind: 'follows', label: msg`Follows`, hint: msg`Someone started following you` },
  { kind: 'mentions', label: msg`Mentions`, hint: msg`Someone mentioned you` },
  { kind: 'messages', label: msg`Messages`, hint: msg`Someone sent you a direct message` },
];

const SWITCH =
  'peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-input transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary';
const THUMB =
  'pointer-events-none block size-5 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-5 rtl:data-[state=checked]:-translate-x-5 data-[state=unchecked]:translate-x-0';

export function NotificationsCard() {
  const { t } = useLingui();
  return (
    <SettingsCard
      id="notifications-title"
      title={t`Push notifications`}
      description={t`Push notifications reach this device even when Cubes is closed. Choose which kinds are pushed.`}
    >
      <div className="grid gap-4">
        <DevicePush />
        <KindSwitches />
      </div>
    </SettingsCard>
  );
}

function DevicePush() {
  const { t } = useLingui();
  const id = useId();
  const hintId = useId();
  const { fetchKey, statusChanged } = usePushDevice();
  const support = usePushSupport();
  // undefined: still looking; null: this browser has no subscription.
  const [endpoint, setEndpoint] = useState<string | null | undefined>(
    support === 'supported' || support === 'checking' ? undefined : null,
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (support === 'checking') return;
    if (support !== 'supported') {
      setEndpoint(null);
      return;
    }
    let live = true;
    currentSubscription()
      .then((s) => live && setEndpoint(s?.endpoint ?? null))
      .catch(() => live && setEndpoint(null));
    return () => {
      live = false;
    };
  }, [support]);
  const status = usePushStatusQuery(endpoint);
  const subscribe = usePushSubscribeMutation();
  const unsubscribe = usePushUnsubscribeMutation();
  const on = Boolean(endpoint) && status.data?.subscribed === true;
  const denied = support === 'supported' && Notification.permission === 'denied';

  async function turn(next: boolean) {
    setBusy(true);
    setProblem(null);
    try {
      if (next) {
        const { publicKey } = await fetchKey();
        const json = await subscribeBrowser(publicKey);
        if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth)
          throw new PushUnavailableError(t`The browser gave no subscription.`);
        await subscribe.mutateAsync({
          endpoint: json.endpoint,
          expirationTime: json.expirationTime ?? null,
          keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
        });
        setEndpoint(json.endpoint);
        toast({ title: t`Push notifications on`, description: t`This device will be notified.` });
      } else {
        const gone = await unsubscribeBrowser();
        if (gone) await unsubscribe.mutateAsync({ endpoint: gone });
        setEndpoint(null);
        toast({ title: t`Push notifications off`, description: t`This device will not be notified.` });
      }
      await statusChanged();
    } catch (error) {
      if (error instanceof PushUnavailableError) setProblem(error.message);
      else if (error instanceof DOMException) {
        // The browser's own words, as it wrote them.
        const reason = error.message;
        setProblem(t`The browser could not subscribe: ${reason}`);
      } else errorToast(t`Could not change push notifications`, error, t`Please try again.`);
    } finally {
      setBusy(false);
    }
  }

  let hint: string;
  if (support === 'checking') hint = '';
  else if (support !== 'supported') hint = t`This browser cannot receive push notifications.`;
  else if (denied)
    hint = t`Notifications are blocked for this site. Allow them in your browser’s site settings.`;
  else if (on) hint = t`On for this device.`;
  else hint = t`Off for this device.`;
  const loading = endpoint === undefined || (Boolean(endpoint) && status.isPending);

  return (
    <div className="grid gap-2 rounded-lg border p-3">
      <div className="flex items-center justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor={id}>
            <Trans>Push notifications on this device</Trans>
          </Label>
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        </div>
        <div className="flex items-center gap-2">
          {busy || loading ? <Spinner /> : null}
          <Switch.Root
            id={id}
            aria-describedby={hintId}
            checked={on}
            disabled={support !== 'supported' || denied || busy || loading}
            onCheckedChange={(next) => void turn(next)}
            className={SWITCH}
          >
            <Switch.Thumb className={THUMB} />
          </Switch.Root>
        </div>
      </div>
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function KindSwitches() {
  const { i18n, t } = useLingui();
  const preferences = usePushPreferencesQuery();
  const update = useUpdatePushPreferencesMutation({
    onError: (error) => errorToast(t`Could not save your choice`, error, t`Please try again.`),
  });

  if (preferences.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner />
        <Trans>Loading your choices...</Trans>
      </p>
    );
  }
  if (preferences.isError) {
    return (
      <p className="text-sm text-muted-foreground">
        <Trans>Could not load your notification choices.</Trans>
      </p>
    );
  }
  return (
    <fieldset className="grid gap-1 rounded-lg border p-3">
      <legend className="px-1 text-sm font-medium">
        <Trans>Push me about</Trans>
      </legend>
      {KINDS.map(({ kind, label, hint }) => (
        <KindSwitch
          key={kind}
          label={i18n._(label)}
          hint={i18n._(hint)}
          checked={preferences.data[kind]}
          onChange={(next) => update.mutate({ [kind]: next })}
        />
      ))}
    </fieldset>
  );
}

function KindSwitch({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (next: boolean) => void;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="flex items-center justify-between gap-4 py-1.5">
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{label}</Label>
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
      <Switch.Root
        id={id}
        aria-describedby={hintId}
        checked={checked}
        onCheckedChange={onChange}
        className={SWITCH}
      >
        <Switch.Thumb className={THUMB} />
      </Switch.Root>
    </div>
  );
}
