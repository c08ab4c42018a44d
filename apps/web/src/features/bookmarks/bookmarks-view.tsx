/**
 * The Bookmarks screen (/bookmarks, from the avatar menu): the member's bookmarked posts, newest
 * bookmark first, paged like the feed. Only they see it; posts hidden from them since are left
 * out by the server.
 */
import { Bookmark } from 'lucide-react';
import { useMemo } from 'react';
import { ListFailed, ListLoading } from '../../components/list-state';
import { flattenPages } from '../posts/post-cache';
import { PostList } from '../posts/post-list';
import { useBookmarksQuery } from './queries';

export function BookmarksView() {
  const bookmarks = useBookmarksQuery();
  const items = useMemo(() => flattenPages(bookmarks.data?.pages), [bookmarks.data]);
  if (bookmarks.isPending) {
    return <ListLoading>Loading bookmarks...</ListLoading>;
  }
  if (bookmarks.isError) {
    return <ListFailed onRetry={() => void bookmarks.refetch()}>Could not load your bookmarks.</ListFailed>;
  }
  return (
    <PostList
      posts={items}
      hasNextPage={bookmarks.hasNextPage}
      isFetchingNextPage={bookmarks.isFetchingNextPage}
      fetchNextPage={() => void bookmarks.fetchNextPage()}
      label="Bookmarks"
      loading="Loading bookmarks..."
      empty={
        <span className="flex flex-col items-center gap-2">
          <Bookmark aria-hidden="true" className="size-6" />
          <span className="font-medium text-foreground">No bookmarks yet</span>
          <span>Tap the bookmark on a post to keep it here. Only you can see your bookmarks.</span>
        </span>
      }
    />
  );
}
