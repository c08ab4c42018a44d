/**
 * The file-upload dialog (docs/web.md, "Uploads"): pick or paste, preview and upload images (one,
 * or up to `maxFiles` at once), then make them public. The caller gets each object path. Uppy and its CSS load on first open, so they stay out of the
 * first page's bundle; `preloadImageUploadDialog` warms the chunk on hover or focus of a trigger.
 */
import { Trans } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { Spinner } from '../../components/ui/spinner';

export interface ImageUploadDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * Called with `/objects/<key>` for each image once it is public, in the order they were picked.
   * The dialog closes itself once every image is in; a refused one stays, with why.
   */
  onUploaded: (objectPath: string) => void;
  /** How many images one upload takes (default 1): the composer's free slots. */
  maxFiles?: number;
  /** The dialog's title ('Upload images'); it names the dialog for screen readers. */
  title?: string;
  /** A line under the title ('Images only, up to 5 MB'). */
  note?: string;
}

const load = () => import('./uppy-image-dialog');
const UppyImageDialog = lazy(load);

export function preloadImageUploadDialog(): void {
  void load().catch(() => {});
}

export function ImageUploadDialog(props: ImageUploadDialogProps) {
  // Mount (and so load) on first open; stay mounted afterwards so Uppy is created only once.
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense
      fallback={
        props.open ? (
          <div
            role="status"
            className="fixed inset-0 z-50 grid place-items-center bg-black/50 text-sm text-white"
          >
            <span className="flex items-center gap-2">
              <Spinner /> <Trans>Loading uploader...</Trans>
            </span>
          </div>
        ) : null
      }
    >
      <UppyImageDialog {...props} />
    </Suspense>
  );
}
