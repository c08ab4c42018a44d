/**
 * Block, unblock, mute and unmute, for the profile menu and the Settings lists, with their toasts
 * (the request and the refetch that follows it are in queries.ts).
 */
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { type SafetyAction, useSafetyMutation } from './queries';

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
  return useSafetyMutation({
    onSuccess: ({ action, username }) => {
      toast({ title: DONE[action](username) });
    },
    onError: (error, { action }) => errorToast(FAILED[action], error),
  });
}
