/**
 * Settings → "Blocked users" and "Muted users": who the member blocked or muted, newest first,
 * each with an undo (Unblock / Unmute), paged with "Show more".
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import { Handle } from '../../components/handle';
import { PagedList } from '../../components/paged-list';
import { Button } from '../../components/ui/button';
import { UserAvatar } from '../../components/user-avatar';
import { trpc } from '../../lib/trpc';
import { SettingsCard } from '../settings/settings-card';
import { useSafetyAction } from './use-safety';

const PAGE_SIZE = 20;

const LISTS = {
  blocked: {
    id: 'blocked-users',
    title: msg`Blocked users`,
    description: msg`You and the people you block don't see each other's posts, comments or profile details.`,
    empty: msg`You haven't blocked anyone.`,
    undo: 'unblock',
    undoLabel: msg`Unblock`,
  },
  muted: {
    id: 'muted-users',
    title: msg`Muted users`,
    description: msg`Posts by people you mute stay out of your feeds and their notifications stop. They don't know.`,
    empty: msg`You haven't muted anyone.`,
    undo: 'unmute',
    undoLabel: msg`Unmute`,
  },
} as const;

function SafetyList({ kind }: { kind: keyof typeof LISTS }) {
  const { i18n, t } = useLingui();
  const list = LISTS[kind];
  // The undo button's name says whom it is for.
  const undoName = (username: string) =>
    list.undo === 'unblock' ? t`Unblock @${username}` : t`Unmute @${username}`;
  const query = trpc.safety[kind].useInfiniteQuery(
    { limit: PAGE_SIZE },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  const action = useSafetyAction();

  return (
    <SettingsCard id={list.id} title={i18n._(list.title)} description={i18n._(list.description)}>
      <PagedList
        query={query}
        loading={t`Loading...`}
        empty={<p className="text-sm text-muted-foreground">{i18n._(list.empty)}</p>}
        listClassName="grid"
        renderItem={(entry) => (
          <li key={entry.userId} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
            <UserAvatar user={entry} size={40} decorative />
            <div className="grid min-w-0 flex-1">
              <Link
                to={`/profile/${encodeURIComponent(entry.username)}`}
                className="user-text truncate font-medium hover:underline"
              >
                {entry.displayName}
              </Link>
              <Handle
                username={entry.username}
                className="user-text truncate text-sm text-muted-foreground"
              />
            </div>
            <Button
              variant="outline"
              size="sm"
              disabled={action.isPending}
              aria-label={undoName(entry.username)}
              onClick={() =>
                action.mutate({ action: list.undo, userId: entry.userId, username: entry.username })
              }
            >
              {i18n._(list.undoLabel)}
            </Button>
          </li>
        )}
      />
    </SettingsCard>
  );
}
export function SafetyLists() {
  return (
    <>
      <SafetyList kind="blocked" />
      <SafetyList kind="muted" />
    </>
  );
}
