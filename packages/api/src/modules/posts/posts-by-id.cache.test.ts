/**
 * The posts kept by id (posts-by-id.cache.ts) at their bound, in memory alone: a page's kept posts
 * are answered even when making room for its new ones lets the oldest go.
 */
import { describe, expect, it } from 'vitest';
import type { PostDto } from './post.schema.js';
import { cachedPosts, POSTS_KEPT_MAX, postsById } from './posts-by-id.cache.js';

const post = (id: string) => ({ id, userId: 'u', likesCount: 0 }) as unknown as PostDto;
const loadAll = async (ids: string[]) => ids.map(post);

describe('posts kept by id', () => {
  it('answers every post of a page when the new ones push the oldest out', async () => {
    const scope = {};
    const first = Array.from({ length: POSTS_KEPT_MAX }, (_, i) => `p${i}`);
    await cachedPosts(scope, first, loadAll);
    expect(postsById.store(scope).posts.size).toBe(POSTS_KEPT_MAX);
    // The two oldest kept, then two new ones: room is made by letting the oldest go.
    let loaded: string[] = [];
    const answer = await cachedPosts(scope, ['p0', 'p1', 'new0', 'new1'], async (ids) => {
      loaded = ids;
      return ids.map(post);
    });
    expect(loaded).toEqual(['new0', 'new1']);
    expect(answer.map((p) => p.id)).toEqual(['p0', 'p1', 'new0', 'new1']);
    expect(postsById.store(scope).posts.size).toBe(POSTS_KEPT_MAX);
  });

  it('leaves out the posts the load did not find, and keeps a failed load nowhere', async () => {
    const scope = {};
    expect((await cachedPosts(scope, ['a', 'gone'], async () => [post('a')])).map((p) => p.id)).toEqual([
      'a',
    ]);
    await expect(cachedPosts(scope, ['b'], async () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(postsById.store(scope).posts.has('b')).toBe(false);
  });
});
