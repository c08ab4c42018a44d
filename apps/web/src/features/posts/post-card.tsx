/**
 * One post: who reposted it (in lists it came to by a repost), author, time (and "edited", which
 * opens the history), text, up to four images and the like / comment / repost / share actions;
 * its author also gets the edit and delete menu.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Heart, MessageCircle, Pin, Share2 } from 'lucide-react';
import { memo, type ReactNode, Suspense, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { RelativeTime } from '../../components/relative-time';
import { Spinner } from '../../components/ui/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { UserText } from '../../components/user-text';
import { cn } from '../../lib/cn';
import { lazyPart } from '../../lib/lazy-part';
import { setWarningShown, useWarningShown } from '../../lib/shown-warnings';
import { useAuth } from '../auth/auth-provider';
import { BookmarkButton } from '../bookmarks/bookmark-button';
import { ReportButton } from '../reports/report-button';
import { QuoteButton } from '../reposts/quote-button';
import { RepostButton } from '../reposts/repost-button';
import { RepostedBy } from '../reposts/reposted-by';
import { postActionClasses } from './post-action-classes';
import { PostActions } from './post-actions';
import type { Post } from './post-cache';
import { EditedMark } from './post-history';
import { PostImages } from './post-images';
import { postPath } from './post-path';
import { useLikeMutation } from './queries';
import { sharePost } from './share';

// The thread (and the form schema it validates with) loads on first open.
// A poll (polls/poll.tsx) loads with the first post that has one: the first page's budget.
// A post's poll, link card and quoted post load with the first post that has one (the first
// page's script stays within its budget); a page the server rendered keeps their HTML meanwhile.
const Poll = lazyPart('poll', () => import('../polls/poll').then((m) => m.Poll));
const LinkCard = lazyPart('link-card', () => import('../link-cards/link-card').then((m) => m.LinkCard));
const QuoteCard = lazyPart('quote-card', () => import('../reposts/quote-card').then((m) => m.QuoteCard));
const CommentsThread = lazyPart('comments-thread', () =>
  import('./comments-thread').then((m) => m.CommentsThread),
);

const actionClasses = postActionClasses;

export interface PostCardProps {
  post: Post;
  /**
   * Laid out and painted only when near the screen (`drawn-when-near`): for a list's cards below
   * its first screen. A card on the first screen goes without: the browser would first lay it out
   * at the estimated height, empty, and draw it a frame later, moving what is under it.
   */
  drawnWhenNear?: boolean;
  /** how the text's plain pieces are drawn: a search result marks the words it matched */
  markText?: (text: string) => ReactNode;
  /**
   * The post's own page (/posts/{id}) draws its images in place of the card's grid, and its comment
   * thread, always shown (given the thread's element id); Comments then moves to the comment box.
   */
  images?: ReactNode;
  thread?: (id: string) => ReactNode;
  /** a pinned post says so (a profile's Posts tab, which its pinned posts lead) */
  showPinned?: boolean;
  /** a list's first card: its first image, likely the page's largest paint, is fetched at once and first */
  leading?: boolean;
}

