import { useLingui } from '@lingui/react/macro';
import { Spinner } from '../ui/spinner';

/** Shown in <main> while a page's code or the session check is on its way. */
export function PageLoading({ label }: { label?: string }) {
  const { t } = useLingui();
  return (
    <div role="status" className="flex items-center justify-center gap-2 py-24 text-sm text-muted-foreground">
      <Spinner />
      <span>{label ?? t`Loading…`}</span>
    </div>
  );
}
