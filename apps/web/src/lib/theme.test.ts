import { describe, expect, it } from 'vitest';
import { applyTheme, readStoredTheme, resolveTheme, storeTheme, THEME_STORAGE_KEY } from './theme';

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

  it('defaults to System when nothing or something invalid is stored', () => {
    expect(readStoredTheme(memoryStorage())).toBe('system');
    expect(readStoredTheme(memoryStorage({ 'cubes-theme': 'purple' }))).toBe('system');
    expect(readStoredTheme(null)).toBe('system');
  });

  it('round-trips the stored theme', () => {
    const storage = memoryStorage();
    storeTheme('dark', storage);
    expect(storage.data.get('cubes-theme')).toBe('dark');
    expect(readStoredTheme(storage)).toBe('dark');
    storeTheme('light', storage);
    expect(readStoredTheme(storage)).toBe('light');
    storeTheme('system', storage);
    expect(readStoredTheme(storage)).toBe('system');
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
    expect(readStoredTheme(broken)).toBe('system');
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

  it("System comes to the device's setting; Light and Dark ignore it", () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});
