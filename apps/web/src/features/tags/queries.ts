/**
 * A tag's queries: its counts and its posts (the keys, the hooks and the page's loader,
 * routes/tag.tsx), and the live refresh of both when a post with the tag is published; the
 * trending tags, and the tags a search's words could start.
 */
import { isTag, tagPrefixOf } from '@cubes/api/text-links';
import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { FEED_PAGE_SIZE } from '../posts/post-cache';

/** The tag a URL names (`#Pixel_Art`, `pixel_art`) as the server keys it, or null if it is none. */
export function tagOf(raw: string): { tag: string; valid: boolean } {
  const tag = raw.replace(/^#/, '').normalize('NFKC').toLowerCase();
  return { tag, valid: isTag(tag) };
}

export const summaryInput = (tag: string) => ({ tag });
const postsInput = (tag: string) => ({ tag, limit: FEED_PAGE_SIZE });

/** The tag's counts of posts and of people. */
export function useTagSummaryQuery(tag: string, enabled: boolean) {
  return trpc.tags.summary.useQuery(summaryInput(tag), { enabled, retry: false });
}

/** The tag's posts, newest first, paged as the feed. */
export function useTagPostsQuery(tag: string, enabled: boolean) {
  return trpc.tags.posts.useInfiniteQuery(postsInput(tag), {
    enabled,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: false,
  });
}

/** Live (tags.onNew): a post with the tag published anywhere refreshes the counts and the posts. */
export function useTagLive(tag: string, enabled: boolean): void {
  const utils = trpc.useUtils();
  trpc.tags.onNew.useSubscription(
    { tag },
    {
      enabled,
      onData: () => {
        void utils.tags.summary.invalidate(summaryInput(tag));
        void utils.tags.posts.invalidate({ tag });
      },
    },
  );
}

/** The tag page's first data: the counts and the first page of posts, side by side. */
export async function prefetchTag(utils: QueryUtils, raw: string): Promise<void> {
  const { tag, valid } = tagOf(raw);
  if (!valid) return;
  await Promise.all([
    utils.tags.summary.prefetch(summaryInput(tag)),
    utils.tags.posts.prefetchInfinite(postsInput(tag)),
  ]);
}

/** The tags the most distinct people used in the trending window, kept 30 s. */
export function useTrendingTagsQuery() {
  return trpc.tags.trending.useQuery(undefined, { staleTime: 30_000, retry: false });
}

/** Search's tags for the query `q`, for its page's loader (nothing when `q` could start no tag). */
export async function prefetchTagMatches(utils: QueryUtils, q: string): Promise<void> {
  const prefix = tagPrefixOf(q);
  if (prefix !== null) await utils.tags.search.prefetch({ q: prefix });
}

/** The tags starting with `prefix` (none asked while null), kept 30 s; the last answer stays while the next loads. */
export function useTagSearchQuery(prefix: string | null) {
  return trpc.tags.search.useQuery(
    { q: prefix ?? '' },
    { enabled: prefix !== null, placeholderData: keepPreviousData, retry: false, staleTime: 30_000 },
  );
}
