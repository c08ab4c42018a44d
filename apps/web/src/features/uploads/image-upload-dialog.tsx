/**
 * The file-upload dialog (docs/web.md, "Uploads"): pick, preview and upload one image, then make it public.
 * The caller gets the object path. Uppy and its CSS load on first open, so they stay out of the
 * first page's bundle; `preloadImageUploadDialog` warms the chunk on hover or focus of a trigger.
 */
import { lazy, Suspense, useState } from 'react';
import { Spinner } from '../../components/ui/spinner';

export interface ImageUploadDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with `/objects/<key>` once the upload is public. The dialog then closes itself. */
  onUploaded: (objectPath: string) => void;
  /** A line under the drop area ('Images only, up to 5 MB'). */
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
            className="fixed inset-0 z-[1001] grid place-items-center bg-black/50 text-sm text-white"
          >
            <span className="flex items-center gap-2">
              <Spinner /> Loading uploader...
            </span>
          </div>
        ) : null
      }
    >
      <UppyImageDialog {...props} />
    </Suspense>
  );
}
