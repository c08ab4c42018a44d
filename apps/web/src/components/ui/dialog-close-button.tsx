/** The × in a dialog's top-right corner: Radix's Close, labelled "Close" for screen readers. */
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';

export function DialogCloseButton({ disabled }: { disabled?: boolean }) {
  return (
    <Dialog.Close
      aria-label="Close"
      disabled={disabled}
      className="absolute top-4 right-4 rounded-md p-1 text-muted-foreground opacity-80 transition-opacity hover:opacity-100 focus-visible:outline-2 focus-visible:outline-ring"
    >
      <X aria-hidden="true" className="size-4" />
    </Dialog.Close>
  );
}
