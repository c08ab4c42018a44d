/**
 * The queries of a post's own page (/posts/{id}): the post, and the first page of its comments,
 * which the route's loader asks for (routes/loader.ts) under the keys the page reads. Not in
 * queries.ts: the page's chunk importing that module splits the first page's chunk
 * (rolldown/rolldown#10731, post-changes.ts).
 */
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { prefetchComments } from '../comments/queries';

/** The post: an answer the loader got is not asked again, nor is a 404 when the page mounts. */
export function usePostPageQuery(postId: string) {
  return trpc.posts.byId.useQuery({ postId }, { retryOnMount: false });
}

/** The page's first data, the post and its first comments, both asked for at once. */
export async function prefetchPostPage(utils: QueryUtils, postId: string): Promise<void> {
  if (postId === '') return;
  await Promise.all([utils.posts.byId.prefetch({ postId }), prefetchComments(utils, postId)]);
}
