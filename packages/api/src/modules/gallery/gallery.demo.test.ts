import { createMemoryStorage } from '@cubes/storage';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupDatabase, visitor } from '../../../test/harness.js';
import { seedDemoCommunity } from '../demo/demo.seed.js';

let db: Awaited<ReturnType<typeof setupDatabase>>;
const storage = createMemoryStorage();
beforeAll(async () => {
  db = await setupDatabase();
  await seedDemoCommunity(db.orm.em.fork(), storage);
});
afterAll(() => db.close());

describe('the demo gallery', () => {
  it('has 40+ items of all four types, each a stored public image of its stated size', async () => {
    const page = await visitor(db.orm).gallery.list({ limit: 50 });
    expect(page.stats.total).toBeGreaterThanOrEqual(40);
    for (const type of ['art', 'music', 'fun', 'video'] as const)
      expect(page.stats[type]).toBeGreaterThanOrEqual(8);
    expect(page.items).toHaveLength(page.stats.total);
    // The newest page already mixes the types.
    expect(new Set(page.items.slice(0, 8).map((i) => i.type)).size).toBe(4);
    for (const item of page.items) {
      expect(item.imageUrl).toMatch(/^\/objects\/uploads\//);
      const meta = await sharp(await storage.read(item.imageUrl.replace(/^\/objects\//, ''))).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual({ width: item.width, height: item.height });
      expect(Date.parse(item.createdAt)).toBeLessThan(Date.now());
    }
  });

  it('has favourites whose counts agree with the rows, some items more popular than others', async () => {
    const [row] = await db.orm.em.fork().execute<{ drift: number; max: number; min: number }[]>(
      `select count(*) filter (where favorites_count <> (select count(*) from favorites f where f.media_id = m.id))::int as drift,
                max(favorites_count)::int as max, min(favorites_count)::int as min
           from ai_media m`,
    );
    expect(row!.drift).toBe(0);
    expect(row!.max).toBeGreaterThan(row!.min);
  });
});
