/**
 * The "Report" action on posts, comments and messages: shown to logged-in members for what is
 * not their own, it opens the reason dialog (loaded on first use, with its schema). A profile
 * offers it in its "More actions" menu, with the same dialog (`ReportDialogOnDemand`).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Flag } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { cn } from '../../lib/cn';
import { useAuth } from '../auth/auth-provider';
import type { ReportTarget } from './report-target';

const ReportDialog = lazy(() => import('./report-dialog'));

/** The reason dialog, its code loaded the first time it opens. */
export function ReportDialogOnDemand({
  open,
  onOpenChange,
  ...target
}: ReportTarget & { open: boolean; onOpenChange: (open: boolean) => void }) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ReportDialog {...target} open={open} onOpenChange={onOpenChange} />
    </Suspense>
  );
}

export interface ReportButtonProps extends ReportTarget {
  /** the author of the item, or the member: nobody reports themself */
  ownerId: string;
  /** the icon alone (the label stays for assistive technology) */
  compact?: boolean;
  className?: string;
}

export function ReportButton({ ownerId, compact = false, className, ...target }: ReportButtonProps) {
  const { t } = useLingui();
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  if (!user || user.id === ownerId) return null;
  const label =
    target.targetType === 'post'
      ? t`Report post`
      : target.targetType === 'comment'
        ? t`Report comment`
        : target.targetType === 'message'
          ? t`Report message`
          : t`Report member`;
  return (
    <>
      <button
        type="button"
        aria-label={label}
        title={label}
        aria-haspopup="dialog"
        className={cn(
          'inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-ring',
          compact ? 'size-8 justify-center [&_svg]:size-4' : 'h-9 px-2 sm:px-2.5 [&_svg]:size-[18px]',
          className,
        )}
        onClick={() => setOpen(true)}
      >
        <Flag aria-hidden="true" />
        {compact ? null : (
          <span className="hidden sm:inline">
            <Trans>Report</Trans>
          </span>
        )}
      </button>
      <ReportDialogOnDemand {...target} open={open} onOpenChange={setOpen} />
    </>
  );
}
