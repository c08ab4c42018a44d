import { describe, expect, it } from 'vitest';
import { markShared, sharedEncoded, sharedJson, withoutCursor } from './shared-json.js';

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

  it('keep one shared body without the cursor, for REST rows that send the cursor as a header', () => {
    const page = markShared({ items: [{ id: 'a' }], stats: { total: 1 }, nextCursor: 'c1' });
    const body = withoutCursor(page);
    expect(body).toEqual({ items: [{ id: 'a' }], stats: { total: 1 } });
    expect(withoutCursor(page)).toBe(body);
    expect(sharedJson(body)?.toString()).toBe('{"items":[{"id":"a"}],"stats":{"total":1}}');
    // An unshared result gets a body of its own each time, never registered.
    const own = { items: [], nextCursor: null };
    expect(withoutCursor(own)).not.toBe(withoutCursor(own));
    expect(sharedJson(withoutCursor(own))).toBeUndefined();
  });

  it('keep their compressed copies beside their JSON, each made once', () => {
    const page = markShared({ items: [{ id: 'a' }], nextCursor: null });
    const json = sharedJson(page)!;
    let made = 0;
    const encode = (bytes: Buffer) => {
      made += 1;
      return Buffer.concat([Buffer.from('z:'), bytes]);
    };
    const br = sharedEncoded(json, 'br', encode);
    expect(br?.toString()).toBe(`z:${json.toString()}`);
    expect(sharedEncoded(json, 'br', encode)).toBe(br);
    expect(sharedEncoded(json, 'gzip', encode)).not.toBe(br);
    expect(made).toBe(2);
    // Bytes that are not a shared value's JSON (even equal ones) are the caller's to encode.
    expect(sharedEncoded(Buffer.from(json), 'br', encode)).toBeUndefined();
    expect(made).toBe(2);
  });
});
