/**
 * Moderation's queries: the open reports and the audit log (both paged), and the four actions
 * (dismiss, remove, suspend, lift a suspension). Each action, once done, reads the reports and
 * the log again. To anyone who is not a moderator the procedures answer 404: the reports query
 * does not retry it. The view passes its own toasts as the mutations' callbacks.
 */
import { errorCode } from '../../lib/error-message';
import { trpc } from '../../lib/trpc';

/** The open reports, oldest first, paged. */
export function useOpenReportsQuery() {
  return trpc.moderation.reports.useInfiniteQuery(
    {},
    {
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      retry: (count, e) => errorCode(e) !== 'NOT_FOUND' && count < 2,
    },
  );
}

/** Every moderation action, newest first, paged. */
export function useModerationLogQuery() {
  return trpc.moderation.log.useInfiniteQuery(
    {},
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
}

/** After an action: the reports and the log are read again. */
function useActed() {
  const utils = trpc.useUtils();
  return () => {
    void utils.moderation.reports.invalidate();
    void utils.moderation.log.invalidate();
  };
}

type Callbacks = { onSuccess: () => void; onError: (error: unknown) => void };

function withActed({ onSuccess, onError }: Callbacks, acted: () => void) {
  return {
    onSuccess: () => {
      onSuccess();
      acted();
    },
    onError,
  };
}

export function useDismissReportMutation(callbacks: Callbacks) {
  return trpc.moderation.dismiss.useMutation(withActed(callbacks, useActed()));
}

export function useRemoveContentMutation(callbacks: Callbacks) {
  return trpc.moderation.remove.useMutation(withActed(callbacks, useActed()));
}

export function useSuspendMemberMutation(callbacks: Callbacks) {
  return trpc.moderation.suspend.useMutation(withActed(callbacks, useActed()));
}

export function useLiftSuspensionMutation(callbacks: Callbacks) {
  return trpc.moderation.unsuspend.useMutation(withActed(callbacks, useActed()));
}