export const PostCard = memo(function PostCard({
  post,
  drawnWhenNear = false,
  markText,
  images,
  thread,
  showPinned = false,
  leading = false,
}: PostCardProps) {
  const { toggle } = useLikeMutation();
  const { i18n, t } = useLingui();
  const { user, preferences } = useAuth();
  const [showComments, setShowComments] = useState(false);
  const baseId = useId();
  const threadId = `${baseId}-thread`;
  // A content warning folds the text, images, link card, poll and quote until Show (remembered for
  // the session: shown-warnings.ts), unless the member always shows them. Folded, they are not in
  // the page at all, so the server's HTML leaves them out too.
  const warning = post.contentWarning;
  const always = preferences?.alwaysShowContentWarnings;
  const opened = useWarningShown(post.id, !!warning);
  const folded = !!warning && !always && !opened;
  const profile = `/profile/${encodeURIComponent(post.username)}`;
  const author = {
    username: post.username,
    displayName: post.userDisplayName,
    avatarUrl: post.userAvatarUrl,
  };
  const name = post.userDisplayName;
  const reposter = post.repostedBy?.displayName;
  const likes = post.likesCount;
  const comments = post.commentsCount;
  const postLabel = t`Post by ${name}`;

  return (
    <article
      id={`post-${post.id}`}
      aria-label={post.repostedBy ? t`Post by ${name}, reposted by ${reposter}` : postLabel}
      data-post-id={post.id}
      className={cn(
        'grid gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm shadow-black/[0.03] sm:p-5',
        // Not while the comments are open: the @ list of their reply box is drawn past the card.
        drawnWhenNear && !showComments && 'drawn-when-near',
      )}
    >
      {showPinned && post.pinned ? (
        <p className="-mb-1 flex items-center gap-2 text-sm font-medium text-muted-foreground">
          <Pin aria-hidden="true" className="size-4 shrink-0" />
          <Trans>Pinned</Trans>
        </p>
      ) : post.repostedBy ? (
        <RepostedBy by={post.repostedBy} />
      ) : null}
      <header className="flex items-center gap-3">
        <Link to={profile} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
          <UserAvatar user={author} size={42} decorative />
        </Link>
        <div className="grid min-w-0 leading-tight">
          {/* Each of the header's links is 24 px tall (WCAG 2.5.8, axe target-size). */}
          <Link to={profile} className="truncate font-semibold leading-6 hover:underline">
            {post.userDisplayName}
          </Link>
          <div className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
            {/* A flex item: its own direction sets only how `@name` reads, left to right as
                components/handle.tsx explains, not where it sits in the row. No inner element:
                the card is skipped while off screen (content-visibility), and an inner span of
                the handle was once read in the old theme's colour by CI's axe audit. */}
            <Link to={profile} dir="ltr" className="truncate leading-6 hover:underline">
              @{post.username}
            </Link>
            <span aria-hidden="true">·</span>
            {/* The post's own page, its permalink. */}
            <Link to={postPath(post.id)} className="shrink-0 leading-6 hover:underline">
              <RelativeTime date={post.createdAt} />
              <span className="sr-only">
                <Trans>, open the post</Trans>
              </span>
            </Link>
            {post.editedAt ? (
              <>
                <span aria-hidden="true">·</span>
                <EditedMark post={{ ...post, editedAt: post.editedAt }} />
              </>
            ) : null}
          </div>
        </div>
        {user?.id === post.userId ? <PostActions post={post} /> : null}
      </header>

      {warning ? (
        <div className="flex items-center gap-3 rounded-lg border px-3 py-2">
          <p id={`${baseId}-cw`} className="user-text min-w-0 flex-1 text-sm font-medium">
            <span className="sr-only">
              <Trans>Content warning:</Trans>{' '}
            </span>
            {warning}
          </p>
          {always ? null : (
            <button
              type="button"
              className={cn(actionClasses, 'border')}
              aria-expanded={!folded}
              aria-controls={folded ? undefined : `${baseId}-body`}
              aria-describedby={`${baseId}-cw`}
              onClick={() => setWarningShown(post.id, folded)}
            >
              {folded ? <Trans>Show</Trans> : <Trans>Hide</Trans>}
            </button>
          )}
        </div>
      ) : null}
      {folded ? null : (
        <div id={`${baseId}-body`} className="contents">
          <UserText
            text={post.content}
            mentions={post.mentions}
            mark={markText}
            className="text-[15px] leading-relaxed"
          />

          {images ?? (post.images?.length ? <PostImages post={post} leading={leading} /> : null)}
          {post.linkCard ? (
            <Suspense fallback={null}>
              <LinkCard post={post} />
            </Suspense>
          ) : null}
          {post.poll ? (
            <Suspense fallback={null}>
              <Poll postId={post.id} poll={post.poll} />
            </Suspense>
          ) : null}

          {post.quotePostId ? (
            <Suspense fallback={null}>
              <QuoteCard quote={post.quote} />
            </Suspense>
          ) : null}
        </div>
      )}

      <footer className="-mx-2 -mb-1 flex items-center sm:gap-1">
        <button
          type="button"
          className={cn(actionClasses, post.isLiked && 'text-rose-600 dark:text-rose-400')}
          aria-pressed={post.isLiked}
          aria-label={
            post.isLiked
              ? t`Unlike, ${plural(likes, { one: '# like', other: '# likes' })}`
              : t`Like, ${plural(likes, { one: '# like', other: '# likes' })}`
          }
          onClick={() => toggle(post)}
        >
          <Heart aria-hidden="true" className={cn(post.isLiked && 'fill-current')} />
          <span className="tabular-nums">{i18n.number(likes)}</span>
        </button>
        <button
          type="button"
          className={cn(actionClasses, showComments && 'bg-accent text-accent-foreground')}
          aria-label={t`Comments, ${plural(comments, { one: '# comment', other: '# comments' })}`}
          aria-expanded={thread ? undefined : showComments}
          aria-controls={showComments || thread ? threadId : undefined}
          onClick={() =>
            thread
              ? document.getElementById(threadId)?.querySelector('textarea')?.focus()
              : setShowComments((open) => !open)
          }
        >
          <MessageCircle aria-hidden="true" />
          <span className="tabular-nums">{i18n.number(comments)}</span>
        </button>
        <RepostButton post={post} className={actionClasses} />
        <QuoteButton post={post} className={actionClasses} />
        <button
          type="button"
          className={cn(actionClasses, 'ms-auto')}
          aria-label={t`Share`}
          onClick={() => void sharePost(post)}
        >
          <Share2 aria-hidden="true" />
          <span className="hidden sm:inline">
            <Trans>Share</Trans>
          </span>
        </button>
        <BookmarkButton post={post} />
        <ReportButton targetType="post" targetId={post.id} ownerId={post.userId} subject={postLabel} />
      </footer>

      {thread ? (
        thread(threadId)
      ) : showComments ? (
        <Suspense
          fallback={
            <p role="status" className="flex items-center gap-2 border-t pt-3 text-sm text-muted-foreground">
              <Spinner /> <Trans>Loading comments...</Trans>
            </p>
          }
        >
          <CommentsThread postId={post.id} postAuthorId={post.userId} id={threadId} />
        </Suspense>
      ) : null}
    </article>
  );
});
