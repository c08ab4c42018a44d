/**
 * The "You're offline" state: a banner under the header while the browser has no network, so a
 * page opened from the service worker's cached shell says why nothing loads.
 */
import { WifiOff } from 'lucide-react';
import { useOnline } from './use-online';

export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div role="status" className="border-b border-border bg-muted text-foreground">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3 sm:px-6">
        <WifiOff aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
        <p className="text-sm">
          <strong className="font-semibold">You're offline.</strong>{' '}
          <span className="text-muted-foreground">
            Posts, chats and images will load again when your connection is back.
          </span>
        </p>
      </div>
    </div>
  );
}
