/**
 * Reports' queries: send a report. The dialog passes its own toasts (and what a repeat report
 * says) as the mutation's callbacks; nothing cached changes, since a member never sees the list.
 */
import { trpc } from '../../lib/trpc';

type CreateOptions = NonNullable<Parameters<typeof trpc.reports.create.useMutation>[0]>;

export function useCreateReportMutation(options: CreateOptions = {}) {
  return trpc.reports.create.useMutation(options);
}
