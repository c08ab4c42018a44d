/**
 * The app's tab bars (Home's feeds, a profile's sections, notifications, search results, the
 * account forms): Radix Tabs, so the roles (tablist, tab, tabpanel named by its tab), arrow keys,
 * Home/End and automatic activation are the library's. Two looks: `line` (an underline under the
 * chosen tab, full width on a phone) and `pill` (a muted track, the chosen tab raised).
 *
 * A panel takes no tab stop of its own: every panel here is full of links and buttons, so Tab
 * goes from the tab list straight to the first of them. Only the chosen panel is mounted.
 */
import { Tabs as TabsPrimitive } from 'radix-ui';
import type { MouseEvent, ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
  panel: ReactNode;
  /** Classes for this tab's panel. */
  panelClassName?: string;
}

/**
 * Radix focuses a tab from its own mousedown handler (`element.focus()`, for Safari, where a click
 * does not focus a button). Chromium draws a focus ring on such a scripted focus when nothing on
 * the page was focused before, so a page's first click, on a tab, showed a ring. Focused here
 * first, by the same press, without the ring; Radix's focus then changes nothing.
 */
function focusWithoutRing(event: MouseEvent<HTMLButtonElement>): void {
  if (event.button !== 0 || event.ctrlKey || event.currentTarget.disabled) return;
  event.currentTarget.focus({ preventScroll: true, focusVisible: false } as FocusOptions);
}

/** The looks: `@utility tab-line`, `tab-track` and `tab-pill` in index.css. */
const listClasses = { line: 'flex border-b', pill: 'tab-track' } as const;
const tabClasses = { line: 'tab-line', pill: 'tab-pill' } as const;

export function Tabs<T extends string>({
  label,
  items,
  value,
  defaultValue,
  onValueChange,
  variant = 'line',
  stretch = false,
  className,
}: {
  /** The tab list's accessible name. */
  label: string;
  items: readonly TabItem<T>[];
  /** The chosen tab, when the caller keeps it (in the URL, in storage). */
  value?: T;
  defaultValue?: T;
  onValueChange?: (value: T) => void;
  variant?: keyof typeof listClasses;
  /** `pill` only: the track fills the width and the tabs share it. */
  stretch?: boolean;
  className?: string;
}) {
  return (
    <TabsPrimitive.Root
      value={value}
      defaultValue={defaultValue}
      onValueChange={(next) => {
        const item = items.find((i) => i.value === next);
        if (item) onValueChange?.(item.value);
      }}
      className={cn('grid gap-4', className)}
    >
      <TabsPrimitive.List
        aria-label={label}
        // In the grid, a track that does not stretch is as wide as its tabs.
        className={cn(listClasses[variant], variant === 'pill' && !stretch && 'justify-self-start')}
      >
        {items.map((item) => (
          <TabsPrimitive.Trigger
            key={item.value}
            value={item.value}
            onMouseDown={focusWithoutRing}
            className={cn(tabClasses[variant], stretch && 'flex-1')}
          >
            {item.label}
          </TabsPrimitive.Trigger>
        ))}
      </TabsPrimitive.List>
      {items.map((item) => (
        <TabsPrimitive.Content
          key={item.value}
          value={item.value}
          tabIndex={-1}
          className={cn('rounded-md', item.panelClassName)}
        >
          {item.panel}
        </TabsPrimitive.Content>
      ))}
    </TabsPrimitive.Root>
  );
}
