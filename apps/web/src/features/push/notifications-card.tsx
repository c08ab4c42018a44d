/**
 * Settings → Push notifications (docs/web.md, "Settings"): push notifications on this device, which
 * reach it with the tab closed (the service worker shows them), and which kinds are pushed:
 * likes, comments, follows, mentions, messages. The device switch asks the browser's permission
 * and subscribes with the server's key; the kind switches save at once (optimistic, rolled back
 * on failure) and apply to every device of the member.
 */
import type { RouterOutputs } from '@cubes/api/client';
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
  pushSupport,
  subscribeBrowser,
  unsubscribeBrowser,
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

const KINDS: { kind: Kind; label: string; hint: string }[] = [
  { kind: 'likes', label: 'Likes', hint: 'Someone liked your post' },
  { kind: 'comments', label: 'Comments', hint: 'Someone commented on your post' },
  { kind: 'follows', label: 'Follows', hint: 'Someone started following you' },
  { kind: 'mentions', label: 'Mentions', hint: 'Someone mentioned you' },
  { kind: 'messages', label: 'Messages', hint: 'Someone sent you a direct message' },
];

const SWITCH =
  'peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-input transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary';
const THUMB =
  'pointer-events-none block size-5 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0';

export function NotificationsCard() {
  return (
    <SettingsCard
      id="notifications-title"
      title="Push notifications"
      description="Push notifications reach this device even when Cubes is closed. Choose which kinds are pushed."
    >
      <div className="grid gap-4">
        <DevicePush />
        <KindSwitches />
      </div>
    </SettingsCard>
  );
}

function DevicePush() {
  const id = useId();
  const hintId = useId();
  const { fetchKey, statusChanged } = usePushDevice();
  const support = pushSupport();
  // undefined: still looking; null: this browser has no subscription.
  const [endpoint, setEndpoint] = useState<string | null | undefined>(
    support === 'supported' ? undefined : null,
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (support !== 'supported') return;
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
          throw new PushUnavailableError('The browser gave no subscription.');
        await subscribe.mutateAsync({
          endpoint: json.endpoint,
          expirationTime: json.expirationTime ?? null,
          keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
        });
        setEndpoint(json.endpoint);
        toast({ title: 'Push notifications on', description: 'This device will be notified.' });
      } else {
        const gone = await unsubscribeBrowser();
        if (gone) await unsubscribe.mutateAsync({ endpoint: gone });
        setEndpoint(null);
        toast({ title: 'Push notifications off', description: 'This device will not be notified.' });
      }
      await statusChanged();
    } catch (error) {
      if (error instanceof PushUnavailableError) setProblem(error.message);
      else if (error instanceof DOMException) setProblem(`The browser could not subscribe: ${error.message}`);
      else errorToast('Could not change push notifications', error, 'Please try again.');
    } finally {
      setBusy(false);
    }
  }

  let hint: string;
  if (support !== 'supported') hint = 'This browser cannot receive push notifications.';
  else if (denied)
    hint = 'Notifications are blocked for this site. Allow them in your browser’s site settings.';
  else if (on) hint = 'On for this device.';
  else hint = 'Off for this device.';
  const loading = endpoint === undefined || (Boolean(endpoint) && status.isPending);

  return (
    <div className="grid gap-2 rounded-lg border p-3">
      <div className="flex items-center justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor={id}>Push notifications on this device</Label>
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
  const preferences = usePushPreferencesQuery();
  const update = useUpdatePushPreferencesMutation({
    onError: (error) => errorToast('Could not save your choice', error, 'Please try again.'),
  });

  if (preferences.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner />
        Loading your choices...
      </p>
    );
  }
  if (preferences.isError) {
    return <p className="text-sm text-muted-foreground">Could not load your notification choices.</p>;
  }
  return (
    <fieldset className="grid gap-1 rounded-lg border p-3">
      <legend className="px-1 text-sm font-medium">Push me about</legend>
      {KINDS.map(({ kind, label, hint }) => (
        <KindSwitch
          key={kind}
          label={label}
          hint={hint}
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
