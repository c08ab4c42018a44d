import { Moon, Sun } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { oppositeTheme } from '../../lib/theme';
import { useTheme } from './theme-provider';

export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const label = `Switch to ${oppositeTheme(theme)} theme`;
  return (
    <Button variant="ghost" size="icon" aria-label={label} title={label} onClick={toggleTheme}>
      {theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </Button>
  );
}
