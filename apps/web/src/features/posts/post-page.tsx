/**
 * A post's own page (/posts/{id}, routes/post.tsx): the post as its card shows it everywhere
 * (mentions, tags, edit history, like, bookmark, share, its author's menu), its images at full
 * width, and its whole comment thread under it, paged, with the box to add one. Back returns to
 * the page of the app the reader came from, else home.
 *
 * Its data comes from the route's loader (post-page-queries.ts) into the query cache: the page
 * renders from the cache alone and asks for nothing in its effects, so a server renders it from
 * the same loader. Live, as in the feed (usePostChanges): an edit shows at once (with the counts
 * of that moment), new comments load, and a post deleted meanwhile becomes the not-found state.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, SearchX } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { WithSideColumn } from '../../components/shell/side-column';
import { Button } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/document-title';
import { errorCode } from '../../lib/error-message';
import { CommentsThread } from './comments-thread';
import { usePostCard } from './post-card-slot';
import { usePostChanges } from './post-changes';
import { PostPageImages } from './post-page-images';
import { usePostPageQuery } from './post-page-queries';

/**
 * What the router's navigation state says of a visit that landed on the page from outside the
 * app through an old link (`/?post=`, redirected by routes/home.tsx): there is no page of the app
 * to go back to, although the redirect was a navigation.
 */
export interface LandedState {
  landed: true;
}

function isLanded(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Partial<LandedState>).landed === true;
}

/**
 * Back: the page the reader came from within the app (the history's previous entry, scrolled as
 * they left it), or home when the post's page is where they landed (a shared link, a new tab).
 * Rendered as a link home either way, so it is the same wherever it is rendered, and a middle
 * click or Ctrl+click opens home in a new tab.
 */
function BackLink() {
  const navigate = useNavigate();
  const location = useLocation();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const plainClick =
      event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    // react-router's first entry has the key 'default': nothing of the app before it.
    const fromApp = location.key !== 'default' && !isLanded(location.state);
    if (!plainClick || !fromApp) return;
    event.preventDefault();
    navigate(-1);
  };
  return (
    <Button asChild variant="ghost" size="sm" className="-ms-2">
      <Link to="/" onClick={onClick}>
        <ArrowLeft aria-hidden="true" className="rtl:-scale-x-100" />
        <Trans>Back</Trans>
      </Link>
    </Button>
  );
}

/** An unknown id, and a post deleted, removed or hidden from this reader: the server says 404 alike. */
export function PostNotFound() {
  return (
    <section className="flex flex-col items-center gap-4 py-20 text-center">
      <span className="flex size-16 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
        <SearchX aria-hidden="true" className="size-8" />
      </span>
      <p className="text-sm font-semibold text-primary">404</p>
      <h1 className="text-3xl font-bold tracking-tight">
        <Trans>Post not found</Trans>
      </h1>
      <p className="max-w-sm text-muted-foreground">
        <Trans>This post does not exist or is no longer available.</Trans>
      </p>
      <Button asChild>
        <Link to="/">
          <Trans>Go to home</Trans>
        </Link>
      </Button>
    </section>
  );
}

/** The card's shape while the post is on its way: avatar and names, three lines, the actions. */
function PostCardSkeleton() {
  const bar = 'rounded bg-muted motion-safe:animate-pulse';
  return (
    <div role="status" className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm sm:p-5">
      <span className="sr-only">
        <Trans>Loading post...</Trans>
      </span>
      <div aria-hidden="true" className="flex items-center gap-3">
        <span className={`size-[42px] shrink-0 rounded-full ${bar}`} />
        <span className="grid gap-2">
          <span className={`h-4 w-32 ${bar}`} />
          <span className={`h-3.5 w-44 ${bar}`} />
        </span>
      </div>
      <div aria-hidden="true" className="grid gap-2 py-1">
        <span className={`h-4 w-full ${bar}`} />
        <span className={`h-4 w-11/12 ${bar}`} />
        <span className={`h-4 w-2/3 ${bar}`} />
      </div>
      <div aria-hidden="true" className="flex gap-3 pt-1">
        <span className={`h-7 w-12 ${bar}`} />
        <span className={`h-7 w-12 ${bar}`} />
        <span className={`ms-auto h-7 w-16 ${bar}`} />
      </div>
    </div>
  );
}

function PostPageHeader() {
  return (
    <div className="flex items-center gap-2">
      <BackLink />
      <h1 className="text-xl font-semibold tracking-tight">
        <Trans>Post</Trans>
      </h1>
    </div>
  );
}

export function PostPage({ postId }: { postId: string }) {
  const query = usePostPageQuery(postId);
  const PostCard = usePostCard();
  const { t } = useLingui();
  usePostChanges();
  // A member's shell hydrates before its post is asked for (ShellData in app.tsx).
  const post = query.data?.post;
  const code = errorCode(query.error);
  const failed = query.isError;
  // A post that is gone (or an id that never was one) is gone even where an earlier answer is kept.
  const missing = failed && (code === 'NOT_FOUND' || code === 'BAD_REQUEST');
  // Here, not in the states below: a child's effect runs before its parent's.
  const name = post?.userDisplayName;
  useDocumentTitle(missing ? t`Post not found` : post ? t`Post by ${name}` : t`Post`);

  if (missing) return <PostNotFound />;
  return (
    <WithSideColumn>
      <div className="mx-auto grid w-full max-w-2xl gap-4">
        <PostPageHeader />
        {post ? (
          <PostCard
            post={post}
            images={post.images.length > 0 ? <PostPageImages post={post} /> : null}
            thread={(id) => <CommentsThread postId={post.id} postAuthorId={post.userId} id={id} />}
          />
        ) : failed ? (
          <section className="flex flex-col items-center gap-3 rounded-xl border bg-card px-6 py-12 text-center">
            <p className="text-muted-foreground">
              <Trans>Could not load this post.</Trans>
            </p>
            <Button variant="outline" onClick={() => void query.refetch()}>
              <Trans>Retry</Trans>
            </Button>
          </section>
        ) : (
          <PostCardSkeleton />
        )}
      </div>
    </WithSideColumn>
  );
}
