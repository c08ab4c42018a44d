/**
 * A question before an action that loses something (delete a post, a comment): the action runs
 * only from this dialog's confirm button, never from the click that opened it. Escape, the
 * overlay and Cancel close it; focus starts on Cancel, the safe choice.
 */
import { Trans } from '@lingui/react/macro';
import { AlertDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { focusBackWithoutScroll } from '../../lib/focus-back';
import { Button } from './button';
import { Spinner } from './spinner';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** how the confirm button looks: red for what cannot be undone (the default) */
  confirmVariant?: 'destructive' | 'default';
  /** the action is running: the confirm button spins and both buttons wait */
  pending?: boolean;
  onConfirm: () => void;
  /**
   * Where focus goes when it closes, for a dialog opened from a menu (whose item is gone by then):
   * by default, the element that had it when the dialog opened.
   */
  returnFocus?: () => HTMLElement | null;
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  confirmVariant = 'destructive',
  pending = false,
  onConfirm,
  returnFocus,
}: ConfirmDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <AlertDialog.Content
          onCloseAutoFocus={returnFocus ? focusBackWithoutScroll(returnFocus) : undefined}
          className="dialog-content fixed top-1/2 left-1/2 z-50 grid w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl"
        >
          <AlertDialog.Title className="user-text text-lg font-semibold tracking-tight">
            {title}
          </AlertDialog.Title>
          <AlertDialog.Description className="user-text text-sm text-muted-foreground">
            {description}
          </AlertDialog.Description>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="outline" disabled={pending}>
                <Trans>Cancel</Trans>
              </Button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that closes at once, before the request has answered. */}
            <Button variant={confirmVariant} disabled={pending} onClick={onConfirm}>
              {pending ? <Spinner /> : null}
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
