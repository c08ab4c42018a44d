/**
 * The Uppy side of the image-upload dialog, loaded on first open (see image-upload-dialog.tsx).
 *
 * Flow (docs/web.md, "Uploads"): @uppy/aws-s3 in single-request mode asks `signRequest` for a URL; we answer
 * with a fresh signed PUT URL from objects.createUploadUrl (a same-origin path for the local
 * driver, a presigned S3 URL otherwise) and Uppy PUTs the file there with its Content-Type. A
 * post-processor then calls objects.setAcl, which checks and re-encodes the image and makes it
 * public; each object path goes to the caller, in the order picked, and the dialog closes and
 * resets once all are in.
 *
 * A file the server refuses at that step was sent but is not uploaded: it is marked failed (not
 * complete), so the dashboard says only "Upload failed", and the server's reason shows under it
 * until the member retries, removes it or closes the dialog.
 *
 * The dialog is ours (Radix, the app's card, close button and sizes: never full screen); Uppy's
 * dashboard sits inline in it, restyled to the app's theme by uppy-theme.css.
 */
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import './uppy-theme.css';
import type { Language } from '@cubes/api/languages';
import { i18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import AwsS3 from '@uppy/aws-s3';
import Uppy, { type Body, type Meta } from '@uppy/core';
import Dashboard from '@uppy/react/dashboard';
import { AlertCircle } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type ClipboardEvent, useEffect, useId, useRef, useState } from 'react';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { useTheme } from '../theme/theme-provider';
import type { ImageUploadDialogProps } from './image-upload-dialog';
import { type UploadRequests, useUploadRequests } from './queries';
import { IMAGE_PICKER_TYPES, IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_IMAGE_FILES } from './upload-constants';
import { uppyLocale } from './uppy-locales';

interface Handlers {
  requests: UploadRequests;
  /** Images are public, in the order picked; `allDone` when none failed. */
  done: (objectPaths: string[], allDone: boolean) => void;
  /** Why the server refused a file, by file name; null clears. */
  refused: (failures: Refusal[]) => void;
}

/** A file the server refused, and its words. */
export interface Refusal {
  id: string;
  name: string;
  message: string;
}

function refusalsOf(uppy: Uppy<Meta, Body>): Refusal[] {
  return uppy
    .getFiles()
    .filter((file) => file.error)
    .map((file) => ({ id: file.id, name: file.name ?? 'image', message: file.error ?? '' }));
}

function createUppy(handlers: { current: Handlers }): Uppy<Meta, Body> {
  // The signed URL handed out for each file (keyed by Uppy's file id), for set-acl.
  const uploadUrls = new Map<string, string>();
  const objectPaths = new Map<string, string>();

  const uppy = new Uppy<Meta, Body>({
    id: 'image-upload',
    locale: uppyLocale(i18n.locale as Language),
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
      const { uploadURL } = await handlers.current.requests.createUploadUrl();
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
      uppy.emit('postprocess-progress', file, {
        mode: 'indeterminate',
        message: i18n._(msg`Processing image...`),
      });
      try {
        const { objectPath } = await handlers.current.requests.makePublic(imageURL);
        objectPaths.set(id, objectPath);
        uppy.emit('postprocess-complete', uppy.getFile(id));
      } catch (error) {
        const message = errorToast(i18n._(msg`Failed to process image`), error).description;
        uppy.emit('postprocess-complete', uppy.getFile(id));
        // Marks the file failed: the status bar says "Upload failed" and offers Retry (a fresh
        // upload), and the dialog shows the server's words under the dashboard. Its bytes were
        // sent, but it is not uploaded: with `uploadComplete` left true the dashboard said
        // "Upload complete" beside "Upload failed · 1 of 1 file uploaded". (Not through Uppy's
        // 'upload-error', whose passing bubbles would repeat the message without its reason.)
        const failed = uppy.getFile(id);
        if (failed) {
          uppy.setFileState(id, {
            error: message,
            progress: { ...failed.progress, uploadComplete: false, percentage: 0 },
          });
          uppy.setState({ error: message });
        }
      }
    }
  });

  uppy.on('complete', (result) => {
    // In the order picked (Uppy keeps the files in the order they were added).
    const order = uppy.getFiles().map((file) => file.id);
    const succeeded = (result?.successful ?? [])
      .filter((file) => objectPaths.has(file.id))
      .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    const paths = succeeded.map((file) => objectPaths.get(file.id)!);
    const failed = result?.failed?.length ?? 0;
    for (const file of succeeded) {
      objectPaths.delete(file.id);
      uploadUrls.delete(file.id);
    }
    handlers.current.refused(refusalsOf(uppy));
    if (paths.length === 0) return;
    toast({ title: i18n._(msg`Image uploaded successfully!`) });
    handlers.current.done(paths, failed === 0);
    // The images that are in leave the list once this 'complete' round is over; a refused one
    // stays with its reason (Retry or remove it). With none left, the next open starts empty.
    setTimeout(() => {
      if (failed === 0) uppy.clear();
      else uppy.removeFiles(succeeded.map((file) => file.id).filter((id) => uppy.getFile(id)));
    }, 0);
  });

  // A retried or removed file's reason goes with it.
  const refreshRefusals = () => handlers.current.refused(refusalsOf(uppy));
  uppy.on('file-removed', refreshRefusals);
  uppy.on('upload-retry', refreshRefusals);
  uppy.on('retry-all', refreshRefusals);
  uppy.on('cancel-all', refreshRefusals);

  return uppy;
}

