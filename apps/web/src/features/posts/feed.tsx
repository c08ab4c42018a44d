/**
 * The home feed, Everyone's posts or (scope 'following') those of the people the reader follows
 * and their own: newest first, cursor-paged with infinite scroll. A one-post query checks for
 * something newer whenever the socket announces a new post (and every 30 s, the fallback);
 * instead of shifting the list under the reader it offers a 'New posts' pill that scrolls to the
 * top and refreshes.
 *
 * `?post={id}` (a notification or a shared link) scrolls to that post and highlights it; a post
 * older than the loaded pages is fetched on its own and shown above the feed.
 */
import type { FeedScope } from '@cubes/api/schemas';
import { ArrowUp } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ListFailed, ListLoading } from '../../components/list-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useMediaQuery } from '../../lib/use-media-query';
import { flattenPages, type Post } from './post-cache';
import { PostCard } from './post-card';
import { PostList } from './post-list';
import { useFeedQuery, useNewestPostQuery, useNewPostsLive, usePostQuery, useTrimFeed } from './queries';

export const FEED_POLL_MS = 30_000;
const HIGHLIGHT_MS = 4000;

/**
 * Calls `then` with the element of this id once it is in the document: a list draws its cards
 * after it mounts, the later ones in a transition, so the card a link points at may come a few
 * renders after its data. Returns the function that stops waiting.
 */
export function whenRendered(id: string, then: (element: HTMLElement) => void): () => void {
  const present = document.getElementById(id);
  if (present) {
    then(present);
    return () => {};
  }
  const observer = new MutationObserver(() => {
    const element = document.getElementById(id);
    if (!element) return;
    observer.disconnect();
    then(element);
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/**
 * Scrolls a linked post's card to the top of the screen, below the sticky header (its
 * `scroll-margin-top`), and moves the focus to it (without a second scroll), so the keyboard and a
 * screen reader go on from it. The cards above it are laid out only near the screen
 * (`drawn-when-near`), so the first jump aims at estimated heights: it is made again each frame
 * until the card stays put, or the reader scrolls, types or taps. A jump, not a smooth scroll:
 * one would aim at those estimates too. Returns the function that stops it.
 */
function bringIntoView(element: HTMLElement): () => void {
  let frame = 0;
  let frames = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of READER_INPUT) window.removeEventListener(type, stop);
  };
  const settle = () => {
    const before = element.getBoundingClientRect().top;
    element.scrollIntoView({ block: 'start', behavior: 'auto' });
    const after = element.getBoundingClientRect().top;
    frames += 1;
    if ((frames > 1 && Math.abs(after - before) < 1) || frames > 60) stop();
    else frame = requestAnimationFrame(settle);
  };
  for (const type of READER_INPUT) window.addEventListener(type, stop, { passive: true });
  element.focus({ preventScroll: true });
  settle();
  return stop;
}
const READER_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

export function Feed({
  focusPostId,
  scope = 'everyone',
}: {
  focusPostId?: string | null;
  scope?: FeedScope;
}) {
  const feed = useFeedQuery(scope);
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
  // Read through a ref so the scrolling callbacks (and the effects that call them) stay the same.
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

  // A post a notification or a shared link points at: scroll to it once its card is on the page,
  // move the focus to it, and highlight it for a moment.
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const highlightTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stopWaiting = useRef<() => void>(() => {});
  const flash = useCallback((postId: string) => {
    stopWaiting.current();
    let stopScrolling = () => {};
    const stopRendered = whenRendered(`post-${postId}`, (element) => {
      stopScrolling = bringIntoView(element);
    });
    stopWaiting.current = () => {
      stopRendered();
      stopScrolling();
    };
    setHighlighted(postId);
    clearTimeout(highlightTimer.current);
    highlightTimer.current = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
  }, []);
  useEffect(
    () => () => {
      clearTimeout(highlightTimer.current);
      stopWaiting.current();
    },
    [],
  );

  // Decided once per link, when the first page is in: in the list, or fetched on its own.
  const postsRef = useRef<Post[]>(posts);
  postsRef.current = posts;
  const [linkedId, setLinkedId] = useState<string | null>(null);
  const ready = feed.isSuccess;
  useEffect(() => {
    if (!focusPostId) {
      setLinkedId(null);
      return;
    }
    if (!ready) return;
    if (postsRef.current.some((p) => p.id === focusPostId)) {
      setLinkedId(null);
      flash(focusPostId);
    } else {
      setLinkedId(focusPostId);
    }
  }, [focusPostId, ready, flash]);
  const linked = usePostQuery(linkedId);
  const linkedPost = linked.data?.post.id === linkedId ? linked.data?.post : undefined;
  useEffect(() => {
    if (linkedPost) flash(linkedPost.id);
  }, [linkedPost?.id, flash]);
  // Once paging brings it into the list, the list shows it (one card per post).
  const linkedInList = !!linkedId && posts.some((p) => p.id === linkedId);

  if (feed.isPending) {
    return <ListLoading>Loading posts...</ListLoading>;
  }

  if (feed.isError) {
    return <ListFailed onRetry={() => void refetch()}>Could not load posts.</ListFailed>;
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
            New posts
          </Button>
        ) : null}
      </div>
      {linkedId && !linkedInList ? (
        <section aria-labelledby="linked-post-title" className="grid gap-2">
          <h3
            id="linked-post-title"
            className="text-xs font-medium tracking-wide text-muted-foreground uppercase"
          >
            Linked post
          </h3>
          {linkedPost ? (
            <PostCard post={linkedPost} highlighted={highlighted === linkedPost.id} />
          ) : linked.isError ? (
            <Card role="status" className="px-6 py-8 text-center text-sm text-muted-foreground">
              {linked.error.data?.code === 'NOT_FOUND'
                ? 'This post is no longer available.'
                : 'Could not load this post.'}
            </Card>
          ) : (
            <Card
              role="status"
              className="flex items-center justify-center gap-2 px-6 py-8 text-sm text-muted-foreground"
            >
              <Spinner />
              Loading post...
            </Card>
          )}
        </section>
      ) : null}
      <PostList
        posts={posts}
        highlightedId={highlighted}
        hasNextPage={feed.hasNextPage}
        isFetchingNextPage={feed.isFetchingNextPage}
        fetchNextPage={() => void feed.fetchNextPage()}
        label="Posts"
        loading="Loading posts..."
        empty={
          scope === 'following' ? (
            <>
              Posts by people you follow show up here.{' '}
              <Link to="/search" className="font-medium text-primary underline-offset-4 hover:underline">
                Find people to follow
              </Link>
            </>
          ) : (
            'No posts yet. Be the first to post!'
          )
        }
      />
    </div>
  );
}
