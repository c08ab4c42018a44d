/**
 * Every kept read on one instance: a write through the public API shows on the very next read,
 * well inside the cache's own lifetime (cache-scenarios.ts has the scenarios).
 */
import { randomUUID } from 'node:crypto';
import { keptReads } from '@cubes/api';
import { describe, expect } from 'vitest';
import { cacheScenarios } from './cache-scenarios.js';
import { it } from './fixtures.js';
import type { TestApp } from './harness.js';
import { api, registerOver } from './over-http.js';

async function addMedium(t: TestApp, creatorId: string): Promise<string> {
  const id = randomUUID();
  await t.orm.em.fork().execute(
    `insert into ai_media (id, type, title, image_url, width, height, creator_id, created_at)
       values (?, 'art', 'Kept', '/objects/demo/x.png', 640, 480, ?, now())`,
    [id, creatorId],
  );
  return id;
}

describe('every cache follows the writes of its own instance', () => {
  for (const [name, scenario] of Object.entries(cacheScenarios)) {
    it(name, ({ t, base }) =>
      scenario({ writer: base, reader: base, addMedium: (creatorId) => addMedium(t, creatorId) }),
    );
  }

  it("shows a like in the author's kept notifications at once, before the like's bell rings", async ({
    base,
  }) => {
    const [author, fan] = await Promise.all(
      ['bellauthor', 'bellfan'].map((name) => registerOver(base, `${name}${randomUUID().slice(0, 8)}`)),
    );
    const made = await api(base, 'POST', '/api/posts', author!.cookie, { content: 'kept bell' });
    const bell = () =>
      api(base, 'GET', '/api/notifications', author!.cookie).then((r) => r.body as unknown[]);
    await bell();
    expect(await bell()).toEqual([]); // kept now
    await api(base, 'POST', `/api/posts/${made.body.post.id}/like`, fan!.cookie);
    expect(await bell()).toHaveLength(1);
  });

  it('covers every cache the app declares, and each names the topics that drop it', () => {
    const names = keptReads().map((read) => read.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'pages of the feed and first comments',
        'first pages of profiles',
        "each member's likes, reposts and bookmarks",
        "each member's first page of the Following feed, and a window of later pages' posts",
        'posts by id, as everyone sees them',
        "the gallery's first pages",
        'search answers',
        "a member's own lists",
        'resolved sessions',
        'trending tags',
        'members a push can reach',
        "each member's blocks, either way",
        'sitemap pages',
        "visitors' rendered pages",
        "members' own rendered pages",
      ]),
    );
    expect(names).toHaveLength(15);
    for (const read of keptReads()) expect(read.topics.length).toBeGreaterThan(0);
  });
});
