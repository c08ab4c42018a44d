import { describe, expect, it } from 'vitest';
import { applyTheme, oppositeTheme, readStoredTheme, storeTheme, THEME_STORAGE_KEY } from './theme';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    data,
  };
}

describe('theme storage', () => {
  it("uses the key 'cubes-theme'", () => {
    expect(THEME_STORAGE_KEY).toBe('cubes-theme');
  });

  it('defaults to light when nothing or something invalid is stored', () => {
    expect(readStoredTheme(memoryStorage())).toBe('light');
    expect(readStoredTheme(memoryStorage({ 'cubes-theme': 'purple' }))).toBe('light');
    expect(readStoredTheme(null)).toBe('light');
  });

  it('round-trips the stored theme', () => {
    const storage = memoryStorage();
    storeTheme('dark', storage);
    expect(storage.data.get('cubes-theme')).toBe('dark');
    expect(readStoredTheme(storage)).toBe('dark');
    storeTheme('light', storage);
    expect(readStoredTheme(storage)).toBe('light');
  });

  it('survives storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readStoredTheme(broken)).toBe('light');
    expect(() => storeTheme('dark', broken)).not.toThrow();
  });

  it('uses window.localStorage by default', () => {
    storeTheme('dark');
    expect(window.localStorage.getItem('cubes-theme')).toBe('dark');
    expect(readStoredTheme()).toBe('dark');
  });
});

describe('applying the theme', () => {
  it('toggles the dark class on <html>', () => {
    const root = document.documentElement;
    applyTheme('dark');
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.style.colorScheme).toBe('dark');
    applyTheme('light');
    expect(root.classList.contains('dark')).toBe(false);
    expect(root.style.colorScheme).toBe('light');
  });

  it('flips between the two themes', () => {
    expect(oppositeTheme('light')).toBe('dark');
    expect(oppositeTheme('dark')).toBe('light');
  });
});
