/**
 * The × in a dialog's top-right corner: Radix's Close, labelled "Close" for screen readers. On a
 * dialog's card by default; `tone="overlay"` is the round white-on-dark one over a lightbox.
 */
import { useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';

const TONES = {
  card: 'top-4 end-4 rounded-md p-1 text-muted-foreground opacity-80 transition-opacity hover:opacity-100 focus-visible:outline-ring',
  overlay:
    'top-3 end-3 inline-flex size-10 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80 focus-visible:outline-white',
};

export function DialogCloseButton({
  disabled,
  tone = 'card',
}: {
  disabled?: boolean;
  tone?: keyof typeof TONES;
}) {
  const { t } = useLingui();
  return (
    <Dialog.Close
      aria-label={t`Close`}
      disabled={disabled}
      className={`absolute focus-visible:outline-2 ${TONES[tone]}`}
    >
      <X aria-hidden="true" className={tone === 'overlay' ? 'size-5' : 'size-4'} />
    </Dialog.Close>
  );
}
