/** Renders the toast store with Radix Toast: swipe right past 50 px to dismiss, F8 focuses the region. */
import { useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { Toast } from 'radix-ui';
import { cn } from '../../lib/cn';
import {
  dismissToast,
  TOAST_DURATION,
  TOAST_HOTKEY,
  TOAST_REGION_LABEL,
  type ToastVariant,
  useToast,
} from './use-toast';

/**
 * Where toasts sit: where no control lives. On a phone, at the bottom just above the tab bar (the
 * header and its bell stay free). From md up, at the top right just under the header: the
 * composers (home, comment boxes in the feed's column, Cubey's and the chat's inputs at the
 * bottom, with their Post, Send and Regenerate) are never there. The area itself lets clicks
 * through; only a toast takes them.
 */
const TOAST_VIEWPORT_CLASSES =
  'pointer-events-none fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-[100] m-0 flex max-h-[calc(100dvh-8rem)] list-none flex-col gap-2 p-4 outline-none ' +
  'md:top-16 md:bottom-auto md:start-auto md:w-[400px] md:max-w-[calc(100vw-2rem)]';

const variantClasses: Record<ToastVariant, string> = {
  default: 'border-border bg-popover text-popover-foreground',
  destructive:
    'border-destructive bg-destructive text-destructive-foreground dark:border-red-700 dark:bg-red-700',
};

export function Toaster() {
  const { toasts } = useToast();
  const { i18n, t } = useLingui();
  return (
    <Toast.Provider swipeDirection="right" swipeThreshold={50} duration={TOAST_DURATION}>
      {toasts.map(({ id, title, description, variant = 'default', duration, open }) => (
        <Toast.Root
          key={id}
          open={open}
          duration={duration}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          className={cn(
            'toast group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-lg border p-4 pe-10 shadow-lg',
            variantClasses[variant],
          )}
        >
          <div className="grid min-w-0 gap-1">
            {title ? <Toast.Title className="user-text text-sm font-semibold">{title}</Toast.Title> : null}
            {description ? (
              <Toast.Description className="user-text text-sm">{description}</Toast.Description>
            ) : null}
          </div>
          <Toast.Close
            aria-label={t`Close`}
            className={cn(
              'absolute top-2 end-2 rounded-md p-1 opacity-70 transition-opacity hover:opacity-100 focus-visible:opacity-100',
              variant === 'destructive' ? 'focus-visible:outline-destructive-foreground' : '',
            )}
          >
            <X className="size-4" aria-hidden="true" />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        hotkey={[TOAST_HOTKEY]}
        label={i18n._(TOAST_REGION_LABEL)}
        className={TOAST_VIEWPORT_CLASSES}
      />
    </Toast.Provider>
  );
}
