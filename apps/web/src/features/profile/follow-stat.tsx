/**
 * A profile's Followers and Following counts (docs/web.md, "Profiles"): each is a button that
 * opens the list in a dialog (follow-list-dialog.tsx). The dialog's code, with Radix's, loads the
 * first time a count is pressed: a visitor's profile paints and starts without it (bench/README.md,
 * "Dialogs on demand"). Closing the dialog refreshes the profile's counts, which a follow made in
 * the list may have changed (one's own Following).
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useRef, useState } from 'react';
import { useOpenedOnce } from '../../lib/opened-once';
import type { FollowListKind } from './follow-list-dialog';
import { useRefreshProfiles } from './queries';

const FollowListDialog = lazy(() => import('./follow-list-dialog'));

/** "12 followers" on a profile: a button that opens who they are. */
export function FollowStat({
  kind,
  userId,
  displayName,
  count,
}: {
  kind: FollowListKind;
  userId: string;
  displayName: string;
  count: number;
}) {
  const { i18n } = useLingui();
  const refreshProfiles = useRefreshProfiles();
  const [open, setOpen] = useState(false);
  const loaded = useOpenedOnce(open);
  const trigger = useRef<HTMLButtonElement>(null);
  const shown = i18n.number(count);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) refreshProfiles();
  };
  return (
    <li>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        className="rounded-sm text-sm text-muted-foreground hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        {kind === 'followers' ? (
          <Trans>
            <span className="text-base font-semibold text-foreground tabular-nums">{shown}</span>{' '}
            <Plural value={count} one="follower" other="followers" />
          </Trans>
        ) : (
          <Trans>
            <span className="text-base font-semibold text-foreground tabular-nums">{shown}</span>{' '}
            <Plural value={count} one="following" other="following" />
          </Trans>
        )}
      </button>
      {loaded ? (
        <Suspense fallback={null}>
          <FollowListDialog
            kind={kind}
            userId={userId}
            displayName={displayName}
            open={open}
            onOpenChange={onOpenChange}
            returnFocus={() => trigger.current}
          />
        </Suspense>
      ) : null}
    </li>
  );
}
