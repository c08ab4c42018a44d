/**
 * Holds the member's theme choice (Light, Dark or System) and the theme it comes to; persistence
 * and the <html> class live in lib/theme.ts. System follows the device's setting live.
 */
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import {
  applyTheme,
  readStoredTheme,
  resolveTheme,
  storeTheme,
  systemPrefersDark,
  type Theme,
  type ThemePreference,
  watchSystemTheme,
} from '../../lib/theme';

interface ThemeContextValue {
  /** What the page shows now. */
  theme: Theme;
  /** What the member chose. */
  preference: ThemePreference;
  setPreference: (preference: ThemePreference) => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  // public/theme-init.js already applied the stored choice before first paint; just read it back.
  const [preference, setPreferenceState] = useState<ThemePreference>(() => readStoredTheme());
  // The device's setting, in the render that hydrates a page the server rendered too (the server
  // reads it as light): nothing that render draws depends on it (the theme menu shows System until
  // hydrated), and read as light there, the page turned light before the first frame after
  // hydrating and faded back to dark, under a dark device's System choice.
  const prefersDark = useSyncExternalStore(watchSystemTheme, systemPrefersDark, systemPrefersDark);
  const theme = resolveTheme(preference, prefersDark);

  // Before paint, so a change of the device's setting or of the choice never shows a mixed frame.
  useLayoutEffect(() => applyTheme(theme), [theme]);

  const setPreference = useCallback((next: ThemePreference) => {
    setPreferenceState(next);
    storeTheme(next);
  }, []);

  const value = useMemo(() => ({ theme, preference, setPreference }), [theme, preference, setPreference]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used inside <ThemeProvider>');
  return value;
}
