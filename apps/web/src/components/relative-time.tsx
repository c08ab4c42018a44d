import { useLingui } from '@lingui/react/macro';
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import { formatFullDate, formatRelativeTime } from '../lib/relative-time';

/** One shared clock for every relative time on screen: ticks once a minute while anything listens. */
const TICK_MS = 60_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    // Idle until now: catch up (React re-reads the snapshot right after subscribing).
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

function getNow(): number {
  return now;
}

/**
 * The time a page was rendered on the server (entry-server.tsx), given again to the browser's
 * first render (main.tsx): a page hydrates showing the relative times the server wrote, then
 * moves to the browser's own clock. Without it the two clocks would disagree across a minute's
 * edge, a hydration mismatch.
 */
const RenderTimeContext = createContext<number | null>(null);

export function RenderTime({ value, children }: { value: number | null; children: ReactNode }) {
  return <RenderTimeContext.Provider value={value}>{children}</RenderTimeContext.Provider>;
}

export function useNow(): number {
  const renderedAt = useContext(RenderTimeContext);
  return useSyncExternalStore(subscribe, getNow, () => renderedAt ?? now);
}

/** '5 minutes ago' in a <time> with the machine-readable date and the full date as its title. */
export function RelativeTime({ date, className }: { date: Date | string; className?: string }) {
  const current = useNow();
  const { i18n } = useLingui();
  const value = new Date(date);
  if (Number.isNaN(value.getTime())) return null;
  return (
    <time dateTime={value.toISOString()} title={formatFullDate(value, i18n)} className={className}>
      {formatRelativeTime(value, current, i18n)}
    </time>
  );
}
