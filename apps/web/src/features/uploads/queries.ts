/**
 * The upload's two requests, made by Uppy outside React (uppy-image-dialog.tsx): a signed URL to
 * put one file's bytes at (objects.createUploadUrl), then making the uploaded image public, which
 * answers its object path (objects.setAcl). Nothing is cached.
 */
import { trpc } from '../../lib/trpc';

export interface UploadRequests {
  createUploadUrl: () => Promise<{ uploadURL: string }>;
  makePublic: (imageURL: string) => Promise<{ objectPath: string }>;
}

export function useUploadRequests(): UploadRequests {
  const { client } = trpc.useUtils();
  return {
    createUploadUrl: () => client.objects.createUploadUrl.mutate(),
    makePublic: (imageURL) => client.objects.setAcl.mutate({ imageURL, visibility: 'public' }),
  };
}
