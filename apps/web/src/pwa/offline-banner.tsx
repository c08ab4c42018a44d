/**
 * The "You're offline" state: a banner under the header while the browser has no network, so a
 * page opened from the service worker's cached shell says why nothing loads.
 */
import { Trans } from '@lingui/react/macro';
import { useOnline } from './use-online';

/** Lucide's wifi-off, drawn here so the first page's bundle carries no extra icon module. */
function WifiOff({ className }: { className: string }) {
  return (
    <svg
      aria-hidden="true"
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M12 20h.01M8.5 16.429a5 5 0 0 1 7 0M5 12.859a10 10 0 0 1 5.17-2.69M19 12.859a10 10 0 0 0-2.007-1.523M2 8.82a15 15 0 0 1 4.177-2.643M22 8.82a15 15 0 0 0-11.288-3.764M2 2l20 20" />
    </svg>
  );
}

export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div role="status" className="border-b border-border bg-muted text-foreground">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3 sm:px-6">
        <WifiOff className="size-5 shrink-0 text-muted-foreground" />
        <p className="text-sm">
          <strong className="font-semibold">
            <Trans>You're offline.</Trans>
          </strong>{' '}
          <span className="text-muted-foreground">
            <Trans>Posts, chats and images will load again when your connection is back.</Trans>
          </span>
        </p>
      </div>
    </div>
  );
}
