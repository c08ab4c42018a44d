import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropIfFails, isFresh, type Loading, perScope, track, viewerCopy } from './kept-reads.js';

interface Entry extends Loading {
  value: Promise<string>;
}

function deferred<V>() {
  let resolve!: (value: V) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<V>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('perScope', () => {
  it('makes one store per scope, on first use, and gives the same one back', () => {
    const make = vi.fn(() => new Map<string, number>());
    const storeOf = perScope(make);
    const a = {};
    const b = {};
    storeOf(a).set('x', 1);
    expect(storeOf(a).get('x')).toBe(1);
    expect(storeOf(b).get('x')).toBeUndefined();
    expect(make).toHaveBeenCalledTimes(2);
  });
});

describe('track and isFresh', () => {
  it('is fresh while loading and for the TTL after the value arrived, then stale', async () => {
    vi.useFakeTimers({ now: 1_000 });
    const map = new Map<string, Entry>();
    const load = deferred<string>();
    const arrived = vi.fn();
    const entry = track(map, 'k', { value: load.promise, loadedAt: null }, load.promise, arrived);
    expect(map.get('k')).toBe(entry);
    expect(isFresh(entry, 100)).toBe(true); // loading: readers share it
    vi.setSystemTime(5_000);
    load.resolve('v');
    await entry.value;
    await Promise.resolve();
    expect(arrived).toHaveBeenCalledWith('v');
    expect(entry.loadedAt).toBe(5_000);
    vi.setSystemTime(5_099);
    expect(isFresh(entry, 100)).toBe(true);
    vi.setSystemTime(5_100);
    expect(isFresh(entry, 100)).toBe(false);
  });

  it('takes a failed load out of the map, but never the entry that replaced it', async () => {
    const map = new Map<string, Entry>();
    const first = deferred<string>();
    const old = track(map, 'k', { value: first.promise, loadedAt: null }, first.promise);
    // A write dropped the entry while it loaded, and a new read put its own in.
    map.delete('k');
    const second = deferred<string>();
    const newer = track(map, 'k', { value: second.promise, loadedAt: null }, second.promise);
    first.reject(new Error('connection lost'));
    await expect(old.value).rejects.toThrow('connection lost');
    await Promise.resolve();
    expect(map.get('k')).toBe(newer);

    second.reject(new Error('again'));
    await expect(newer.value).rejects.toThrow('again');
    await Promise.resolve();
    expect(map.has('k')).toBe(false);
    expect(newer.loadedAt).toBeNull();
  });
});

describe('dropIfFails', () => {
  it('leaves the entry when the work succeeds', async () => {
    const map = new Map([['k', 'entry']]);
    const work = Promise.resolve(1);
    dropIfFails(map, 'k', 'entry', work);
    await work;
    await Promise.resolve();
    expect(map.get('k')).toBe('entry');
  });
});

describe('viewerCopy', () => {
  it('makes a viewer’s copy once and shares it', async () => {
    const viewers = new Map<string, Promise<string>>();
    const make = vi.fn(async () => 'copy');
    const a = viewerCopy(viewers, 'ann', 10, make);
    const b = viewerCopy(viewers, 'ann', 10, make);
    expect(b).toBe(a);
    expect(await a).toBe('copy');
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('keeps at most `max` viewers; past that each call makes its own copy', async () => {
    const viewers = new Map<string, Promise<string>>();
    const make = vi.fn(async () => 'copy');
    await viewerCopy(viewers, 'ann', 1, make);
    await viewerCopy(viewers, 'bob', 1, make);
    await viewerCopy(viewers, 'bob', 1, make);
    expect([...viewers.keys()]).toEqual(['ann']);
    expect(make).toHaveBeenCalledTimes(3);
  });

  it('forgets a copy whose making failed, so the next call tries again', async () => {
    const viewers = new Map<string, Promise<string>>();
    const failing = viewerCopy(viewers, 'ann', 10, async () => {
      throw new Error('marks failed');
    });
    await expect(failing).rejects.toThrow('marks failed');
    await Promise.resolve();
    expect(viewers.has('ann')).toBe(false);
    expect(await viewerCopy(viewers, 'ann', 10, async () => 'copy')).toBe('copy');
  });
});
