/**
 * Settings → "Download my data": starts a zip of everything the member has (built in the
 * background on the server), shows its progress, and offers the finished archive to download.
 */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Download, FileArchive, RefreshCw } from 'lucide-react';
import { RelativeTime } from '../../components/relative-time';
import { Button, buttonClasses } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { errorToast } from '../../lib/error-toast';
import { SettingsCard } from '../settings/settings-card';
import { isBuilding, useDataExportQuery, useRequestExportMutation } from './queries';

/** '512 B', '2.4 KB', '2.4 MB': the number written for `i18n`'s language, the unit translated. */
export function formatBytes(bytes: number, i18n: I18n): string {
  if (bytes < 1024) {
    const size = i18n.number(bytes);
    return i18n._(msg`${size} B`);
  }
  const oneDecimal = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  if (bytes < 1024 * 1024) {
    const size = i18n.number(bytes / 1024, oneDecimal);
    return i18n._(msg`${size} KB`);
  }
  const size = i18n.number(bytes / (1024 * 1024), oneDecimal);
  return i18n._(msg`${size} MB`);
}

export function DownloadDataCard() {
  const { i18n, t } = useLingui();
  const current = useDataExportQuery();
  const start = useRequestExportMutation({
    onError: (error) => errorToast(t`Failed to prepare your data`, error, t`Please try again.`),
  });
  const state = current.data ?? null;
  const busy = isBuilding(state?.status) || start.isPending;
  const size = state?.size != null ? formatBytes(state.size, i18n) : null;

  return (
    <SettingsCard
      id="download-data-title"
      title={t`Download my data`}
      description={t`A zip of your profile, posts, comments, likes, follows, messages, Cubey chats and uploads, as JSON files plus your images.`}
    >
      <div className="grid gap-4">
        {current.isError ? (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <p className="text-muted-foreground">
              <Trans>Could not load your data export.</Trans>
            </p>
            <Button variant="outline" size="sm" onClick={() => void current.refetch()}>
              <Trans>Retry</Trans>
            </Button>
          </div>
        ) : null}

        {state && isBuilding(state.status) ? (
          <div className="grid gap-2" aria-live="polite">
            <div className="flex items-center justify-between gap-3 text-sm">
              <span id="export-progress-label">
                <Trans>Preparing your data...</Trans>
              </span>
              <span className="tabular-nums text-muted-foreground">
                {i18n.number(state.progress / 100, { style: 'percent' })}
              </span>
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
              {size !== null ? <Trans>Your data is ready ({size})</Trans> : <Trans>Your data is ready</Trans>}
              {state.finishedAt ? (
                <>
                  {' · '}
                  <Trans>
                    prepared <RelativeTime date={state.finishedAt} />
                  </Trans>
                </>
              ) : null}
            </p>
            <a className={buttonClasses('default', 'sm')} href={state.downloadUrl} download>
              <Download aria-hidden="true" />
              <Trans>Download zip</Trans>
            </a>
          </div>
        ) : null}

        {state?.status === 'failed' ? (
          <p role="alert" className="text-sm text-destructive">
            <Trans>Your data could not be prepared. Please try again.</Trans>
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
            {busy ? t`Preparing...` : state?.status === 'done' ? t`Prepare a new copy` : t`Download my data`}
          </Button>
        </div>
      </div>
    </SettingsCard>
  );
}
