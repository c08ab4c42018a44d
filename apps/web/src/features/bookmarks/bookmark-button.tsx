/** The bookmark toggle on a post card: an icon button, pressed while the post is bookmarked. */
import { useLingui } from '@lingui/react/macro';
import { Bookmark } from 'lucide-react';
import { cn } from '../../lib/cn';
import { postActionClasses } from '../posts/post-action-classes';
import type { Post } from '../posts/post-cache';
import { useBookmark } from './queries';

const buttonClasses = postActionClasses;

export function BookmarkButton({ post }: { post: Pick<Post, 'id' | 'isBookmarked'> }) {
  const { toggle } = useBookmark();
  const { t } = useLingui();
  const label = post.isBookmarked ? t`Remove bookmark` : t`Bookmark`;
  return (
    <button
      type="button"
      className={cn(buttonClasses, post.isBookmarked && 'text-primary')}
      aria-pressed={post.isBookmarked}
      aria-label={label}
      title={label}
      onClick={() => toggle(post)}
    >
      <Bookmark aria-hidden="true" className={cn(post.isBookmarked && 'fill-current')} />
    </button>
  );
}