/** Uppy's own theme names: 'auto' follows the system, as the app's system theme does. */
function uppyTheme(theme: string): 'light' | 'dark' | 'auto' {
  return theme === 'dark' ? 'dark' : theme === 'light' ? 'light' : 'auto';
}

export default function UppyImageDialog({
  open,
  onOpenChange,
  onUploaded,
  maxFiles = MAX_IMAGE_FILES,
  title,
  note,
}: ImageUploadDialogProps) {
  const { theme } = useTheme();
  const { t, i18n: active } = useLingui();
  const requests = useUploadRequests();
  const id = useId();
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const handlers = useRef<Handlers>({ requests, done: () => {}, refused: () => {} });
  const [uppy, setUppy] = useState<Uppy<Meta, Body> | null>(null);
  const limit = Math.max(1, maxFiles);

  handlers.current = {
    requests,
    done: (objectPaths, allDone) => {
      if (allDone) onOpenChange(false);
      for (const path of objectPaths) onUploaded(path);
    },
    refused: setRefusals,
  };

  useEffect(() => {
    const instance = createUppy(handlers);
    setUppy(instance);
    return () => instance.destroy();
  }, []);

  // Uppy's words follow the app's language (uppy-locales.ts).
  const language = active.locale as Language;
  useEffect(() => {
    uppy?.setOptions({ locale: uppyLocale(language) });
  }, [uppy, language]);

  // The composer's free slots change as images are attached.
  useEffect(() => {
    uppy?.setOptions({ restrictions: { ...uppy.opts.restrictions, maxNumberOfFiles: limit } });
  }, [uppy, limit]);

  // Uppy's file list leaves its items' list role out (axe: aria-required-parent): give it back.
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!content) return;
    const mark = () => {
      for (const list of content.querySelectorAll('.uppy-Dashboard-files:not([role])'))
        list.setAttribute('role', 'list');
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(content, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [content]);

  const changeOpen = (next: boolean) => {
    // Closing drops what was picked and not sent, and what was refused: the next open starts empty.
    if (!next) uppy?.cancelAll();
    onOpenChange(next);
  };

  /** A paste while the focus is outside Uppy's own area (its title, the close button): Uppy takes the rest. */
  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    if (!uppy || (event.target as Element).closest?.('.uppy-Dashboard')) return;
    const files = [...event.clipboardData.files].filter((file) => IMAGE_TYPES.includes(file.type));
    if (files.length === 0) return;
    event.preventDefault();
    uppy.addFiles(
      files.map((file) => ({
        name: file.name || 'pasted-image',
        type: file.type,
        data: file,
        source: 'clipboard',
      })),
    );
  };

  const heading = title ?? (limit > 1 ? t`Upload images` : t`Upload an image`);
  const description =
    note ??
    (limit > 1
      ? t`${plural(limit, {
          one: 'Pick or paste up to # image (PNG, JPEG, GIF or WebP), up to 5 MB each',
          other: 'Pick or paste up to # images (PNG, JPEG, GIF or WebP), up to 5 MB each',
        })}`
      : t`Images only (PNG, JPEG, GIF or WebP), up to 5 MB`);

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content
          ref={setContent}
          aria-describedby={`${id}-note`}
          onPaste={onPaste}
          className="dialog-content upload-dialog fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-1.5rem)] max-w-xl -translate-x-1/2 -translate-y-1/2 grid-rows-[auto_minmax(0,1fr)_auto] gap-3 overflow-y-auto rounded-xl border bg-popover p-4 text-popover-foreground shadow-xl sm:p-5"
        >
          <div className="grid gap-1 pe-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">{heading}</Dialog.Title>
            <p id={`${id}-note`} className="text-sm text-muted-foreground">
              {description}
            </p>
          </div>
          {uppy ? (
            <Dashboard
              uppy={uppy}
              theme={uppyTheme(theme)}
              width="100%"
              height="min(24rem, calc(100dvh - 12rem))"
              proudlyDisplayPoweredByUppy={false}
              showRemoveButtonAfterComplete
              // One file in the list like several: Uppy's full-size single file leaves its
              // listitem without a list (axe: aria-required-parent).
              singleFileFullScreen={false}
              // The note is the dialog's own line above; Uppy's alert()-based details are not used.
              hideProgressDetails
            />
          ) : null}
          {refusals.length ? (
            <div
              role="alert"
              className="grid gap-1 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm"
            >
              {refusals.map((refusal) => {
                const name = refusal.name;
                return (
                  <p key={refusal.id} className="user-text flex items-start gap-2">
                    <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
                    <span>
                      <span className="font-medium">
                        <Trans>Failed to upload {name}</Trans>
                      </span>
                      : {refusal.message}
                    </span>
                  </p>
                );
              })}
            </div>
          ) : null}
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
