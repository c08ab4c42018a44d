import { createTRPCRouter, limitedProcedure, protectedProcedure } from '../../trpc.js';
import { setAclInput } from './objects.schema.js';
import * as objects from './objects.service.js';

export const objectsRouter = createTRPCRouter({
  /** POST /api/objects/upload → {uploadURL}: a signed PUT URL for a fresh key, 15 minutes. */
  createUploadUrl: limitedProcedure('uploadUrl').mutation(({ ctx }) => objects.createUploadUrl(ctx)),
  /** PUT /api/objects/set-acl {imageURL, visibility:'public'} → {objectPath}. */
  setAcl: protectedProcedure
    .input(setAclInput)
    .mutation(({ ctx, input }) => objects.setObjectAcl(ctx, input)),
});
