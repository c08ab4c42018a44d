/**
 * Block, unblock, mute and unmute, for the profile menu and the Settings lists. A block or mute
 * changes what many lists show (feeds, comments, search, notifications, the profile itself), so
 * on success every query is refetched rather than patched one by one.
 */
import { useMutation } from '@tanstack/react-query';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';

export type SafetyAction = 'block' | 'unblock' | 'mute' | 'unmute';

const DONE: Record<SafetyAction, (name: string) => string> = {
  block: (name) => `You blocked @${name}`,
  unblock: (name) => `You unblocked @${name}`,
  mute: (name) => `You muted @${name}`,
  unmute: (name) => `You unmuted @${name}`,
};

const FAILED: Record<SafetyAction, string> = {
  block: 'Failed to block',
  unblock: 'Failed to unblock',
  mute: 'Failed to mute',
  unmute: 'Failed to unmute',
};

export function useSafetyAction() {
  const utils = trpc.useUtils();
  return useMutation({
    mutationFn: async ({ action, userId }: { action: SafetyAction; userId: string; username: string }) => {
      await utils.client.safety[action].mutate({ userId });
    },
    onSuccess: (_result, { action, username }) => {
      toast({ title: DONE[action](username) });
      void utils.invalidate();
    },
    onError: (error, { action }) => errorToast(FAILED[action], error),
  });
}
