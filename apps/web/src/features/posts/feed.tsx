/**
 * The home feed, Everyone's posts or (scope 'following') those of the people the reader follows
 * and their own: newest first, cursor-paged with infinite scroll. A one-post query checks for
 * something newer whenever the socket announces a new post (and every 30 s, the fallback);
 * instead of shifting the list under the reader it offers a 'New posts' pill that scrolls to the
 * top and refreshes. A link to one post leads to its own page (post-page.tsx), not here.
 */
import type { FeedScope } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowUp } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ListFailed, ListLoading } from '../../components/list-state';
import { Button } from '../../components/ui/button';
import { useMediaQuery } from '../../lib/use-media-query';
import { flattenPages } from './post-cache';
import { PostList } from './post-list';
import { useFeedQuery, useNewestPostQuery, useNewPostsLive, useTrimFeed } from './queries';

export const FEED_POLL_MS = 30_000;

export function Feed({ scope = 'everyone' }: { scope?: FeedScope }) {
  const feed = useFeedQuery(scope);
  const { t } = useLingui();
  const latest = useNewestPostQuery(scope, feed.isSuccess, FEED_POLL_MS);
  const trimFeed = useTrimFeed(scope);
  // Live: a post published anywhere checks for news at once; the 30 s poll is the fallback.
  const refetchLatest = latest.refetch;
  useNewPostsLive(feed.isSuccess, () => void refetchLatest());

  const posts = useMemo(() => flattenPages(feed.data?.pages), [feed.data]);
  const newest = posts[0];
  const polled = latest.data?.items[0];
  const hasNewPosts =
    !!polled &&
    !!newest &&
    polled.id !== newest.id &&
    new Date(polled.createdAt).getTime() > new Date(newest.createdAt).getTime();

  const { refetch } = feed;
  // Read through a ref so showNewPosts stays the same.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const scrollBehavior = useRef<ScrollBehavior>('smooth');
  scrollBehavior.current = reducedMotion ? 'auto' : 'smooth';
  // An empty feed has no place to keep: show the first posts as soon as they exist.
  const emptyButPolledSomething = feed.isSuccess && posts.length === 0 && !!polled;
  useEffect(() => {
    if (emptyButPolledSomething) void refetch();
  }, [emptyButPolledSomething, refetch]);

  const showNewPosts = useCallback(() => {
    window.scrollTo({ top: 0, behavior: scrollBehavior.current });
    // Back to one page, then refresh it: the reader is at the top now.
    trimFeed();
    void refetch();
  }, [trimFeed, refetch]);

  if (feed.isPending) {
    return (
      <ListLoading>
        <Trans>Loading posts...</Trans>
      </ListLoading>
    );
  }

  if (feed.isError) {
    return (
      <ListFailed onRetry={() => void refetch()}>
        <Trans>Could not load posts.</Trans>
      </ListFailed>
    );
  }

  return (
    <div className="relative grid gap-4">
      <div
        aria-live="polite"
        className="pointer-events-none sticky top-20 z-30 -mb-4 flex h-0 justify-center"
      >
        {hasNewPosts ? (
          <Button
            size="sm"
            onClick={showNewPosts}
            className="new-posts-pill pointer-events-auto rounded-full shadow-lg"
          >
            <ArrowUp aria-hidden="true" />
            <Trans>New posts</Trans>
          </Button>
        ) : null}
      </div>
      <PostList
        posts={posts}
        hasNextPage={feed.hasNextPage}
        isFetchingNextPage={feed.isFetchingNextPage}
        fetchNextPage={() => void feed.fetchNextPage()}
        label={t`Posts`}
        loading={<Trans>Loading posts...</Trans>}
        empty={
          scope === 'following' ? (
            <>
              <Trans>Posts by people you follow show up here.</Trans>{' '}
              <Link to="/search" className="font-medium text-primary underline-offset-4 hover:underline">
                <Trans>Find people to follow</Trans>
              </Link>
            </>
          ) : (
            <Trans>No posts yet. Be the first to post!</Trans>
          )
        }
      />
    </div>
  );
}
