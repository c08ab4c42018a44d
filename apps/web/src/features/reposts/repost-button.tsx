/** The repost toggle on a post card: pressed while the viewer has reposted it, with the count. */
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Repeat2 } from 'lucide-react';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/count-label';
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
  const { i18n, t } = useLingui();
  const count = post.repostsCount;
  const label = post.isReposted ? t`Undo repost` : t`Repost`;
  const name = post.isReposted
    ? t`Undo repost, ${plural(count, { one: '# repost', other: '# reposts' })}`
    : t`Repost, ${plural(count, { one: '# repost', other: '# reposts' })}`;
  return (
    <button
      type="button"
      className={cn(className, post.isReposted && 'text-emerald-700 dark:text-emerald-400')}
      aria-pressed={post.isReposted}
      aria-label={name}
      title={label}
      onClick={() => toggle(post)}
    >
      <Repeat2 aria-hidden="true" />
      <span className="tabular-nums">{formatCount(post.repostsCount, i18n)}</span>
    </button>
  );
}
