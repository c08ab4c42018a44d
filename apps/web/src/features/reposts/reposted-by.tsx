/** The line above a post that came into a list by a repost: "Reposted by {displayName}". */
import { Trans } from '@lingui/react/macro';
import { Repeat2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { Post } from '../posts/post-cache';

export function RepostedBy({ by }: { by: NonNullable<Post['repostedBy']> }) {
  const name = by.displayName;
  return (
    <p className="-mb-1 flex min-w-0 items-center gap-2 text-sm font-medium text-muted-foreground">
      <Repeat2 aria-hidden="true" className="size-4 shrink-0" />
      <span className="min-w-0 truncate">
        <Trans>
          Reposted by{' '}
          <Link to={`/profile/${encodeURIComponent(by.username)}`} className="leading-6 hover:underline">
            {name}
          </Link>
        </Trans>
      </span>
    </p>
  );
}
