import { vi } from 'vitest';

/**
 * A screen at least md wide (768 px): the test setup's matchMedia matches nothing, which is a
 * phone. Undone by `vi.unstubAllGlobals()`.
 */
export function wideScreen(): void {
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: query === '(min-width: 768px)',
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList,
  );
}
