/**
 * The Bookmarks screen (/bookmarks, from the avatar menu): the member's bookmarked posts, newest
 * bookmark first, paged like the feed. Only they see it; posts hidden from them since are left
 * out by the server.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Bookmark } from 'lucide-react';
import { useMemo } from 'react';
import { ListFailed, ListLoading } from '../../components/list-state';
import { flattenPages } from '../posts/post-cache';
import { PostList } from '../posts/post-list';
import { useBookmarksQuery } from './queries';

export function BookmarksView() {
  const bookmarks = useBookmarksQuery();
  const { t } = useLingui();
  const items = useMemo(() => flattenPages(bookmarks.data?.pages), [bookmarks.data]);
  if (bookmarks.isPending) {
    return (
      <ListLoading>
        <Trans>Loading bookmarks...</Trans>
      </ListLoading>
    );
  }
  if (bookmarks.isError) {
    return (
      <ListFailed onRetry={() => void bookmarks.refetch()}>
        <Trans>Could not load your bookmarks.</Trans>
      </ListFailed>
    );
  }
  return (
    <PostList
      posts={items}
      hasNextPage={bookmarks.hasNextPage}
      isFetchingNextPage={bookmarks.isFetchingNextPage}
      fetchNextPage={() => void bookmarks.fetchNextPage()}
      label={t`Bookmarks`}
      loading={t`Loading bookmarks...`}
      empty={
        <span className="flex flex-col items-center gap-2">
          <Bookmark aria-hidden="true" className="size-6" />
          <span className="font-medium text-foreground">
            <Trans>No bookmarks yet</Trans>
          </span>
          <span>
            <Trans>Tap the bookmark on a post to keep it here. Only you can see your bookmarks.</Trans>
          </span>
        </span>
      }
    />
  );
}
