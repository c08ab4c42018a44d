/**
 * Safety's queries: block, unblock, mute and unmute. A block or mute changes what many lists show
 * (feeds, comments, search, notifications, the profile itself), so on success every query is
 * refetched rather than patched one by one. use-safety.ts adds the toasts.
 */
import { useMutation } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';

export type SafetyAction = 'block' | 'unblock' | 'mute' | 'unmute';

export interface SafetyVariables {
  action: SafetyAction;
  userId: string;
  username: string;
}

interface SafetyOptions {
  onSuccess?: (variables: SafetyVariables) => void;
  onError?: (error: Error, variables: SafetyVariables) => void;
}

export function useSafetyMutation({ onSuccess, onError }: SafetyOptions = {}) {
  const utils = trpc.useUtils();
  return useMutation({
    mutationFn: async ({ action, userId }: SafetyVariables) => {
      await utils.client.safety[action].mutate({ userId });
    },
    onSuccess: (_result, variables) => {
      onSuccess?.(variables);
      void utils.invalidate();
    },
    onError: (error, variables) => onError?.(error, variables),
  });
}
