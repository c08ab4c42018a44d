/**
 * Theme: light (default) or dark, kept in localStorage under 'cubes-theme' and applied as the
 * class `dark` on <html>. public/theme-init.js repeats the read-and-apply part before first paint.
 */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'cubes-theme';
export const DEFAULT_THEME: Theme = 'light';

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStorage(): StorageLike | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // access itself can throw when storage is blocked
  }
}

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

/** The saved theme, or the default when nothing (or something invalid) is saved. */
export function readStoredTheme(storage: StorageLike | null = defaultStorage()): Theme {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

export function storeTheme(theme: Theme, storage: StorageLike | null = defaultStorage()): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Quota or privacy mode: the theme still applies for this visit.
  }
}

/** The browser's UI colour (address bar, installed app's title bar) for each theme: its background. */
export const THEME_COLORS: Record<Theme, string> = { light: '#fbfbfe', dark: '#0c0c16' };

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  // index.html's two theme-color metas follow the system scheme; the chosen theme wins.
  for (const meta of root.ownerDocument.querySelectorAll('meta[name="theme-color"]')) {
    meta.setAttribute('content', THEME_COLORS[theme]);
  }
}

export function oppositeTheme(theme: Theme): Theme {
  return theme === 'dark' ? 'light' : 'dark';
}
