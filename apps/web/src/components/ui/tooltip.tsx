/** Radix Tooltip with the timings of docs/web.md, "Timings" (open after 700 ms, skip delay 300 ms). */
import { Tooltip as RadixTooltip } from 'radix-ui';
import type { ReactNode } from 'react';

export const TOOLTIP_DELAY = 700;
export const TOOLTIP_SKIP_DELAY = 300;

/** Once near the root of the app: every tooltip shares these delays. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_DELAY} skipDelayDuration={TOOLTIP_SKIP_DELAY}>
      {children}
    </RadixTooltip.Provider>
  );
}

interface TooltipProps {
  content: ReactNode;
  /** One focusable element (for a disabled button, wrap it in a focusable span). */
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          side={side}
          sideOffset={6}
          className="tooltip-content z-50 max-w-64 rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow-md"
        >
          {content}
          <RadixTooltip.Arrow className="fill-foreground" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
