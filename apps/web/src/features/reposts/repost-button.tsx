/** The repost toggle on a post card: pressed while the viewer has reposted it, with the count. */
import { Repeat2 } from 'lucide-react';
import { cn } from '../../lib/cn';
import { countLabel, formatCount } from '../../lib/count-label';
import type { Post } from '../posts/post-cache';
import { useRepost } from './queries';

export function RepostButton({
  post,
  className,
}: {
  post: Pick<Post, 'id' | 'isReposted' | 'repostsCount'>;
  className: string;
}) {
  const { toggle } = useRepost();
  const label = post.isReposted ? 'Undo repost' : 'Repost';
  return (
    <button
      type="button"
      className={cn(className, post.isReposted && 'text-emerald-700 dark:text-emerald-400')}
      aria-pressed={post.isReposted}
      aria-label={`${label}, ${countLabel(post.repostsCount, 'repost', 'reposts')}`}
      title={label}
      onClick={() => toggle(post)}
    >
      <Repeat2 aria-hidden="true" />
      <span className="tabular-nums">{formatCount(post.repostsCount)}</span>
    </button>
  );
}
