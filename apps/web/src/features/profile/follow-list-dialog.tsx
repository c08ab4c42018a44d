/**
 * The dialog behind a profile's Followers and Following counts (follow-stat.tsx; docs/web.md,
 * "Profiles"): who follows, or is followed (follows.followers / follows.following), most recent
 * follow first, paged with "Show more", each member with a Follow button. The server leaves out
 * members blocked either way with the viewer and suspended ones.
 */
import type { RouterOutputs } from '@cubes/api/client';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Users } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Link } from 'react-router-dom';
import { Handle } from '../../components/handle';
import { PagedList } from '../../components/paged-list';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { UserAvatar } from '../../components/user-avatar';
import { focusBackWithoutScroll } from '../../lib/focus-back';
import { FollowButton } from '../follows/follow-button';
import { useFollowListQuery } from './queries';

export type FollowListKind = 'followers' | 'following';

type Entry = RouterOutputs['follows']['followers']['items'][number];

const PAGE_SIZE = 20;

/** The dialog's title, and its list's name, for each list. */
const TITLES: Record<FollowListKind, MessageDescriptor> = {
  followers: msg`Followers`,
  following: msg`Following`,
};

function EntryRow({ entry, onOpenProfile }: { entry: Entry; onOpenProfile: () => void }) {
  const profile = `/profile/${encodeURIComponent(entry.username)}`;
  return (
    <li className="flex items-center gap-3 py-3">
      <Link
        to={profile}
        tabIndex={-1}
        aria-hidden="true"
        onClick={onOpenProfile}
        className="shrink-0 rounded-full"
      >
        <UserAvatar user={entry} size={44} decorative />
      </Link>
      <div className="grid min-w-0 flex-1 leading-tight">
        <Link
          to={profile}
          onClick={onOpenProfile}
          className="user-text text-sm font-semibold hover:underline"
        >
          {entry.displayName}
        </Link>
        <Handle username={entry.username} className="user-text text-xs text-muted-foreground" />
        {entry.bio?.trim() ? (
          <span className="user-text mt-1 line-clamp-2 text-xs text-muted-foreground">{entry.bio}</span>
        ) : null}
      </div>
      <FollowButton userId={entry.id} displayName={entry.displayName} isFollowing={entry.isFollowing} />
    </li>
  );
}

function FollowList({
  kind,
  userId,
  displayName,
  onOpenProfile,
}: {
  kind: FollowListKind;
  userId: string;
  displayName: string;
  onOpenProfile: () => void;
}) {
  const { i18n } = useLingui();
  // Asked again at each open: whom the members follow changes, and so does the list.
  const query = useFollowListQuery(kind, userId, PAGE_SIZE);
  const name = displayName;
  return (
    <div className="-mx-1 min-h-0 overflow-y-auto px-1">
      <PagedList
        query={query}
        align="center"
        label={i18n._(TITLES[kind])}
        loading={
          kind === 'followers' ? <Trans>Loading followers...</Trans> : <Trans>Loading following...</Trans>
        }
        empty={
          <div className="flex flex-col items-center gap-3 py-10 text-center text-sm text-muted-foreground">
            <span className="flex size-11 items-center justify-center rounded-full bg-accent text-accent-foreground">
              <Users aria-hidden="true" className="size-5" />
            </span>
            <p className="user-text">
              {kind === 'followers' ? (
                <Trans>No one follows {name} yet.</Trans>
              ) : (
                <Trans>{name} doesn't follow anyone yet.</Trans>
              )}
            </p>
          </div>
        }
        renderItem={(entry) => (
          // Keyed by whether they are followed too: the button starts again from a newer answer.
          <EntryRow key={`${entry.id}:${entry.isFollowing}`} entry={entry} onOpenProfile={onOpenProfile} />
        )}
      />
    </div>
  );
}

/**
 * The list behind a profile's count (follow-stat.tsx), loaded the first time a count is pressed.
 * Controlled: the count's button opens it, and focus goes back there when it closes.
 */
export default function FollowListDialog({
  kind,
  userId,
  displayName,
  open,
  onOpenChange,
  returnFocus,
}: {
  kind: FollowListKind;
  userId: string;
  displayName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocus: () => HTMLElement | null;
}) {
  const { i18n } = useLingui();
  const name = displayName;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content
          onCloseAutoFocus={focusBackWithoutScroll(returnFocus)}
          className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[min(40rem,calc(100dvh-2rem))] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 grid-rows-[auto_minmax(0,1fr)] gap-3 rounded-xl border bg-popover p-5 text-popover-foreground shadow-xl sm:p-6"
        >
          <div className="grid gap-1 pe-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">
              {i18n._(TITLES[kind])}
            </Dialog.Title>
            <Dialog.Description className="user-text text-sm text-muted-foreground">
              {kind === 'followers' ? (
                <Trans>People who follow {name}</Trans>
              ) : (
                <Trans>People {name} follows</Trans>
              )}
            </Dialog.Description>
          </div>
          <FollowList
            kind={kind}
            userId={userId}
            displayName={displayName}
            onOpenProfile={() => onOpenChange(false)}
          />
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
