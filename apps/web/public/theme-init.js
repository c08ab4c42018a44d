// Runs before the first paint: apply the chosen theme so a dark page never flashes light, and
// start ICU's first use on a worker (intl-warmup.js) while the stylesheet and the font arrive.
// Keep in step with src/lib/theme.ts (key 'cubes-theme', values 'light' | 'dark' | 'system',
// default system: the device's prefers-color-scheme).
(() => {
  let choice = 'system';
  try {
    const stored = window.localStorage.getItem('cubes-theme');
    if (stored === 'light' || stored === 'dark') choice = stored;
  } catch {
    // Storage can be blocked (privacy modes); the default, System, applies.
  }
  const dark =
    choice === 'dark' ||
    (choice === 'system' && !!window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
  // The browser's UI colour follows the applied theme (src/lib/theme.ts, THEME_COLORS).
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
    meta.setAttribute('content', dark ? '#0c0c16' : '#fbfbfe');
  }
})();

// The page's language (its <html lang>) is the worker's name. A browser without workers, or one
// that refuses this one, loads ICU on the main thread at the first count or date, as before.
try {
  new Worker('/intl-warmup.js', { name: document.documentElement.lang || 'en' });
} catch {
  // no worker: nothing lost
}
