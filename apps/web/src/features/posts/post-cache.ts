/**
 * Posts live in several cached lists at once: the home feed (an infinite query, plus the small
 * "newest post" poll), each profile's posts, and single posts a link points at (posts.byId).
 * These helpers change one post everywhere, so a like or a new comment shows the same on every
 * screen without a refetch.
 */
import type { RouterOutputs } from '@cubes/api/client';
import type { InfiniteData, Query, QueryClient } from '@tanstack/react-query';

export type Post = RouterOutputs['posts']['feed']['items'][number];
export type PostPage = RouterOutputs['posts']['feed'];
type SinglePost = RouterOutputs['posts']['byId'];
type PostListData = PostPage | InfiniteData<PostPage, unknown> | SinglePost;

export const FEED_PAGE_SIZE = 20;

function procedurePath(query: Pick<Query, 'queryKey'>): string {
  const path = query.queryKey[0];
  return Array.isArray(path) ? path.join('.') : '';
}

/** posts.feed or users.posts (in any input, infinite or plain), or a single post (posts.byId). */
export function isPostListQuery(query: Pick<Query, 'queryKey'>): boolean {
  const path = procedurePath(query);
  return path === 'posts.feed' || path === 'users.posts' || path === 'posts.byId';
}

function isFeedQuery(query: Pick<Query, 'queryKey'>): boolean {
  return procedurePath(query) === 'posts.feed';
}

function isInfinite(data: PostListData): data is InfiniteData<PostPage, unknown> {
  return 'pages' in data;
}

function isSingle(data: PostListData): data is SinglePost {
  return 'post' in data;
}

function mapPage(page: PostPage, fn: (post: Post) => Post): PostPage {
  let changed = false;
  const items = page.items.map((post) => {
    const next = fn(post);
    if (next !== post) changed = true;
    return next;
  });
  return changed ? { ...page, items } : page;
}

function mapData(data: PostListData, fn: (post: Post) => Post): PostListData {
  if (isSingle(data)) {
    const post = fn(data.post);
    return post === data.post ? data : { post };
  }
  if (!isInfinite(data)) return mapPage(data, fn);
  return { ...data, pages: data.pages.map((page) => mapPage(page, fn)) };
}

/** Applies `patch` to the post with `postId` in every cached list. */
export function patchPost(
  queryClient: QueryClient,
  postId: string,
  patch: Partial<Post> | ((post: Post) => Partial<Post>),
): void {
  queryClient.setQueriesData<PostListData>({ predicate: isPostListQuery }, (data) =>
    data
      ? mapData(data, (post) =>
          post.id === postId ? { ...post, ...(typeof patch === 'function' ? patch(post) : patch) } : post,
        )
      : data,
  );
}

/** Puts a post the user just wrote at the top of the home feed (without a refetch). */
export function prependToFeed(queryClient: QueryClient, post: Post): void {
  queryClient.setQueriesData<PostListData>({ predicate: isFeedQuery }, (data) => {
    if (!data || isSingle(data) || !isInfinite(data)) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return {
      ...data,
      pages: [{ ...first, items: [post, ...first.items.filter((p) => p.id !== post.id)] }, ...rest],
    };
  });
}

export function cancelPostLists(queryClient: QueryClient): Promise<void> {
  return queryClient.cancelQueries({ predicate: isPostListQuery });
}

export function invalidatePostLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: isPostListQuery });
}

/**
 * The items of all loaded pages, each once (a refetch can shift an item across a page boundary;
 * a comment written here can come back on a later page).
 */
export function flattenPages<T extends { id: string }>(
  pages: readonly { items: readonly T[] }[] | undefined,
): T[] {
  if (!pages) return [];
  const seen = new Set<string>();
  const items: T[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}
