/**
 * Push notifications' queries: the server's key, whether this device's subscription is known,
 * subscribe and unsubscribe, and the kinds pushed, whose switches save at once (optimistic: the
 * switch moves before the answer, and moves back if the save failed). The component passes its
 * own toasts as the mutation's callbacks.
 */
import { useCallback } from 'react';
import { trpc } from '../../lib/trpc';

type PreferencesOptions = NonNullable<Parameters<typeof trpc.push.updatePreferences.useMutation>[0]>;

/** Whether the server knows the subscription of `endpoint`; nothing is asked without one. */
export function usePushStatusQuery(endpoint: string | null | undefined) {
  return trpc.push.status.useQuery({ endpoint: endpoint ?? '' }, { enabled: Boolean(endpoint) });
}

/** The server's public key (asked when the device subscribes), and a re-read of its status. */
export function usePushDevice() {
  const utils = trpc.useUtils();
  const fetchKey = useCallback(() => utils.push.key.fetch(), [utils]);
  const statusChanged = useCallback(() => utils.push.status.invalidate(), [utils]);
  return { fetchKey, statusChanged };
}

export function usePushSubscribeMutation() {
  return trpc.push.subscribe.useMutation();
}

export function usePushUnsubscribeMutation() {
  return trpc.push.unsubscribe.useMutation();
}

/** The kinds pushed to the member (every device of theirs). */
export function usePushPreferencesQuery() {
  return trpc.push.preferences.useQuery();
}

/** Save some kinds: shown at once, put back on failure, read again after either. */
export function useUpdatePushPreferencesMutation(options: Pick<PreferencesOptions, 'onError'> = {}) {
  const utils = trpc.useUtils();
  return trpc.push.updatePreferences.useMutation({
    onMutate: async (change) => {
      await utils.push.preferences.cancel();
      const before = utils.push.preferences.getData();
      if (before) utils.push.preferences.setData(undefined, { ...before, ...change });
      return { before };
    },
    onError: (...args) => {
      const before = args[2]?.before;
      if (before) utils.push.preferences.setData(undefined, before);
      options.onError?.(...args);
    },
    onSettled: () => void utils.push.preferences.invalidate(),
  });
}
