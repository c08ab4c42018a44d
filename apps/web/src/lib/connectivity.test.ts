/**
 * lib/connectivity: a browser that says it is online while no request is answered (a page its
 * service worker served offline, Wi-Fi without internet) still counts as offline, and the first
 * answer after that counts as the connection coming back.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isOnline,
  onReconnect,
  resetConnectivity,
  subscribeConnectivity,
  trackedFetch,
} from './connectivity';

const noNetwork = (_input: RequestInfo | URL): Promise<Response> =>
  Promise.reject(new TypeError('Failed to fetch'));

beforeEach(() => {
  vi.useFakeTimers();
  resetConnectivity();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('connectivity', () => {
  it('a request without an answer is offline even when navigator.onLine says online', async () => {
    expect(navigator.onLine).toBe(true);
    vi.stubGlobal('fetch', vi.fn(noNetwork));
    const changed = vi.fn();
    const stop = subscribeConnectivity(changed);
    await expect(trackedFetch('/trpc/posts.feed')).rejects.toThrow(TypeError);
    expect(isOnline()).toBe(false);
    expect(changed).toHaveBeenCalledTimes(1);
    stop();
  });

  it('an abort or an HTTP error is not a lost connection', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new DOMException('aborted', 'AbortError'))),
    );
    await expect(trackedFetch('/trpc/posts.feed')).rejects.toThrow('aborted');
    expect(isOnline()).toBe(true);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 503 })),
    );
    expect((await trackedFetch('/trpc/posts.feed')).status).toBe(503);
    expect(isOnline()).toBe(true);
  });

  it('while unreachable, /api/health is asked with a growing pause; its answer is a reconnect', async () => {
    const fetch = vi.fn(noNetwork);
    vi.stubGlobal('fetch', fetch);
    const reconnected = vi.fn();
    const stop = onReconnect(reconnected);
    await expect(trackedFetch('/trpc/auth.session')).rejects.toThrow(TypeError);

    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.mock.calls[1]?.[0]).toBe('/api/health');
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(reconnected).not.toHaveBeenCalled();

    // The network is back: the next probe is answered.
    fetch.mockImplementation(async () => new Response('{"status":"ok"}'));
    await vi.advanceTimersByTimeAsync(4000);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(isOnline()).toBe(true);
    expect(reconnected).toHaveBeenCalledTimes(1);

    // Reachable again: no more probes.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(4);
    stop();
  });

  it("the browser's online event is a reconnect and clears the unreachable mark", async () => {
    vi.stubGlobal('fetch', vi.fn(noNetwork));
    const reconnected = vi.fn();
    const stop = onReconnect(reconnected);
    await expect(trackedFetch('/trpc/auth.session')).rejects.toThrow(TypeError);
    expect(isOnline()).toBe(false);
    window.dispatchEvent(new Event('online'));
    expect(isOnline()).toBe(true);
    expect(reconnected).toHaveBeenCalledTimes(1);
    stop();
  });
});
