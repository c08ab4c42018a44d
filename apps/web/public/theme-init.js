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
})();
