/**
 * A member's profile (docs/web.md, "Profiles"): banner, avatar (in front of the banner's edge),
 * names, bio, counts (Followers and Following open their lists), Follow / Message (or Edit profile
 * on your own), and the Posts, Favorites and Media tabs.
 */
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Ban,
  CalendarDays,
  Heart,
  ImageIcon,
  Mail,
  MessageSquare,
  Pencil,
  UserCheck,
  UserPlus,
  UserX,
  VolumeX,
} from 'lucide-react';
import { type ReactNode, useMemo } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Handle } from '../../components/handle';
import { ListFailed, ListLoading } from '../../components/list-state';
import { PageLoading } from '../../components/shell/page-loading';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Tabs } from '../../components/ui/tabs';
import { UserAvatar } from '../../components/user-avatar';
import { UserText } from '../../components/user-text';
import { useDocumentTitle } from '../../lib/document-title';
import { errorCode } from '../../lib/error-message';
import { useAuth } from '../auth/auth-provider';
import { ProfileFavorites, ProfileMedia } from '../gallery/profile-tabs';
import { loginToasts } from '../posts/login-toasts';
import { flattenPages } from '../posts/post-cache';
import { PostList } from '../posts/post-list';
import { ProfileSafetyMenu } from '../safety/profile-safety-menu';
import { useSafetyAction } from '../safety/use-safety';
import { FollowStat } from './follow-stat';
import { useFollowMutation, useProfileQuery, useUserPostsQuery } from './queries';

/** What a profile without a bio says (translated where shown). */
export const DEFAULT_BIO = msg`Member of Cubes AI`;

/** "3 posts" among the profile's counts, its number set off. */
function PostsStat({ value }: { value: number }) {
  const { i18n } = useLingui();
  const shown = i18n.number(value);
  return (
    <li className="text-sm text-muted-foreground">
      <Trans>
        <span className="text-base font-semibold text-foreground tabular-nums">{shown}</span>{' '}
        <Plural value={value} one="post" other="posts" />
      </Trans>
    </li>
  );
}

function EmptyTab({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center text-sm text-muted-foreground">
      <span className="flex size-11 items-center justify-center rounded-full bg-accent text-accent-foreground [&_svg]:size-5">
        {icon}
      </span>
      {children}
    </Card>
  );
}

function UserPosts({ userId }: { userId: string }) {
  const { t } = useLingui();
  const posts = useUserPostsQuery(userId);
  const items = useMemo(() => flattenPages(posts.data?.pages), [posts.data]);
  if (posts.isPending) {
    return (
      <ListLoading>
        <Trans>Loading posts...</Trans>
      </ListLoading>
    );
  }
  if (posts.isError) {
    return (
      <ListFailed onRetry={() => void posts.refetch()}>
        <Trans>Could not load posts.</Trans>
      </ListFailed>
    );
  }
  return (
    <PostList
      posts={items}
      hasNextPage={posts.hasNextPage}
      isFetchingNextPage={posts.isFetchingNextPage}
      fetchNextPage={() => void posts.fetchNextPage()}
      label={t`Posts`}
      loading={t`Loading posts...`}
      empty={t`No posts yet`}
      showPinned
    />
  );
}

export function UserNotFound() {
  const { t } = useLingui();
  useDocumentTitle(t`User not found`);
  return (
    <section className="flex flex-col items-center gap-4 py-20 text-center">
      <span className="flex size-16 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
        <UserX aria-hidden="true" className="size-8" />
      </span>
      <h1 className="text-2xl font-bold tracking-tight">
        <Trans>User not found</Trans>
      </h1>
      <p className="max-w-sm text-muted-foreground">
        <Trans>There is no member with this username.</Trans>
      </p>
      <Button asChild>
        <Link to="/">
          <Trans>Go to home</Trans>
        </Link>
      </Button>
    </section>
  );
}

