/**
 * One post: author, time (and "edited", which opens the history), text, optional image and the
 * like / comment / share actions; its author also gets the edit and delete menu.
 */
import { Heart, MessageCircle, Share2, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { lazy, memo, Suspense, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { RelativeTime } from '../../components/relative-time';
import { Spinner } from '../../components/ui/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { UserText } from '../../components/user-text';
import { cn } from '../../lib/cn';
import { focusBackWithoutScroll } from '../../lib/focus-back';
import { useAuth } from '../auth/auth-provider';
import { ReportButton } from '../reports/report-button';
import { thumbnailUrl } from '../uploads/image-paths';
import { PostActions } from './post-actions';
import type { Post } from './post-cache';
import { EditedMark } from './post-history';
import { sharePost } from './share';
import { useLike } from './use-like';

// The thread (and the form schema it validates with) loads on first open.
const CommentsThread = lazy(() => import('./comments-thread').then((m) => ({ default: m.CommentsThread })));

const actionClasses =
  'inline-flex h-9 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-muted-foreground transition-colors ' +
  'hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-[18px]';

/** "3 likes": with the verb, the accessible name of a count button ("Like, 3 likes"), so the
 * visible number is part of the name. */
function countLabel(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Alt text of a post's image: the post's own words (shortened), else who attached it. */
function imageAlt(post: Post): string {
  const text = post.content.replace(/\s+/g, ' ').trim();
  if (!text) return `Image attached by ${post.userDisplayName}`;
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

/**
 * The thumbnail in a fixed 16:10 box (the feed does not jump while it loads); a click shows the
 * full-size image in a dialog.
 */
function PostImage({ post, src }: { post: Post; src: string }) {
  const alt = imageAlt(post);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>
        <button
          ref={trigger}
          type="button"
          aria-label="View full image"
          className="block aspect-[16/10] w-full overflow-hidden rounded-lg border bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <img
            src={thumbnailUrl(src)}
            alt={alt}
            loading="lazy"
            decoding="async"
            className="size-full object-cover transition-transform duration-300 hover:scale-[1.02]"
          />
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/80" />
        <Dialog.Content
          onCloseAutoFocus={focusBackWithoutScroll(() => trigger.current)}
          className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-fit max-w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 place-items-center outline-none"
        >
          <Dialog.Title className="sr-only">Image by {post.userDisplayName}</Dialog.Title>
          <Dialog.Description className="sr-only">{alt}</Dialog.Description>
          <img
            src={src}
            alt={alt}
            decoding="async"
            className="max-h-[calc(100dvh-2rem)] max-w-[calc(100vw-2rem)] rounded-lg object-contain shadow-2xl"
          />
          <Dialog.Close
            aria-label="Close"
            className="absolute top-2 right-2 inline-flex size-9 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-white"
          >
            <X aria-hidden="true" className="size-5" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

interface PostCardProps {
  post: Post;
  highlighted?: boolean;
}

export const PostCard = memo(function PostCard({ post, highlighted = false }: PostCardProps) {
  const { toggle } = useLike();
  const { user } = useAuth();
  const [showComments, setShowComments] = useState(false);
  const baseId = useId();
  const threadId = `${baseId}-thread`;
  const profile = `/profile/${encodeURIComponent(post.username)}`;
  const author = {
    username: post.username,
    displayName: post.userDisplayName,
    avatarUrl: post.userAvatarUrl,
  };

  return (
    <article
      id={`post-${post.id}`}
      aria-label={`Post by ${post.userDisplayName}`}
      data-post-id={post.id}
      data-highlighted={highlighted || undefined}
      className={cn(
        'grid scroll-mt-24 gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm shadow-black/[0.03] transition-shadow duration-500 sm:p-5',
        highlighted && 'ring-2 ring-primary ring-offset-2 ring-offset-background',
      )}
    >
      <header className="flex items-center gap-3">
        <Link to={profile} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
          <UserAvatar user={author} size={42} decorative />
        </Link>
        <div className="grid min-w-0 leading-tight">
          <Link to={profile} className="truncate font-semibold hover:underline">
            {post.userDisplayName}
          </Link>
          <div className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
            <Link to={profile} className="truncate hover:underline">
              @{post.username}
            </Link>
            <span aria-hidden="true">·</span>
            <RelativeTime date={post.createdAt} className="shrink-0" />
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

      <UserText text={post.content} className="text-[15px] leading-relaxed" />

      {post.imageUrl ? <PostImage post={post} src={post.imageUrl} /> : null}

      <footer className="-mx-2 -mb-1 flex items-center gap-1">
        <button
          type="button"
          className={cn(actionClasses, post.isLiked && 'text-rose-600 dark:text-rose-400')}
          aria-pressed={post.isLiked}
          aria-label={`${post.isLiked ? 'Unlike' : 'Like'}, ${countLabel(post.likesCount, 'like', 'likes')}`}
          onClick={() => toggle(post)}
        >
          <Heart aria-hidden="true" className={cn(post.isLiked && 'fill-current')} />
          <span className="tabular-nums">{post.likesCount}</span>
        </button>
        <button
          type="button"
          className={cn(actionClasses, showComments && 'bg-accent text-accent-foreground')}
          aria-label={`Comments, ${countLabel(post.commentsCount, 'comment', 'comments')}`}
          aria-expanded={showComments}
          aria-controls={showComments ? threadId : undefined}
          onClick={() => setShowComments((open) => !open)}
        >
          <MessageCircle aria-hidden="true" />
          <span className="tabular-nums">{post.commentsCount}</span>
        </button>
        <button
          type="button"
          className={cn(actionClasses, 'ml-auto')}
          aria-label="Share"
          onClick={() => void sharePost(post)}
        >
          <Share2 aria-hidden="true" />
          <span className="hidden sm:inline">Share</span>
        </button>
        <ReportButton
          targetType="post"
          targetId={post.id}
          ownerId={post.userId}
          subject={`Post by ${post.userDisplayName}`}
        />
      </footer>

      {showComments ? (
        <Suspense
          fallback={
            <p role="status" className="flex items-center gap-2 border-t pt-3 text-sm text-muted-foreground">
              <Spinner /> Loading comments...
            </p>
          }
        >
          <CommentsThread postId={post.id} postAuthorId={post.userId} id={threadId} />
        </Suspense>
      ) : null}
    </article>
  );
});
