import { describe, expect, it } from 'vitest';
import { sharedJson, shareImmutable } from './immutable.js';

describe('shared results', () => {
  it('are frozen all the way down and encoded to JSON once', () => {
    const page = shareImmutable({
      items: [{ id: 'a', tags: ['x'], createdAt: new Date('2026-11-21T10:00:00Z') }],
      nextCursor: null,
    });
    expect(Object.isFrozen(page)).toBe(true);
    expect(Object.isFrozen(page.items[0]!.tags)).toBe(true);
    expect(() => {
      (page.items as unknown as unknown[]).push({});
    }).toThrow(TypeError);

    const json = sharedJson(page);
    expect(json?.toString()).toBe(JSON.stringify(page));
    expect(sharedJson(page)).toBe(json); // the same bytes, not encoded again
    // A page's items array travels on its own in REST answers.
    expect(sharedJson(page.items)?.toString()).toBe(
      '[{"id":"a","tags":["x"],"createdAt":"2026-11-21T10:00:00.000Z"}]',
    );
  });

  it('leave everything else alone', () => {
    expect(sharedJson({ a: 1 })).toBeUndefined();
    expect(sharedJson(Object.freeze({ a: 1 }))).toBeUndefined();
    expect(sharedJson('text')).toBeUndefined();
    expect(sharedJson(null)).toBeUndefined();
  });
});
