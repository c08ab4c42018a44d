/**
 * Posts live in several cached lists at once: the home feed (an infinite query, plus the small
 * "newest post" poll), each profile's posts, and a post's own page (posts.byId).
 * These helpers change one post everywhere, so a like or a new comment shows the same on every
 * screen without a refetch.
 */
import type { RouterOutputs } from '@cubes/api/client';
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { trpc } from '../../lib/trpc';

export type Post = RouterOutputs['posts']['feed']['items'][number];
export type PostPage = RouterOutputs['posts']['feed'];
type SinglePost = RouterOutputs['posts']['byId'];
/** A search answer (search.query, search.suggestions): its posts are the feed's, with the words matched. */
type SearchAnswer = RouterOutputs['search']['query'];
type PostListData = PostPage | InfiniteData<PostPage, unknown> | SinglePost | SearchAnswer;

export const FEED_PAGE_SIZE = 20;

/** What an edit changes: the text, when, the images (their descriptions), what the text links, its link card. */
export const editedFields = ({
  content,
  contentWarning,
  editedAt,
  images,
  mentions,
  tags,
  linkCard,
}: Post) => ({
  content,
  contentWarning,
  editedAt,
  images,
  mentions,
  tags,
  linkCard,
});

// A procedure's key without input matches its queries of every input, infinite or plain.
const feedKey = (): QueryKey => getQueryKey(trpc.posts.feed);
/**
 * posts.feed, users.posts (a profile's posts), posts.byId (a post's page), bookmarks.list,
 * and search answers (a post result is a post card too).
 */
const postListKeys = (): QueryKey[] => [
  feedKey(),
  getQueryKey(trpc.users.posts),
  getQueryKey(trpc.posts.byId),
  getQueryKey(trpc.bookmarks.list),
  getQueryKey(trpc.search.query),
  getQueryKey(trpc.search.suggestions),
];

function isInfinite(data: PostListData): data is InfiniteData<PostPage, unknown> {
  return 'pages' in data;
}

function isSingle(data: PostListData): data is SinglePost {
  return 'post' in data;
}

function isSearch(data: PostListData): data is SearchAnswer {
  return 'posts' in data && 'users' in data;
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
  if (isSearch(data)) {
    let changed = false;
    const posts = data.posts.map((post) => {
      const next = fn(post);
      if (next === post) return post;
      changed = true;
      return { ...next, highlights: post.highlights };
    });
    return changed ? { ...data, posts } : data;
  }
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
  for (const queryKey of postListKeys()) {
    queryClient.setQueriesData<PostListData>({ queryKey }, (data) =>
      data
        ? mapData(data, (post) =>
            post.id === postId ? { ...post, ...(typeof patch === 'function' ? patch(post) : patch) } : post,
          )
        : data,
    );
  }
}

function dropFromPage(page: PostPage, postId: string): PostPage {
  return page.items.some((p) => p.id === postId)
    ? { ...page, items: page.items.filter((p) => p.id !== postId) }
    : page;
}

/**
 * Takes a deleted post out of every cached list; a post's page (posts.byId) loads again and
 * finds it gone. Profile counts load again too.
 */
export function removePost(queryClient: QueryClient, postId: string): void {
  const lists = [
    feedKey(),
    getQueryKey(trpc.users.posts),
    getQueryKey(trpc.search.query),
    getQueryKey(trpc.search.suggestions),
  ];
  for (const queryKey of lists) {
    queryClient.setQueriesData<PostListData>({ queryKey }, (data) => {
      if (!data || isSingle(data)) return data;
      if (isSearch(data))
        return data.posts.some((p) => p.id === postId)
          ? { ...data, posts: data.posts.filter((p) => p.id !== postId) }
          : data;
      if (!isInfinite(data)) return dropFromPage(data, postId);
      return { ...data, pages: data.pages.map((page) => dropFromPage(page, postId)) };
    });
  }
  void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.posts.byId, { postId }) });
  void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.users.stats) });
  void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.users.byUsername) });
}

/** Whether any cached list shows this post (live changes to posts nobody here sees are ignored). */
export function isPostCached(queryClient: QueryClient, postId: string): boolean {
  return postListKeys().some((queryKey) =>
    queryClient.getQueriesData<PostListData>({ queryKey }).some(([, data]) => {
      if (!data) return false;
      if (isSingle(data)) return data.post.id === postId;
      if (isSearch(data)) return data.posts.some((p) => p.id === postId);
      const pages = isInfinite(data) ? data.pages : [data];
      return pages.some((page) => page.items.some((p) => p.id === postId));
    }),
  );
}

/** Puts a post the user just wrote at the top of the home feed (without a refetch). */
export function prependToFeed(queryClient: QueryClient, post: Post): void {
  queryClient.setQueriesData<PostListData>({ queryKey: feedKey() }, (data) => {
    if (!data || isSingle(data) || isSearch(data) || !isInfinite(data)) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return {
      ...data,
      pages: [{ ...first, items: [post, ...first.items.filter((p) => p.id !== post.id)] }, ...rest],
    };
  });
}

export async function cancelPostLists(queryClient: QueryClient): Promise<void> {
  await Promise.all(postListKeys().map((queryKey) => queryClient.cancelQueries({ queryKey })));
}

export async function invalidatePostLists(queryClient: QueryClient): Promise<void> {
  await Promise.all(postListKeys().map((queryKey) => queryClient.invalidateQueries({ queryKey })));
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
