/**
 * A tag's page (/tags/{tag}): its posts newest first, paged as the feed, with its counts of posts
 * and of people. Live: a post with the tag published anywhere (tags.onNew) refreshes the counts
 * and the first page.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { TagName } from '../../components/handle';
import { ListFailed, ListLoading } from '../../components/list-state';
import { useDocumentTitle } from '../../lib/document-title';
import { flattenPages } from '../posts/post-cache';
import { PostList } from '../posts/post-list';
import { tagOf, useTagLive, useTagPostsQuery, useTagSummaryQuery } from './queries';
import { TagIcon, tagCounts } from './tag-link';

export function TagView({ tag: raw }: { tag: string }) {
  const { tag, valid } = tagOf(raw);
  const { i18n, t } = useLingui();
  useDocumentTitle(`#${tag}`);
  const summary = useTagSummaryQuery(tag, valid);
  const posts = useTagPostsQuery(tag, valid);
  useTagLive(tag, valid && posts.isSuccess);
  const items = useMemo(() => flattenPages(posts.data?.pages), [posts.data]);

  if (!valid) {
    return (
      <section className="py-20 text-center">
        <h1 className="text-2xl font-bold tracking-tight">
          <Trans>Not a tag</Trans>
        </h1>
        <p className="mt-2 text-muted-foreground">
          <Trans>A tag has letters, digits and _ only.</Trans>
        </p>
      </section>
    );
  }
  return (
    <div className="space-y-5">
      <header className="flex items-center gap-3">
        <TagIcon className="size-12 rounded-2xl" iconClassName="size-6" />
        <div className="grid min-w-0">
          <h1 className="user-text text-2xl font-bold tracking-tight">
            <TagName>{tag}</TagName>
          </h1>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {summary.data ? tagCounts(summary.data, i18n) : '\u00a0'}
          </p>
        </div>
      </header>
      {posts.isPending ? (
        <ListLoading>
          <Trans>Loading posts...</Trans>
        </ListLoading>
      ) : posts.isError ? (
        <ListFailed onRetry={() => void posts.refetch()}>
          <Trans>Could not load posts.</Trans>
        </ListFailed>
      ) : (
        <PostList
          posts={items}
          hasNextPage={posts.hasNextPage}
          isFetchingNextPage={posts.isFetchingNextPage}
          fetchNextPage={() => void posts.fetchNextPage()}
          label={t`Posts tagged #${tag}`}
          loading={t`Loading posts...`}
          empty={t`No posts with #${tag} yet`}
        />
      )}
    </div>
  );
}
