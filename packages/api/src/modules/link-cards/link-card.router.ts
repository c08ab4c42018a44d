/**
 * The link cards procedure: the author takes the card off their post. Cards themselves arrive in
 * post answers (`linkCard`), built by a job (link-card.service.ts).
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure } from '../../trpc.js';
import { postIdInput } from '../posts/post.schema.js';
import { removeLinkCardResult } from './link-card.schema.js';
import * as linkCards from './link-card.service.js';

export const linkCardsRouter = createTRPCRouter({
  /** DELETE /api/posts/:postId/link-card → {ok: true}; 404 for another member's post. */
  remove: limitedProcedure('react')
    .input(postIdInput)
    .output(output(removeLinkCardResult))
    .mutation(({ ctx, input }) => linkCards.removeLinkCard(ctx, input.postId)),
});
