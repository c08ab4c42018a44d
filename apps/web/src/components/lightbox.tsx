/**
 * The full-screen viewer that the gallery and a post's images open: a dark backdrop, the content
 * centred, the arrow keys stepping through the items when there are several (wrapping around, and
 * mirrored in a right-to-left language), a
 * Close button at the top right, and focus back on what opened it without scrolling the page
 * (lib/focus-back.ts). A click on the backdrop beside the content closes it.
 */
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { focusBackWithoutScroll } from '../lib/focus-back';
import { DialogCloseButton } from './ui/dialog-close-button';

/** The index `by` steps from `index` among `count` items, wrapping around at both ends. */
export function stepIndex(index: number, by: number, count: number): number {
  return (((index + by) % count) + count) % count;
}

/**
 * The step an arrow key makes: the next item is the one after in reading order, so on the right
 * in a left-to-right page and on the left in a right-to-left one (Arabic), where the Previous and
 * Next buttons sit mirrored too. 0 for any other key.
 */
export function arrowStep(key: string, within: Element): -1 | 0 | 1 {
  if (key !== 'ArrowRight' && key !== 'ArrowLeft') return 0;
  const rightToLeft = within.closest('[dir]')?.getAttribute('dir') === 'rtl';
  return (key === 'ArrowRight') !== rightToLeft ? 1 : -1;
}

export function Lightbox({
  count,
  onStep,
  onClose,
  returnFocus,
  className,
  children,
}: {
  /** how many items the arrow keys step through (no stepping below 2) */
  count: number;
  /** -1 for the previous item, 1 for the next */
  onStep: (by: -1 | 1) => void;
  onClose: () => void;
  /** what opened it, focused again on closing */
  returnFocus: () => HTMLElement | null | undefined;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open onOpenChange={(next) => (next ? null : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/85" />
        <Dialog.Content
          onKeyDown={(event) => {
            if (count < 2) return;
            const by = arrowStep(event.key, event.currentTarget);
            if (by) {
              event.preventDefault();
              onStep(by);
            }
          }}
          // The content covers the screen: a click beside what it shows closes, as on the overlay.
          onClick={(event) => {
            if (event.target === event.currentTarget) onClose();
          }}
          onCloseAutoFocus={focusBackWithoutScroll(returnFocus)}
          className={cn(
            'fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 p-4 outline-none',
            className,
          )}
        >
          {children}
          <DialogCloseButton tone="overlay" />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A Previous or Next button: at the lightbox's side (`side`), or in a bar of controls (`bar`). */
export function LightboxStep({
  by,
  label,
  onStep,
  place,
}: {
  by: -1 | 1;
  label: string;
  onStep: (by: -1 | 1) => void;
  place: 'side' | 'bar';
}) {
  const Icon = by < 0 ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      aria-label={label}
      onClick={() => onStep(by)}
      className={cn(
        'inline-flex items-center justify-center rounded-full text-white focus-visible:outline-2 focus-visible:outline-white',
        place === 'side'
          ? cn(
              'absolute top-1/2 size-11 -translate-y-1/2 bg-black/60 hover:bg-black/80',
              by < 0 ? 'start-2' : 'end-2',
            )
          : 'size-9 hover:bg-white/15',
      )}
    >
      <Icon aria-hidden="true" className={cn('rtl:-scale-x-100', place === 'side' ? 'size-6' : 'size-5')} />
    </button>
  );
}
