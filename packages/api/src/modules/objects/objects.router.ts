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
