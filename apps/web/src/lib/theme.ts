/**
 * Theme: the member picks Light, Dark or System (the default: the device's own setting, followed
 * live). The choice is kept in localStorage under 'cubes-theme' ('light' | 'dark' | 'system'; no
 * entry means System) and what it comes to is applied as the class `dark` on <html>.
 * public/theme-init.js repeats the read-and-apply part before first paint.
 */
export type Theme = 'light' | 'dark';
export type ThemePreference = Theme | 'system';

export const THEME_STORAGE_KEY = 'cubes-theme';
export const DEFAULT_THEME_PREFERENCE: ThemePreference = 'system';
export const THEME_PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];
/** The media query a System preference follows. */
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStorage(): StorageLike | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // access itself can throw when storage is blocked
  }
}

export function isThemePreference(value: unknown): value is ThemePreference {
  return value === 'light' || value === 'dark' || value === 'system';
}

/** The saved choice, or System when nothing (or something invalid) is saved. */
export function readStoredTheme(storage: StorageLike | null = defaultStorage()): ThemePreference {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return isThemePreference(value) ? value : DEFAULT_THEME_PREFERENCE;
  } catch {
    return DEFAULT_THEME_PREFERENCE;
  }
}

export function storeTheme(
  preference: ThemePreference,
  storage: StorageLike | null = defaultStorage(),
): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Quota or privacy mode: the theme still applies for this visit.
  }
}

/** Whether the device asks for dark colours now (false where it cannot say). */
export function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(DARK_SCHEME_QUERY).matches
    : false;
}

/** The theme a choice comes to: System is the device's setting. */
export function resolveTheme(preference: ThemePreference, prefersDark = systemPrefersDark()): Theme {
  if (preference === 'system') return prefersDark ? 'dark' : 'light';
  return preference;
}

/** Calls `onChange` whenever the device's light/dark setting changes; returns the unsubscribe. */
export function watchSystemTheme(onChange: () => void): () => void {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(DARK_SCHEME_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The browser's UI colour (address bar, installed app's title bar) for each theme: its background. */
export const THEME_COLORS: Record<Theme, string> = { light: '#fbfbfe', dark: '#0c0c16' };

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  // index.html's two theme-color metas follow the system scheme; the applied theme wins.
  for (const meta of root.ownerDocument.querySelectorAll('meta[name="theme-color"]')) {
    meta.setAttribute('content', THEME_COLORS[theme]);
  }
}
