/** The bookmark toggle on a post card: an icon button, pressed while the post is bookmarked. */
import { Bookmark } from 'lucide-react';
import { cn } from '../../lib/cn';
import type { Post } from '../posts/post-cache';
import { useBookmark } from './queries';

const buttonClasses =
  'inline-flex h-9 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-muted-foreground transition-colors ' +
  'hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-[18px]';

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
