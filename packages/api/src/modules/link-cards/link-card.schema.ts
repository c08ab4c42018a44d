/**
 * Link cards: the card a post answer carries, and the answer of a removal (its input is posts'
 * postIdInput; this file imports nothing of posts, which import it).
 */
import { z } from 'zod';

/**
 * A post's link card: the page's title, description and site name as it gave them (cleaned and
 * capped), and its image as our own re-encoded copy under /objects/ (null when it had none, or
 * none that decoded). Viewers' browsers never load the page's own image.
 */
export const linkCardSchema = z.strictObject({
  url: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  siteName: z.string().nullable(),
  imageUrl: z.string().nullable(),
});
export type LinkCard = z.infer<typeof linkCardSchema>;

export const removeLinkCardResult = z.strictObject({ ok: z.literal(true) });
