/**
 * Radix Tooltip with the timings of docs/web.md, "Timings" (open after 700 ms, skip delay 300 ms),
 * loaded after the first paint (lazy-menu.tsx; the shared timing is menu-primitives.tsx's).
 */
import type { ReactElement, ReactNode } from 'react';
import { LazyMenu } from './lazy-menu';

export const TOOLTIP_DELAY = 700;
export const TOOLTIP_SKIP_DELAY = 300;

interface TooltipProps {
  content: ReactNode;
  /** One focusable element (for a disabled button, wrap it in a focusable span). */
  children: ReactElement<object>;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  return (
    <LazyMenu kind="tooltip" trigger={children}>
      {({ Tooltip: RadixTooltip }) => (
        <RadixTooltip.Content
          side={side}
          sideOffset={6}
          className="tooltip-content z-50 max-w-64 rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow-md"
        >
          {content}
          <RadixTooltip.Arrow className="fill-foreground" />
        </RadixTooltip.Content>
      )}
    </LazyMenu>
  );
}
