/** The bookmark toggle on a post card: an icon button, pressed while the post is bookmarked. */
import { Bookmark } from 'lucide-react';
import { cn } from '../../lib/cn';
import { postActionClasses } from '../posts/post-action-classes';
import type { Post } from '../posts/post-cache';
import { useBookmark } from './queries';

const buttonClasses = postActionClasses;

export function BookmarkButton({ post }: { post: Pick<Post, 'id' | 'isBookmarked'> }) {
  const { toggle } = useBookmark();
  return (
    <button
      type="button"
      className={cn(buttonClasses, post.isBookmarked && 'text-primary')}
      aria-pressed={post.isBookmarked}
      aria-label={post.isBookmarked ? 'Remove bookmark' : 'Bookmark'}
      title={post.isBookmarked ? 'Remove bookmark' : 'Bookmark'}
      onClick={() => toggle(post)}
    >
      <Bookmark aria-hidden="true" className={cn(post.isBookmarked && 'fill-current')} />
    </button>
  );
}