export function ProfileView({ username }: { username: string }) {
  const { i18n, t } = useLingui();
  const { user: viewer, status } = useAuth();
  const navigate = useNavigate();
  const profile = useProfileQuery(username);
  const follow = useFollowMutation(username);
  const safety = useSafetyAction();
  const data = profile.data;
  useDocumentTitle(data ? `${data.user.displayName} (@${data.user.username})` : `@${username}`);

  if (profile.isPending) return <PageLoading label={t`Loading profile...`} />;
  if (profile.isError) {
    if (errorCode(profile.error) === 'NOT_FOUND') return <UserNotFound />;
    return (
      <section className="flex flex-col items-center gap-3 py-20 text-center">
        <p className="text-muted-foreground">
          <Trans>Could not load this profile.</Trans>
        </p>
        <Button variant="outline" onClick={() => void profile.refetch()}>
          <Trans>Retry</Trans>
        </Button>
      </section>
    );
  }

  const { user, stats, isFollowing, isBlocking, isBlockedBy, isMuting, isSuspended } = data!;
  const isOwn = viewer?.id === user.id;
  // A block either way, or a suspension: no details, no posts, no follow or message (the server
  // enforces it too).
  const walledOff = isBlocking || isBlockedBy || isSuspended;

  const toggleFollow = () => {
    if (status === 'loading') return;
    if (!viewer) {
      loginToasts.follow();
      return;
    }
    if (follow.isPending) return;
    follow.mutate({ userId: user.id, follow: !isFollowing });
  };

  const joined = i18n.date(new Date(user.createdAt), { month: 'long', year: 'numeric' });
  const handle = user.username;

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <section
        aria-labelledby="profile-name"
        className="overflow-hidden rounded-2xl border bg-card shadow-sm"
      >
        <div className="relative h-32 sm:h-48">
          {user.headerUrl ? (
            <img src={user.headerUrl} alt="" className="size-full object-cover" />
          ) : (
            <div
              aria-hidden="true"
              className="size-full bg-gradient-to-br from-primary via-primary/70 to-brand-2"
            />
          )}
        </div>
        <div className="px-4 pb-5 sm:px-6">
          {/* Phones: avatar, then the buttons on their own row; from sm up side by side. */}
          <div className="-mt-12 flex flex-col gap-3 sm:-mt-16 sm:flex-row sm:items-end sm:justify-between">
            {/* In front of the banner's edge: the banner is positioned, so the avatar must be too. */}
            <div className="relative z-10 w-fit shrink-0">
              <UserAvatar user={user} size={112} decorative className="border-4 border-card shadow-md" />
            </div>
            <div className="flex gap-2 *:flex-1 sm:*:flex-none">
              {isOwn ? (
                <Button asChild variant="outline" className="h-9 px-3 sm:h-10 sm:px-4">
                  <Link to="/settings">
                    <Pencil aria-hidden="true" />
                    <Trans>Edit profile</Trans>
                  </Link>
                </Button>
              ) : walledOff ? (
                <>
                  {isBlocking ? (
                    <Button
                      variant="outline"
                      className="h-9 min-w-24 px-3 sm:h-10 sm:min-w-28 sm:px-4"
                      disabled={safety.isPending}
                      onClick={() =>
                        safety.mutate({ action: 'unblock', userId: user.id, username: user.username })
                      }
                    >
                      <Ban aria-hidden="true" />
                      <Trans>Unblock</Trans>
                    </Button>
                  ) : null}
                  {viewer ? (
                    <ProfileSafetyMenu user={user} isBlocking={isBlocking} isMuting={isMuting} />
                  ) : null}
                </>
              ) : (
                <>
                  <Button
                    variant={isFollowing ? 'outline' : 'default'}
                    onClick={toggleFollow}
                    // Until the session is known a click could do nothing: say so, not swallow it.
                    disabled={status === 'loading'}
                    aria-pressed={isFollowing}
                    className="h-9 min-w-24 px-3 sm:h-10 sm:min-w-28 sm:px-4"
                  >
                    {isFollowing ? <UserCheck aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
                    {isFollowing ? <Trans>Unfollow</Trans> : <Trans>Follow</Trans>}
                  </Button>
                  <Button
                    variant="outline"
                    className="h-9 px-3 sm:h-10 sm:px-4"
                    onClick={() => navigate(`/chat?user=${encodeURIComponent(user.id)}`)}
                  >
                    <MessageSquare aria-hidden="true" />
                    <Trans>Message</Trans>
                  </Button>
                  {viewer ? (
                    <ProfileSafetyMenu user={user} isBlocking={isBlocking} isMuting={isMuting} />
                  ) : null}
                </>
              )}
            </div>
          </div>
          <div className="mt-3 grid gap-1">
            <h1 id="profile-name" className="user-text text-2xl font-bold tracking-tight">
              {user.displayName}
            </h1>
            <p className="user-text flex flex-wrap items-center gap-2 text-muted-foreground">
              <Handle username={user.username} />
              {isMuting ? (
                <span className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-0.5 text-xs font-medium">
                  <VolumeX aria-hidden="true" className="size-3" />
                  <Trans>Muted</Trans>
                </span>
              ) : null}
            </p>
          </div>
          {walledOff ? (
            <p
              role="status"
              className="user-text mt-3 rounded-lg bg-muted px-3 py-2 text-sm text-muted-foreground"
            >
              {isBlocking ? (
                <Trans>You blocked @{handle}. You don't see each other's posts or details.</Trans>
              ) : isBlockedBy ? (
                <Trans>@{handle} blocked you. You can't see their posts or details.</Trans>
              ) : (
                <Trans>@{handle} is suspended. Their posts, comments and media are hidden.</Trans>
              )}
            </p>
          ) : (
            <UserText text={user.bio?.trim() || i18n._(DEFAULT_BIO)} className="mt-3" />
          )}
          <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
            {user.emailVisible && user.email ? (
              <a
                href={`mailto:${user.email}`}
                className="user-text flex min-w-0 items-center gap-1.5 hover:underline"
              >
                <Mail aria-hidden="true" className="size-4" />
                {user.email}
              </a>
            ) : null}
            <p className="flex items-center gap-1.5">
              <CalendarDays aria-hidden="true" className="size-4" />
              <Trans>Joined {joined}</Trans>
            </p>
          </div>
          {/* No counts across a block either way (the server sends none), nor a suspended member's. */}
          {walledOff ? null : (
            <ul aria-label={t`Profile stats`} className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
              <FollowStat
                kind="followers"
                userId={user.id}
                displayName={user.displayName}
                count={stats.followersCount}
              />
              <FollowStat
                kind="following"
                userId={user.id}
                displayName={user.displayName}
                count={stats.followingCount}
              />
              <PostsStat value={stats.postsCount} />
            </ul>
          )}
        </div>
      </section>

      {walledOff ? null : (
        <Tabs
          label={t`Profile sections`}
          defaultValue="posts"
          items={[
            { value: 'posts', label: t`Posts`, panel: <UserPosts userId={user.id} /> },
            {
              value: 'favorites',
              label: t`Favorites`,
              panel: (
                <ProfileFavorites
                  userId={user.id}
                  empty={
                    <EmptyTab icon={<Heart aria-hidden="true" />}>
                      <Trans>No favorites yet</Trans>
                    </EmptyTab>
                  }
                />
              ),
            },
            {
              value: 'media',
              label: t`Media`,
              panel: (
                <ProfileMedia
                  userId={user.id}
                  empty={
                    <EmptyTab icon={<ImageIcon aria-hidden="true" />}>
                      <Trans>No media yet</Trans>
                    </EmptyTab>
                  }
                />
              ),
            },
          ]}
        />
      )}
    </div>
  );
}
