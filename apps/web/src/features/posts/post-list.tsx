/**
 * A cursor-paged list of post cards: loads the next page when its end scrolls near, or on 'Load
 * more'. Posts deleted or edited elsewhere leave or change live.
 */
import { Trans } from '@lingui/react/macro';
import { type ReactNode, startTransition, useEffect, useRef, useState } from 'react';
import { ListLoading } from '../../components/list-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useServerRendered } from '../../lib/server-rendered';
import { useDrawnAfterMount } from '../../lib/use-drawn-after-mount';
import type { Post } from './post-cache';
import { PostCard } from './post-card';
import { usePostChanges } from './post-changes';

/**
 * Cards drawn first when the list appears (in a background render: `useDrawnAfterMount`); the rest
 * follow in a transition, which React also renders in short slices. A page of 20 cards rendered in
 * one go was a 2 s task on Lighthouse's throttled phone (its Total Blocking Time); the first cards
 * are what the screen shows anyway. Later changes (a like, a new post) render at once. The cards
 * after them are laid out only when they come near the screen (PostCard's `drawnWhenNear`).
 */
const FIRST_CARDS = 3;

interface PostListProps {
  posts: Post[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  /** 'Posts' list label for screen readers */
  label: string;
  empty: ReactNode;
  /** shown for the moment before the first cards are drawn, as the caller shows its loading state */
  loading: ReactNode;
  /** a profile's Posts tab: its pinned posts (first) say so */
  showPinned?: boolean;
}

export function PostList({
  posts,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  label,
  empty,
  loading,
  showPinned = false,
}: PostListProps) {
  usePostChanges();
  const drawn = useDrawnAfterMount();
  // A page the server rendered has every card drawn (crawlers read them; the browser hydrates them).
  const [allCards, setAllCards] = useState(useServerRendered());
  useEffect(() => {
    if (drawn) startTransition(() => setAllCards(true));
  }, [drawn]);
  // Every card is on the page: the end of the list (the sentinel, Load more) is where it seems.
  const complete = allCards || posts.length <= FIRST_CARDS;
  const shown = complete ? posts : posts.slice(0, FIRST_CARDS);
  const sentinel = useRef<HTMLDivElement>(null);
  const canLoad = hasNextPage && !isFetchingNextPage;
  const loadRef = useRef(fetchNextPage);
  loadRef.current = fetchNextPage;

  useEffect(() => {
    const target = sentinel.current;
    // Not while only the first cards are there: the end would look near and load a page early.
    if (!drawn || !target || !canLoad || !complete || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadRef.current();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [canLoad, complete, drawn]);

  if (!drawn) return <ListLoading>{loading}</ListLoading>;
  if (posts.length === 0) {
    return <Card className="px-6 py-12 text-center text-sm text-muted-foreground">{empty}</Card>;
  }

  return (
    <div className="grid gap-4">
      <ul aria-label={label} className="grid gap-4">
        {shown.map((post, index) => (
          <li key={post.id}>
            <PostCard
              post={post}
              drawnWhenNear={index >= FIRST_CARDS}
              leading={index === 0}
              showPinned={showPinned}
            />
          </li>
        ))}
      </ul>
      <div ref={sentinel} aria-hidden="true" className="h-px" />
      {!complete ? null : hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? (
              <>
                <Spinner /> <Trans>Loading more...</Trans>
              </>
            ) : (
              <Trans>Load more</Trans>
            )}
          </Button>
        </div>
      ) : (
        <p className="py-2 text-center text-sm text-muted-foreground">
          <Trans>You're all caught up.</Trans>
        </p>
      )}
    </div>
  );
}
