/**
 * Runs `task` once the browser has nothing better to do after the first render, and at the latest
 * after `timeoutMs`: for code and words a page may need soon but not for its first paint. Browsers
 * without `requestIdleCallback` (Safari) wait `fallbackMs` instead.
 */
export function whenIdle(task: () => void, { timeoutMs = 3000, fallbackMs = 200 } = {}): void {
  if (typeof window === 'undefined') return;
  if (typeof window.requestIdleCallback === 'function')
    window.requestIdleCallback(task, { timeout: timeoutMs });
  else setTimeout(task, fallbackMs);
}
