/**
 * The objects procedures: uploads: a signed upload URL, and publishing what was uploaded. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (objects.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, protectedProcedure } from '../../trpc.js';
import { objectPathResult, setAclInput, uploadUrlResult } from './objects.schema.js';
import * as objects from './objects.service.js';

export const objectsRouter = createTRPCRouter({
  /** POST /api/objects/upload → {uploadURL}: a signed PUT URL for a fresh key, 15 minutes. */
  createUploadUrl: limitedProcedure('uploadUrl')
    .output(output(uploadUrlResult))
    .mutation(({ ctx }) => objects.createUploadUrl(ctx)),
  /** PUT /api/objects/set-acl {imageURL, visibility:'public'} → {objectPath}. */
  setAcl: protectedProcedure
    .input(setAclInput)
    .output(output(objectPathResult))
    .mutation(({ ctx, input }) => objects.setObjectAcl(ctx, input)),
});
