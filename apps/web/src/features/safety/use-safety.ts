/**
 * Block, unblock, mute and unmute, for the profile menu and the Settings lists, with their toasts
 * (the request and the refetch that follows it are in queries.ts).
 */
import { useLingui } from '@lingui/react/macro';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { type SafetyAction, useSafetyMutation } from './queries';

export function useSafetyAction() {
  const { t } = useLingui();
  const done = (action: SafetyAction, name: string) => {
    switch (action) {
      case 'block':
        return t`You blocked @${name}`;
      case 'unblock':
        return t`You unblocked @${name}`;
      case 'mute':
        return t`You muted @${name}`;
      case 'unmute':
        return t`You unmuted @${name}`;
    }
  };
  const failed = (action: SafetyAction) => {
    switch (action) {
      case 'block':
        return t`Failed to block`;
      case 'unblock':
        return t`Failed to unblock`;
      case 'mute':
        return t`Failed to mute`;
      case 'unmute':
        return t`Failed to unmute`;
    }
  };
  return useSafetyMutation({
    onSuccess: ({ action, username }) => {
      toast({ title: done(action, username) });
    },
    onError: (error, { action }) => errorToast(failed(action), error, t`Please try again`),
  });
}
