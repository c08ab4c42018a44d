import type { InfiniteData } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient, trpc } from '../../lib/trpc';
import { makePost } from '../../test/fake-trpc';
import { type PostPage, patchPost, prependToFeed } from './post-cache';

const post = makePost({ likesCount: 1 });
const page: PostPage = { items: [post], nextCursor: null };
const infinite = (p: PostPage): InfiniteData<PostPage> => ({ pages: [p], pageParams: [null] });

// The keys tRPC's hooks give these queries, made with its own helper.
const keys = {
  feed: getQueryKey(trpc.posts.feed, { limit: 20 }, 'infinite'),
  latest: getQueryKey(trpc.posts.feed, { limit: 1 }, 'query'),
  profile: getQueryKey(trpc.users.posts, { userId: post.userId, limit: 20 }, 'infinite'),
  linked: getQueryKey(trpc.posts.byId, { postId: post.id }, 'query'),
  comments: getQueryKey(trpc.comments.list, { postId: post.id }, 'infinite'),
};

function seeded() {
  const client = createQueryClient();
  client.setQueryData(keys.feed, infinite(page));
  client.setQueryData(keys.latest, page);
  client.setQueryData(keys.profile, infinite(page));
  client.setQueryData(keys.linked, { post });
  const comments = { pages: [{ items: [], nextCursor: null }], pageParams: [null] };
  client.setQueryData(keys.comments, comments);
  return { client, comments };
}

describe('post cache', () => {
  it('patches a post in the feed, its poll, a profile list and a linked post, and nothing else', () => {
    const { client, comments } = seeded();
    patchPost(client, post.id, (p) => ({ likesCount: p.likesCount + 1, isLiked: true }));
    const likes = [
      client.getQueryData<InfiniteData<PostPage>>(keys.feed)?.pages[0]?.items[0]?.likesCount,
      client.getQueryData<PostPage>(keys.latest)?.items[0]?.likesCount,
      client.getQueryData<InfiniteData<PostPage>>(keys.profile)?.pages[0]?.items[0]?.likesCount,
      client.getQueryData<{ post: typeof post }>(keys.linked)?.post.likesCount,
    ];
    expect(likes).toEqual([2, 2, 2, 2]);
    expect(client.getQueryData(keys.comments)).toBe(comments);
  });

  it('prepends a new post to the feed pages only', () => {
    const { client } = seeded();
    const fresh = makePost({ id: '9a1b0c8e-0000-4000-8000-0000000000ff', content: 'fresh' });
    prependToFeed(client, fresh);
    const ids = (key: readonly unknown[]) =>
      client.getQueryData<InfiniteData<PostPage>>(key)?.pages[0]?.items.map((p) => p.id);
    expect(ids(keys.feed)).toEqual([fresh.id, post.id]);
    expect(ids(keys.profile)).toEqual([post.id]);
    expect(client.getQueryData<PostPage>(keys.latest)?.items.map((p) => p.id)).toEqual([post.id]);
  });
});
