import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMediaQuery } from './use-media-query';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A matchMedia whose answers the test sets, telling listeners of the queries that changed. */
function fakeMatchMedia(initial: Record<string, boolean>) {
  const matches = { ...initial };
  const listeners = new Map<string, Set<() => void>>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return matches[query] ?? false;
    },
    media: query,
    addEventListener: (_: string, fn: () => void) => {
      if (!listeners.has(query)) listeners.set(query, new Set());
      listeners.get(query)!.add(fn);
    },
    removeEventListener: (_: string, fn: () => void) => listeners.get(query)?.delete(fn),
  }));
  return {
    set(query: string, value: boolean) {
      matches[query] = value;
      for (const fn of listeners.get(query) ?? []) fn();
    },
    listening: (query: string) => listeners.get(query)?.size ?? 0,
  };
}

describe('useMediaQuery', () => {
  it('answers the query and follows its changes, and stops listening when unmounted', () => {
    const media = fakeMatchMedia({ '(min-width: 768px)': true });
    const { result, unmount } = renderHook(() => useMediaQuery('(min-width: 768px)'));
    expect(result.current).toBe(true);
    act(() => media.set('(min-width: 768px)', false));
    expect(result.current).toBe(false);
    expect(media.listening('(min-width: 768px)')).toBe(1);
    unmount();
    expect(media.listening('(min-width: 768px)')).toBe(0);
  });

  it('answers the fallback where there is no matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    expect(renderHook(() => useMediaQuery('(min-width: 768px)', true)).result.current).toBe(true);
    expect(renderHook(() => useMediaQuery('(min-width: 768px)')).result.current).toBe(false);
  });
});
