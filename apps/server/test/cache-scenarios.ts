/**
 * One scenario per kept read (packages/api/src/kept-reads.ts): warm the cache on the reading
 * instance, write through the public API on the writing one, and expect the next read to show the
 * write. caches.test.ts runs them on one instance (the very next read must show it: no wait), and
 * instances.test.ts across two (the read on B comes once B has heard a later event, and a second
 * of a kept answer's lifetime is rarely over by then: a drop explains it).
 */
import { expect, vi } from 'vitest';
import { connectLive, waitFor } from './live-client.js';
import { api, registerOver } from './over-http.js';

export interface CacheSetup {
  /** where writes go */
  writer: string;
  /** where reads go (the same base for one instance) */
  reader: string;
  /**
   * Resolves once the reader has heard the events of every write made so far (across instances: a
   * later event reached it); absent on one instance, where the very next read shows a write.
   */
  heard?: () => Promise<void>;
  /** a gallery medium by `creatorId` (the gallery has no upload endpoint) */
  addMedium: (creatorId: string) => Promise<string>;
}

let n = 0;
async function member(base: string) {
  n += 1;
  const username = `kept${n}${Math.random().toString(36).slice(2, 7)}`;
  return { ...(await registerOver(base, username)), username };
}

/**
 * The read that shows a write, once the reader has heard every write so far. On one instance the
 * very next read must show it. Across instances, likes, comments and favourites reach the other
 * instances as one `feed` event per FEED_EVENT_WINDOW_MS (events/event-bus.ts, trailing edge), which
 * a later event can overtake: the read is repeated until it shows the write, within a generous
 * bound (a kept answer's own lifetime is a second, so a drop that never comes still shows).
 */
async function nextRead<T>(
  setup: CacheSetup,
  read: () => Promise<T>,
  shows: (value: T) => boolean,
): Promise<T> {
  if (!setup.heard) return read();
  await setup.heard();
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!shows(value)) throw new Error('the read does not show the write yet');
      return value;
    },
    { timeout: 15_000, interval: 20 },
  );
}

/** Reads twice, so the second answer comes from the cache. */
async function warm(read: () => Promise<unknown>): Promise<void> {
  await read();
  await read();
}

type Post = {
  id: string;
  content: string;
  likesCount: number;
  commentsCount: number;
  userDisplayName: string;
  isLiked: boolean;
};

/** A reader who follows an author with `count` posts (`made`, newest first), all on the writer. */
async function followedAuthorWithPosts(setup: CacheSetup, count: number, label: string) {
  const reader = await member(setup.writer);
  const author = await member(setup.writer);
  expect((await api(setup.writer, 'POST', `/api/users/${author.id}/follow`, reader.cookie)).status).toBe(200);
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    const post = await api(setup.writer, 'POST', '/api/posts', author.cookie, { content: `${label} ${i}` });
    made.unshift(post.body.post.id as string);
  }
  return { reader, author, made };
}

/** A page of the reader's Following feed on the reading instance, with its next cursor. */
async function followingPage(setup: CacheSetup, cookie: string, limit: number, cursor: string | null) {
  const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
  const res = await fetch(`${setup.reader}/api/posts/feed?scope=following&limit=${limit}${after}`, {
    headers: { cookie },
  });
  return { posts: (await res.json()) as Post[], next: res.headers.get('x-next-cursor') };
}

