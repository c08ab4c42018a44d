// Starts the app once a page the server rendered is on screen. Such a page is whole without its
// scripts, and apps/server/src/pages/render.ts (scriptsAfterPaint) puts this file in place of
// them: data-entry is the app's first module, data-preload the chunks it and the page need.
// Asked for beside the page, ~150 KB of script shared a slow phone's connection with the
// stylesheet, the font and the first image, and the browser ran what had come before its first
// frame. Here the page paints its text and the image it marked as its largest
// (fetchpriority="high") first; then the scripts are asked for, a few links a task, and run:
// bench/README.md, "Paint first, then the scripts".
(() => {
  const script = document.currentScript;
  const entry = script?.dataset.entry;
  if (!entry) return;
  const chunks = (script.dataset.preload ?? '').split(' ').filter(Boolean);
  // A few links a task: each costs the main thread about a millisecond on a desktop, and 26 in one
  // task were a long one on a phone. The entry goes last, when all its chunks are on their way.
  const ask = () => {
    for (const href of chunks.splice(0, 6)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    if (chunks.length > 0) setTimeout(ask);
    else import(entry).catch((error) => console.error('the app did not load', error));
  };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    ask();
  };
  // A hidden tab paints nothing, so there is nothing to wait for.
  if (document.visibilityState !== 'visible') return start();
  // Whatever the painting does (a browser too busy to draw), the app starts within a second.
  setTimeout(start, 1000);
  const text = new Promise((resolve) => {
    if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint')) {
      // No paint timing: the frame after the next one is on screen.
      requestAnimationFrame(() => requestAnimationFrame(resolve));
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntries().some((entry) => entry.name === 'first-contentful-paint')) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
  });
  const largest = [...document.querySelectorAll('img[fetchpriority="high"]')].map((img) =>
    img.decode().catch(() => undefined),
  );
  // In a task of its own, not in the frame's.
  void Promise.all([text, ...largest]).then(() => setTimeout(start));
})();
