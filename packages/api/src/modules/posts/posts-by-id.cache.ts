/**
 * Posts kept by id, as everyone sees them (no viewer's like or bookmark): what a later Following
 * page reads once its posts are chosen (following.cache.ts). A post shows in the Following feed
 * of each of its author's followers, so one read serves all of them, as a timeline's posts are
 * kept apart from its lists of ids in the big apps; each reader's likes and bookmarks are looked
 * up beside it, in one small statement.
 *
 * What a kept post shows changes with its likes (a like made here patches the count, as the feed's
 * kept pages are patched), its comments, an edit, a deletion or removal (that post goes), and a
 * name, avatar or account of its author or of a member it mentions, or other instances' likes and
 * comments (`feed`: everything goes). The events are the freshness; the TTL bounds what a lost one
 * could leave. bench/README.md ("The Following feed") has the figures.
 */
import { LRUCache } from 'lru-cache';
import { keptRead, type Loading, track } from '../../kept-reads.js';
import type { PostDto } from './post.schema.js';

interface Kept extends Loading {
  /** the post as everyone sees it; null if it is gone (deleted, removed, its author hidden) */
  post: Promise<PostDto | null>;
  /** the post once it arrived; undefined while loading */
  current: PostDto | null | undefined;
}

interface Store {
  posts: LRUCache<string, Kept>;
}

/** At most this many posts kept (about 1 KB each); the least recently read go first. */
export const POSTS_KEPT_MAX = 20_000;

const clear = (store: Store) => store.posts.clear();
const drop = (store: Store, postId: string) => store.posts.delete(postId);

/**
 * A count changed by a toggle committed here (a like, a repost): the post gets the count the
 * write's statement returned. A post still loading may have been read before the write: it goes.
 */
function patchCount(
  store: Store,
  postId: string,
  count: Partial<Pick<PostDto, 'likesCount' | 'repostsCount'>>,
): void {
  // peek: a toggle is no read, it leaves the post where it is among the least recently read.
  const kept = store.posts.peek(postId);
  if (!kept) return;
  if (kept.current === undefined) {
    store.posts.delete(postId);
    return;
  }
  if (kept.current === null) return;
  kept.current = { ...kept.current, ...count };
  kept.post = Promise.resolve(kept.current);
}

export const postsById = keptRead<Store>({
  name: 'posts by id, as everyone sees them',
  ttlMs: 30_000,
  make: () => ({ posts: new LRUCache({ max: POSTS_KEPT_MAX }) }),
  dependsOn: {
    likes: (store, { postId, likesCount }) => patchCount(store, postId, { likesCount }),
    reposts: (store, { postId, repostsCount }) => patchCount(store, postId, { repostsCount }),
    comments: (store, { postId }) => drop(store, postId),
    postChanges: (store, { postId, kind }) => {
      drop(store, postId);
      // The posts that quote it show its text: only an edit or a deletion changes that (a vote, a
      // comment or a link card does not), so only those walk the kept posts.
      if (kind !== 'edited' && kind !== 'deleted') return;
      const quoting = [...store.posts.entries()].filter(([, kept]) => kept.current?.quote?.id === postId);
      for (const [id] of quoting) drop(store, id);
    },
    // A name, an avatar or an account: of an author, or of a member a post mentions.
    profiles: clear,
    accounts: clear,
    // Likes, comments and favourites on other instances.
    feed: clear,
  },
  clear,
});

/**
 * The posts of `ids` that are still shown, in that order, as everyone sees them: kept ones from
 * memory, the others read with one `load` (which leaves out the posts that are gone) and kept.
 */
export async function cachedPosts(
  scope: object,
  ids: readonly string[],
  load: (ids: string[]) => Promise<PostDto[]>,
): Promise<PostDto[]> {
  const store = postsById.store(scope);
  const missing = ids.filter((id) => {
    const kept = store.posts.get(id);
    return !kept || !postsById.isFresh(kept);
  });
  if (missing.length > 0) {
    const loaded = load(missing).then((posts) => new Map(posts.map((p) => [p.id, p])));
    for (const id of missing) {
      const post = loaded.then((found) => found.get(id) ?? null);
      const kept: Kept = { post, current: undefined, loadedAt: null };
      track(store.posts, id, kept, post, (arrived) => {
        kept.current = arrived;
      });
    }
  }
  // A page's ids were all just read or set: the least recently read, that the store let go to
  // make room, are others.
  const answers = ids.map((id) => store.posts.get(id)!.post);
  const posts = await Promise.all(answers);
  return posts.filter((p): p is PostDto => p !== null);
}