export const cacheScenarios: Record<string, (setup: CacheSetup) => Promise<void>> = {
  async 'the first feed page shows a like'(setup) {
    const author = await member(setup.writer);
    const fan = await member(setup.writer);
    const made = await api(setup.writer, 'POST', '/api/posts', author.cookie, { content: 'kept feed' });
    const postId = made.body.post.id as string;
    const feed = () => api(setup.reader, 'GET', '/api/posts/feed?limit=5').then((r) => r.body as Post[]);
    await nextRead(setup, feed, (posts) => posts[0]?.id === postId);
    await warm(feed);
    expect((await api(setup.writer, 'POST', `/api/posts/${postId}/like`, fan.cookie)).status).toBe(200);
    const after = await nextRead(
      setup,
      feed,
      (posts) => posts.find((p) => p.id === postId)?.likesCount === 1,
    );
    expect(after.find((p) => p.id === postId)?.likesCount).toBe(1);
  },

  async "a member's bookmark shows on their own feed and Following pages and in their list"(setup) {
    const reader = await member(setup.writer);
    const author = await member(setup.writer);
    expect((await api(setup.writer, 'POST', `/api/users/${author.id}/follow`, reader.cookie)).status).toBe(
      200,
    );
    const made = await api(setup.writer, 'POST', '/api/posts', author.cookie, { content: 'kept bookmark' });
    const postId = made.body.post.id as string;
    type Marked = { id: string; isBookmarked: boolean };
    const read = (path: string) => () =>
      api(setup.reader, 'GET', path, reader.cookie).then((r) => r.body as Marked[]);
    const feed = read('/api/posts/feed?limit=5');
    const following = read('/api/posts/feed?scope=following&limit=5');
    const marked = (posts: Marked[]) => posts.find((p) => p.id === postId)?.isBookmarked === true;
    await nextRead(setup, feed, (p) => p.some((x) => x.id === postId));
    await nextRead(setup, following, (p) => p.some((x) => x.id === postId));
    await warm(feed);
    await warm(following);
    expect((await api(setup.writer, 'POST', `/api/posts/${postId}/bookmark`, reader.cookie)).status).toBe(
      200,
    );
    expect(marked(await nextRead(setup, feed, marked))).toBe(true);
    expect(marked(await nextRead(setup, following, marked))).toBe(true);
    const list = await api(setup.reader, 'GET', '/api/bookmarks', reader.cookie);
    expect((list.body as Marked[]).map((p) => p.id)).toEqual([postId]);
    // The author's own copy of the same page carries no mark.
    const theirs = await api(setup.reader, 'GET', '/api/posts/feed?limit=5', author.cookie);
    expect((theirs.body as Marked[]).find((p) => p.id === postId)?.isBookmarked).toBe(false);
    await warm(feed);
    expect((await api(setup.writer, 'DELETE', `/api/posts/${postId}/bookmark`, reader.cookie)).status).toBe(
      200,
    );
    const unmarked = await nextRead(setup, feed, (p) => !marked(p));
    expect(marked(unmarked)).toBe(false);
  },

  async "a member's first Following page shows a followee's post, a like, a follow and a block"(setup) {
    const reader = await member(setup.writer);
    const author = await member(setup.writer);
    const other = await member(setup.writer);
    const following = () =>
      api(setup.reader, 'GET', '/api/posts/feed?scope=following&limit=5', reader.cookie).then(
        (r) => r.body as Post[],
      );
    expect((await api(setup.writer, 'POST', `/api/users/${author.id}/follow`, reader.cookie)).status).toBe(
      200,
    );
    const earlier = await api(setup.writer, 'POST', '/api/posts', other.cookie, {
      content: 'not followed yet',
    });
    await nextRead(setup, following, (p) => Array.isArray(p));
    await warm(following);
    const made = await api(setup.writer, 'POST', '/api/posts', author.cookie, { content: 'kept following' });
    const postId = made.body.post.id as string;
    expect((await nextRead(setup, following, (p) => p[0]?.id === postId)).map((p) => p.id)).toEqual([postId]);
    await warm(following);
    expect((await api(setup.writer, 'POST', `/api/posts/${postId}/like`, other.cookie)).status).toBe(200);
    expect((await nextRead(setup, following, (p) => p[0]?.likesCount === 1))[0]?.likesCount).toBe(1);
    await warm(following);
    expect((await api(setup.writer, 'POST', `/api/users/${other.id}/follow`, reader.cookie)).status).toBe(
      200,
    );
    const both = await nextRead(setup, following, (p) => p.length === 2);
    expect(both.map((p) => p.id)).toEqual([postId, earlier.body.post.id]);
    await warm(following);
    expect((await api(setup.writer, 'POST', `/api/users/${author.id}/block`, reader.cookie)).status).toBe(
      200,
    );
    const blocked = await nextRead(setup, following, (p) => p.length === 1);
    expect(blocked.map((p) => p.id)).toEqual([earlier.body.post.id]);
  },

  async "a member's later Following pages leave out a post deleted from their window"(setup) {
    const { reader, author, made } = await followedAuthorWithPosts(setup, 10, 'window');
    // Pages of 3: page 2 chooses pages 2 to 6 (the window), page 3 is read from it.
    const page = async (cursor: string | null) => {
      const { posts, next } = await followingPage(setup, reader.cookie, 3, cursor);
      return { ids: posts.map((p) => p.id), next };
    };
    const first = await nextRead(
      setup,
      () => page(null),
      (p) => p.ids.length === 3,
    );
    const second = await page(first.next);
    expect(second.ids).toEqual(made.slice(3, 6));
    expect((await page(second.next)).ids).toEqual(made.slice(6, 9));
    expect((await api(setup.writer, 'DELETE', `/api/posts/${made[7]}`, author.cookie)).status).toBe(200);
    const third = await nextRead(
      setup,
      () => page(second.next),
      (p) => !p.ids.includes(made[7]!),
    );
    expect(third.ids).toEqual([made[6], made[8], made[9]]);
  },

  async "a later Following page's kept posts show a like and a new name"(setup) {
    const { reader, author, made } = await followedAuthorWithPosts(setup, 2, 'kept later');
    const fan = await member(setup.writer);
    const first = await nextRead(
      setup,
      () => followingPage(setup, reader.cookie, 1, null),
      (p) => p.next !== null,
    );
    const later = async () => (await followingPage(setup, reader.cookie, 1, first.next)).posts;
    expect((await later()).map((p) => p.id)).toEqual([made[1]]);
    await warm(later);
    expect((await api(setup.writer, 'POST', `/api/posts/${made[1]}/like`, fan.cookie)).status).toBe(200);
    expect((await nextRead(setup, later, (p) => p[0]?.likesCount === 1))[0]?.likesCount).toBe(1);
    await warm(later);
    const renamed = await api(setup.writer, 'PUT', '/api/settings', author.cookie, { displayName: 'Later' });
    expect(renamed.status).toBe(200);
    expect((await nextRead(setup, later, (p) => p[0]?.userDisplayName === 'Later'))[0]?.userDisplayName).toBe(
      'Later',
    );
    await warm(later);
    // The reader's own like, made on the writer: their marks among the window's posts go too.
    expect((await api(setup.writer, 'POST', `/api/posts/${made[1]}/like`, reader.cookie)).status).toBe(200);
    expect((await nextRead(setup, later, (p) => p[0]?.isLiked === true))[0]).toMatchObject({
      isLiked: true,
      likesCount: 2,
    });
  },

  async "a profile's first page shows a new post, a name, a like, a comment, an edit, a block and a deletion"(
    setup,
  ) {
    const author = await member(setup.writer);
    const profile = () =>
      api(setup.reader, 'GET', `/api/users/${author.id}/posts?limit=5`).then((r) => r.body as Post[]);
    await warm(profile);
    const made = await api(setup.writer, 'POST', '/api/posts', author.cookie, { content: 'kept profile' });
    expect((await nextRead(setup, profile, (p) => p.length === 1))[0]?.id).toBe(made.body.post.id);
    await warm(profile);
    const renamed = await api(setup.writer, 'PUT', '/api/settings', author.cookie, {
      displayName: 'Renamed',
    });
    expect(renamed.status).toBe(200);
    const after = await nextRead(setup, profile, (p) => p[0]?.userDisplayName === 'Renamed');
    expect(after[0]?.userDisplayName).toBe('Renamed');
    // Kept until an event changes what it shows (30 s): each of these must drop or patch it.
    const postId = made.body.post.id as string;
    const fan = await member(setup.writer);
    const asFan = () =>
      api(setup.reader, 'GET', `/api/users/${author.id}/posts?limit=5`, fan.cookie).then(
        (r) => r.body as Post[],
      );
    await warm(profile);
    await warm(asFan);
    expect((await api(setup.writer, 'POST', `/api/posts/${postId}/like`, fan.cookie)).status).toBe(200);
    expect((await nextRead(setup, profile, (p) => p[0]?.likesCount === 1))[0]?.likesCount).toBe(1);
    expect((await nextRead(setup, asFan, (p) => p[0]?.isLiked === true))[0]?.isLiked).toBe(true);
    await warm(profile);
    const comment = await api(setup.writer, 'POST', `/api/posts/${postId}/comments`, fan.cookie, {
      content: 'hi',
    });
    expect(comment.status).toBe(201);
    expect((await nextRead(setup, profile, (p) => p[0]?.commentsCount === 1))[0]?.commentsCount).toBe(1);
    await warm(profile);
    const edited = await api(setup.writer, 'PATCH', `/api/posts/${postId}`, author.cookie, {
      content: 'edited',
    });
    expect(edited.status).toBe(200);
    expect((await nextRead(setup, profile, (p) => p[0]?.content === 'edited'))[0]?.content).toBe('edited');
    // The fan blocks the author: their copy is empty, a visitor's page stays.
    await warm(asFan);
    expect((await api(setup.writer, 'POST', `/api/users/${author.id}/block`, fan.cookie)).status).toBe(200);
    expect(await nextRead(setup, asFan, (p) => p.length === 0)).toEqual([]);
    expect(await profile()).toHaveLength(1);
    await warm(profile);
    expect((await api(setup.writer, 'DELETE', `/api/posts/${postId}`, author.cookie)).status).toBe(200);
    expect(await nextRead(setup, profile, (p) => p.length === 0)).toEqual([]);
  },

  async "a post's first comments show a new comment"(setup) {
    const author = await member(setup.writer);
    const made = await api(setup.writer, 'POST', '/api/posts', author.cookie, { content: 'kept comments' });
    const postId = made.body.post.id as string;
    const comments = () =>
      api(setup.reader, 'GET', `/api/posts/${postId}/comments?limit=5`).then(
        (r) => r.body as { content: string }[],
      );
    await nextRead(setup, comments, (c) => Array.isArray(c));
    await warm(comments);
    const sent = await api(setup.writer, 'POST', `/api/posts/${postId}/comments`, author.cookie, {
      content: 'fresh comment',
    });
    expect(sent.status).toBe(201);
    const after = await nextRead(setup, comments, (c) => c.length === 1);
    expect(after.map((c) => c.content)).toEqual(['fresh comment']);
  },

  async "the gallery's first page shows a favourite"(setup) {
    const creator = await member(setup.writer);
    const fan = await member(setup.writer);
    const mediumId = await setup.addMedium(creator.id);
    type Gallery = { items: { id: string; favoritesCount: number }[] };
    const gallery = () => api(setup.reader, 'GET', '/api/gallery?limit=5').then((r) => r.body as Gallery);
    const count = (g: Gallery) => g.items.find((i) => i.id === mediumId)?.favoritesCount;
    await nextRead(setup, gallery, (g) => count(g) === 0);
    await warm(gallery);
    const favourite = await api(setup.writer, 'POST', `/api/gallery/${mediumId}/favorite`, fan.cookie);
    expect(favourite.status).toBe(200);
    expect(count(await nextRead(setup, gallery, (g) => count(g) === 1))).toBe(1);
  },

  async 'search answers show a new post, and a follow in the follower’s own copy'(setup) {
    const author = await member(setup.writer);
    const word = `kept${Math.random().toString(36).slice(2, 9)}`;
    type Answer = { users: { id: string; isFollowing: boolean }[]; posts: { id: string }[] };
    const search = (cookie?: string, q = word) =>
      api(setup.reader, 'GET', `/api/search?q=${encodeURIComponent(q)}`, cookie).then(
        (r) => r.body as Answer,
      );
    await warm(() => search());
    const made = await api(setup.writer, 'POST', '/api/posts', author.cookie, { content: `about ${word}` });
    const found = await nextRead(
      setup,
      () => search(),
      (a) => a.posts.length === 1,
    );
    expect(found.posts.map((p) => p.id)).toEqual([made.body.post.id]);

    const follower = await member(setup.writer);
    const byName = () => search(follower.cookie, author.username);
    const following = (a: Answer) => a.users.find((u) => u.id === author.id)?.isFollowing;
    await nextRead(setup, byName, (a) => following(a) === false);
    await warm(byName);
    expect((await api(setup.writer, 'POST', `/api/users/${author.id}/follow`, follower.cookie)).status).toBe(
      200,
    );
    expect(following(await nextRead(setup, byName, (a) => following(a) === true))).toBe(true);
  },

  async "a member's bell shows a new notification"(setup) {
    const author = await member(setup.writer);
    const fan = await member(setup.writer);
    const made = await api(setup.writer, 'POST', '/api/posts', author.cookie, { content: 'kept bell' });
    const bell = () =>
      api(setup.reader, 'GET', '/api/notifications', author.cookie).then((r) => r.body as unknown[]);
    await warm(bell);
    // A comment: its bell's event leaves at once. A like's is batched (notification.bells.ts):
    // the writing instance drops the kept list at the like, the others when the bell rings.
    const comment = { content: 'ring' };
    await api(setup.writer, 'POST', `/api/posts/${made.body.post.id}/comments`, fan.cookie, comment);
    expect(await nextRead(setup, bell, (list) => list.length === 1)).toHaveLength(1);
  },

  async 'a session that ended is refused'(setup) {
    const someone = await member(setup.writer);
    const me = () => api(setup.reader, 'GET', '/api/auth/me', someone.cookie).then((r) => r.status);
    await nextRead(setup, me, (status) => status === 200);
    await warm(me);
    expect((await api(setup.writer, 'POST', '/api/auth/logout', someone.cookie)).status).toBe(200);
    expect(await nextRead(setup, me, (status) => status === 401)).toBe(401);
  },

  async 'posts.onChange follows a block and an unblock at once'(setup) {
    const listener = await member(setup.writer);
    const author = await member(setup.writer);
    const other = await member(setup.writer);
    const postOf = async (who: { cookie: string }) =>
      (await api(setup.writer, 'POST', '/api/posts', who.cookie, { content: 'watched' })).body.post
        .id as string;
    const [theirs, others] = [await postOf(author), await postOf(other)];
    let edits = 0;
    const edit = async (who: { cookie: string }, postId: string) => {
      edits += 1;
      const res = await api(setup.writer, 'PATCH', `/api/posts/${postId}`, who.cookie, {
        content: `v${edits}`,
      });
      expect(res.status).toBe(200);
    };
    const socket = connectLive(setup.reader, { cookie: listener.cookie });
    try {
      const heard: string[] = [];
      socket.client.posts.onChange.subscribe(undefined, { onData: (c) => heard.push(c.postId) });
      // Edits of the author's post until one is heard: the subscription is up, and the
      // listener's blocks (none) are kept.
      for (let i = 0; !heard.includes(theirs); i++) {
        expect(i, 'the subscription never came up').toBeLessThan(60);
        await edit(author, theirs);
        await waitFor(() => heard.includes(theirs), 500).catch(() => null);
      }
      // Each step ends with an edit of another post: once heard, what came before it has too.
      const step = async (change: () => Promise<void>) => {
        heard.length = 0;
        await change();
        await edit(author, theirs);
        await edit(other, others);
        await waitFor(() => heard.includes(others), 15_000, 'the edit of the other post');
        return heard.includes(theirs);
      };
      const relation = (method: 'POST' | 'DELETE') => async () => {
        const res = await api(setup.writer, method, `/api/users/${author.id}/block`, listener.cookie);
        expect(res.status).toBe(200);
      };
      expect(await step(relation('POST')), 'heard after the block').toBe(false);
      expect(await step(relation('DELETE')), 'not heard after the unblock').toBe(true);
    } finally {
      await socket.close();
    }
  },
};
