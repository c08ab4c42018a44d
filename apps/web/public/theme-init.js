// Runs before the first paint: apply the saved theme so a dark page never flashes light.
// Keep in step with src/lib/theme.ts (key 'cubes-theme', values 'light' | 'dark', default light).
(() => {
  let theme = 'light';
  try {
    if (window.localStorage.getItem('cubes-theme') === 'dark') theme = 'dark';
  } catch {
    // Storage can be blocked (privacy modes); the default theme applies.
  }
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  // The browser's UI colour follows the chosen theme (src/lib/theme.ts, THEME_COLORS).
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
    meta.setAttribute('content', theme === 'dark' ? '#0c0c16' : '#fbfbfe');
  }
})();
