/**
 * The confirm dialog (confirm-dialog.tsx), its code loaded the first time it opens: Radix's alert
 * dialog and focus scope are about 11 KB Brotli, and a page asks its question only after a press
 * (bench/README.md, "Dialogs on demand"). Once loaded it stays mounted, so closing it animates and
 * hands focus back as Radix does.
 */
import { lazy, Suspense } from 'react';
import { useOpenedOnce } from '../../lib/opened-once';
import type { ConfirmDialogProps } from './confirm-dialog';

const ConfirmDialog = lazy(() => import('./confirm-dialog').then((m) => ({ default: m.ConfirmDialog })));

export function ConfirmDialogOnDemand(props: ConfirmDialogProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog {...props} />
    </Suspense>
  );
}
