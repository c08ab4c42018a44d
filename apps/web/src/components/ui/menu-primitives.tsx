/**
 * The Radix parts of the menus, popovers and tooltips, in a chunk of their own that lazy-menu.tsx
 * loads after the first paint (that file says why and how).
 */
import { Tooltip } from 'radix-ui';
import { type ReactNode, useSyncExternalStore } from 'react';
import { TOOLTIP_DELAY, TOOLTIP_SKIP_DELAY } from './tooltip';

export { DropdownMenu, Popover, Tooltip } from 'radix-ui';

// Each tooltip has a Radix Provider of its own (one around the whole app would bring Radix's
// tooltip back to the first page), so the skip delay between tooltips (docs/web.md, "Timings")
// is kept here, as a shared Provider keeps it: while one is open, and for TOOLTIP_SKIP_DELAY
// after it closes, the next opens at once.
let instant = false;
let skipTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function setInstant(next: boolean) {
  instant = next;
  for (const listener of listeners) listener();
}
function onTooltipOpenChange(open: boolean) {
  clearTimeout(skipTimer);
  if (open) setInstant(true);
  else skipTimer = setTimeout(() => setInstant(false), TOOLTIP_SKIP_DELAY);
}

/** A tooltip's Root, with the timings of docs/web.md. */
export function TooltipRoot({ children }: { children: ReactNode }) {
  const now = useSyncExternalStore(
    subscribe,
    () => instant,
    () => false,
  );
  return (
    <Tooltip.Provider delayDuration={now ? 0 : TOOLTIP_DELAY} skipDelayDuration={TOOLTIP_SKIP_DELAY}>
      <Tooltip.Root onOpenChange={onTooltipOpenChange}>{children}</Tooltip.Root>
    </Tooltip.Provider>
  );
}
