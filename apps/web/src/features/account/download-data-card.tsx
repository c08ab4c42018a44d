/**
 * Settings → "Download my data": starts a zip of everything the member has (built in the
 * background on the server), shows its progress, and offers the finished archive to download.
 */
import { Download, FileArchive, RefreshCw } from 'lucide-react';
import { RelativeTime } from '../../components/relative-time';
import { Button, buttonClasses } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { errorToast } from '../../lib/error-toast';
import { SettingsCard } from '../settings/settings-card';
import { isBuilding, useDataExportQuery, useRequestExportMutation } from './queries';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function DownloadDataCard() {
  const current = useDataExportQuery();
  const start = useRequestExportMutation({
    onError: (error) => errorToast('Failed to prepare your data', error, 'Please try again.'),
  });
  const state = current.data ?? null;
  const busy = isBuilding(state?.status) || start.isPending;

  return (
    <SettingsCard
      id="download-data-title"
      title="Download my data"
      description="A zip of your profile, posts, comments, likes, follows, messages, Cubey chats and uploads, as JSON files plus your images."
    >
      <div className="grid gap-4">
        {current.isError ? (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <p className="text-muted-foreground">Could not load your data export.</p>
            <Button variant="outline" size="sm" onClick={() => void current.refetch()}>
              Retry
            </Button>
          </div>
        ) : null}

        {state && isBuilding(state.status) ? (
          <div className="grid gap-2" aria-live="polite">
            <div className="flex items-center justify-between gap-3 text-sm">
              <span id="export-progress-label">Preparing your data...</span>
              <span className="tabular-nums text-muted-foreground">{state.progress}%</span>
            </div>
            <div
              role="progressbar"
              aria-labelledby="export-progress-label"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={state.progress}
              className="h-2 overflow-hidden rounded-full bg-muted"
            >
              <div
                className="h-full rounded-full bg-primary transition-[width] duration-300"
                style={{ width: `${Math.max(state.progress, 3)}%` }}
              />
            </div>
          </div>
        ) : null}

        {state?.status === 'done' && state.downloadUrl ? (
          <div className="flex min-w-0 flex-wrap items-center gap-3 rounded-lg border bg-muted/40 p-3">
            <FileArchive aria-hidden="true" className="size-5 shrink-0 text-primary" />
            <p className="min-w-0 flex-1 text-sm">
              Your data is ready{state.size !== null ? ` (${formatBytes(state.size)})` : ''}
              {state.finishedAt ? (
                <>
                  {' · prepared '}
                  <RelativeTime date={state.finishedAt} />
                </>
              ) : null}
            </p>
            <a className={buttonClasses('default', 'sm')} href={state.downloadUrl} download>
              <Download aria-hidden="true" />
              Download zip
            </a>
          </div>
        ) : null}

        {state?.status === 'failed' ? (
          <p role="alert" className="text-sm text-destructive">
            Your data could not be prepared. Please try again.
          </p>
        ) : null}

        <div>
          <Button
            variant={state?.status === 'done' ? 'outline' : 'default'}
            disabled={busy || current.isPending}
            aria-busy={busy}
            onClick={() => start.mutate()}
          >
            {busy ? (
              <Spinner />
            ) : state?.status === 'done' ? (
              <RefreshCw aria-hidden="true" />
            ) : (
              <Download aria-hidden="true" />
            )}
            {busy ? 'Preparing...' : state?.status === 'done' ? 'Prepare a new copy' : 'Download my data'}
          </Button>
        </div>
      </div>
    </SettingsCard>
  );
}
