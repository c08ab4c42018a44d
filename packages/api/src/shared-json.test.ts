import { describe, expect, it } from 'vitest';
import { markShared, sharedJson } from './shared-json.js';

describe('shared results', () => {
  it('are encoded to JSON once, and so are their direct parts', () => {
    const page = markShared({
      items: [{ id: 'a', tags: ['x'], createdAt: new Date('2026-11-21T10:00:00Z') }],
      nextCursor: null,
    });
    const json = sharedJson(page);
    expect(json?.toString()).toBe(JSON.stringify(page));
    expect(sharedJson(page)).toBe(json); // the same bytes, not encoded again
    // A page's items array travels on its own in REST answers.
    expect(sharedJson(page.items)?.toString()).toBe(
      '[{"id":"a","tags":["x"],"createdAt":"2026-11-21T10:00:00.000Z"}]',
    );
    expect(sharedJson(page.items[0])).toBeUndefined(); // only the direct parts
  });

  it('leave everything else alone', () => {
    expect(sharedJson({ a: 1 })).toBeUndefined();
    expect(sharedJson(Object.freeze({ a: 1 }))).toBeUndefined();
    expect(sharedJson('text')).toBeUndefined();
    expect(sharedJson(null)).toBeUndefined();
  });
});
