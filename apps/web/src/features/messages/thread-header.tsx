/** The open conversation's header: Back (phones), and whom it is with. */
import { isDeletedUsername } from '@cubes/api/rules';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft } from 'lucide-react';
import { Handle } from '../../components/handle';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { UserAvatar } from '../../components/user-avatar';
import type { ChatThreadState } from './use-chat-thread';

export function ThreadHeader({ peer, onBack }: { peer: ChatThreadState['peer']; onBack: () => void }) {
  const { t } = useLingui();
  return (
    <header className="flex items-center gap-3 border-b px-3 py-2.5 md:px-4">
      <Button variant="ghost" size="icon" className="md:hidden" onClick={onBack} aria-label={t`Back`}>
        <ArrowLeft aria-hidden="true" className="rtl:-scale-x-100" />
      </Button>
      {peer.data ? (
        <>
          <UserAvatar user={peer.data} size={36} decorative />
          <div className="grid min-w-0">
            <h2 className="truncate font-semibold">{peer.data.displayName}</h2>
            {isDeletedUsername(peer.data.username) ? null : (
              <Handle username={peer.data.username} className="truncate text-xs text-muted-foreground" />
            )}
          </div>
        </>
      ) : peer.isError ? (
        <h2 className="font-semibold">
          <Trans>Unknown member</Trans>
        </h2>
      ) : (
        <Spinner />
      )}
    </header>
  );
}
