/** Holds the current theme for the app; persistence and the <html> class live in lib/theme.ts. */
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { applyTheme, oppositeTheme, readStoredTheme, storeTheme, type Theme } from '../../lib/theme';

interface ThemeContextValue {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  // public/theme-init.js already applied the stored theme before first paint; just read it back.
  const [theme, setThemeState] = useState<Theme>(() => readStoredTheme());

  const setTheme = useCallback((next: Theme) => {
    setThemeState(next);
    storeTheme(next);
    applyTheme(next);
  }, []);

  const toggleTheme = useCallback(() => setTheme(oppositeTheme(theme)), [setTheme, theme]);

  const value = useMemo(() => ({ theme, setTheme, toggleTheme }), [theme, setTheme, toggleTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used inside <ThemeProvider>');
  return value;
}
