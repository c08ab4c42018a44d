/**
 * The account's queries: the data export (asked every EXPORT_POLL_MS while it is being built; a
 * new request puts its state into that cache at once) and the deletion of the account. The cards
 * pass their own toasts and field errors as the mutations' callbacks.
 */
import { trpc } from '../../lib/trpc';

/** How often the page asks while the archive is being built. */
export const EXPORT_POLL_MS = 1000;

/** The archive is still being built. */
export function isBuilding(status: string | undefined): boolean {
  return status === 'queued' || status === 'running';
}

type RequestExportOptions = NonNullable<Parameters<typeof trpc.account.requestExport.useMutation>[0]>;
type DeleteOptions = NonNullable<Parameters<typeof trpc.account.delete.useMutation>[0]>;

/** The member's latest data export, polled while it is being built. */
export function useDataExportQuery() {
  return trpc.account.export.useQuery(undefined, {
    refetchInterval: (query) => (isBuilding(query.state.data?.status) ? EXPORT_POLL_MS : false),
  });
}

/** Start a new export: its first state is shown at once. */
export function useRequestExportMutation(options: RequestExportOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.account.requestExport.useMutation({
    ...options,
    onSuccess: (...args) => {
      utils.account.export.setData(undefined, args[0]);
      return options.onSuccess?.(...args);
    },
  });
}

/** Delete the account (the password confirms it); the server ends every session. */
export function useDeleteAccountMutation(options: DeleteOptions = {}) {
  return trpc.account.delete.useMutation(options);
}
