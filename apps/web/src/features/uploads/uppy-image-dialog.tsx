/**
 * The Uppy side of the image-upload dialog, loaded on first open (see image-upload-dialog.tsx).
 *
 * Flow (docs/web.md, "Uploads"): @uppy/aws-s3 in single-request mode asks `signRequest` for a URL; we answer
 * with a fresh signed PUT URL from objects.createUploadUrl (a same-origin path for the local
 * driver, a presigned S3 URL otherwise) and Uppy PUTs the file there with its Content-Type. A
 * post-processor then calls objects.setAcl, which checks and re-encodes the image and makes it
 * public; its object path goes to the caller and the dialog closes and resets. The dialog's
 * states (waiting → uploading → postprocessing → complete / error) and messages are Uppy's own.
 */
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import './uppy-theme.css';
import AwsS3 from '@uppy/aws-s3';
import Uppy, { type Body, type Meta, UserFacingApiError } from '@uppy/core';
import DashboardModal from '@uppy/react/dashboard-modal';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useTheme } from '../theme/theme-provider';
import type { ImageUploadDialogProps } from './image-upload-dialog';
import { IMAGE_PICKER_TYPES, MAX_IMAGE_BYTES, MAX_IMAGE_FILES } from './upload-constants';

type TrpcClient = ReturnType<typeof trpc.useUtils>['client'];

interface Handlers {
  client: TrpcClient;
  /** The upload finished and the image is public. */
  done: (objectPath: string) => void;
}

function createUppy(handlers: { current: Handlers }): Uppy<Meta, Body> {
  // The signed URL handed out for each file (keyed by Uppy's file id), for set-acl.
  const uploadUrls = new Map<string, string>();
  const objectPaths = new Map<string, string>();

  const uppy = new Uppy<Meta, Body>({
    id: 'image-upload',
    autoProceed: false,
    restrictions: {
      maxNumberOfFiles: MAX_IMAGE_FILES,
      maxFileSize: MAX_IMAGE_BYTES,
      allowedFileTypes: IMAGE_PICKER_TYPES,
    },
  });

  uppy.use(AwsS3<Meta, Body>, {
    shouldUseMultipart: false,
    // Our own key names the request; the server picks the real object key inside the signed URL.
    generateObjectKey: (file) => file.id,
    signRequest: async (request) => {
      if (request.method !== 'PUT' || 'uploadId' in request) {
        throw new Error('Only single-request uploads are supported');
      }
      const { uploadURL } = await handlers.current.client.objects.createUploadUrl.mutate();
      uploadUrls.set(request.key, uploadURL);
      // Uppy derives the object location with `new URL()`: make the local driver's path absolute.
      const url = new URL(uploadURL, window.location.origin).href;
      return { url, headers: { 'content-type': request.contentType ?? 'application/octet-stream' } };
    },
  });

  uppy.addPostProcessor(async (fileIDs) => {
    for (const id of fileIDs) {
      const file = uppy.getFile(id);
      if (!file || file.error) continue;
      const imageURL = uploadUrls.get(id) ?? file.uploadURL;
      if (!imageURL) continue;
      uppy.emit('postprocess-progress', file, { mode: 'indeterminate', message: 'Processing image...' });
      try {
        const { objectPath } = await handlers.current.client.objects.setAcl.mutate({
          imageURL,
          visibility: 'public',
        });
        objectPaths.set(id, objectPath);
        uppy.emit('postprocess-complete', uppy.getFile(id));
      } catch (error) {
        const message = errorToast('Failed to process image', error).description;
        uppy.emit('postprocess-complete', uppy.getFile(id));
        // Marks the file failed: the dashboard shows the message and offers Retry (a fresh upload).
        uppy.emit('upload-error', uppy.getFile(id), new UserFacingApiError(message));
      }
    }
  });

  uppy.on('complete', (result) => {
    const file = result?.successful?.[0];
    const objectPath = file ? objectPaths.get(file.id) : undefined;
    if (!objectPath) return;
    toast({ title: 'Image uploaded successfully!' });
    uploadUrls.clear();
    objectPaths.clear();
    handlers.current.done(objectPath);
    // Reset once the 'complete' round is over, so the next open starts empty.
    setTimeout(() => uppy.clear(), 0);
  });

  return uppy;
}

export default function UppyImageDialog({ open, onOpenChange, onUploaded, note }: ImageUploadDialogProps) {
  const { theme } = useTheme();
  const { client } = trpc.useUtils();
  const handlers = useRef<Handlers>({ client, done: () => {} });
  const [uppy, setUppy] = useState<Uppy<Meta, Body> | null>(null);

  handlers.current = {
    client,
    done: (objectPath) => {
      onOpenChange(false);
      onUploaded(objectPath);
    },
  };

  useEffect(() => {
    const instance = createUppy(handlers);
    setUppy(instance);
    return () => instance.destroy();
  }, []);

  if (!uppy) return null;
  return (
    <DashboardModal
      uppy={uppy}
      open={open}
      onRequestClose={() => onOpenChange(false)}
      theme={theme}
      note={note ?? 'Images only (PNG, JPEG, GIF or WebP), up to 5 MB'}
      proudlyDisplayPoweredByUppy={false}
      closeModalOnClickOutside
      closeAfterFinish={false}
      browserBackButtonClose={false}
    />
  );
}
