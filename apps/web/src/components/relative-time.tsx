import { useLingui } from '@lingui/react/macro';
import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
} from 'react';
import { formatFullDate, formatRelativeTime } from '../lib/relative-time';
import { whenIdle } from '../lib/when-idle';

/** One shared clock for every relative time on screen: ticks once a minute while anything listens. */
const TICK_MS = 60_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;
/** The server's render time while the page it rendered hydrates (`pinClock`), else null. */
let pinned: number | null = null;

/** Before hydrating a page the server rendered at `renderedAt` (main.tsx): the clock reads it. */
export function pinClock(renderedAt: number): void {
  pinned = renderedAt;
}

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
  return pinned ?? now;
}

/**
 * The time a page was rendered on the server (entry-server.tsx), given again to the browser's
 * first render (main.tsx): a page hydrates showing the relative times the server wrote, then
 * moves to the browser's own clock. Without it the two clocks would disagree across a minute's
 * edge, a hydration mismatch.
 *
 * The move is a background render. The clock reads the render time until the page has hydrated
 * (`hydrating`, `pinClock`): a store whose browser answer differs from the server's makes React
 * render its readers again at once, in one task, and every card has a relative time (20 of them
 * re-rendered in the task after hydrating, on a member's rendered home). Once the page has
 * hydrated and the browser is idle, the clock is the browser's and the context's value turns null
 * in a transition, whose render moves every reader in slices.
 */
const RenderTimeContext = createContext<number | null>(null);

export function RenderTime({
  value,
  hydrating = false,
  children,
}: {
  value: number | null;
  /** the browser hydrating the page the server rendered at `value`, the clock pinned to it (main.tsx) */
  hydrating?: boolean;
  children: ReactNode;
}) {
  const [renderedAt, setRenderedAt] = useState(value);
  useEffect(() => {
    if (!hydrating) return;
    // Once the parts in Suspense boundaries, which React hydrates after the root, have hydrated
    // too (each reader subscribed while the clock still read `value`).
    whenIdle(() => {
      pinned = null;
      now = Date.now();
      startTransition(() => setRenderedAt(null));
    });
  }, [hydrating]);
  return <RenderTimeContext.Provider value={renderedAt}>{children}</RenderTimeContext.Provider>;
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
