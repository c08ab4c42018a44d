/**
 * The feed's PostCard, handed to pages that load later (search's results) through context, so
 * their chunks do not import it. Rolldown keeps a module the first chunk holds in that chunk when
 * a later page imports it, but not PostCard (it imports chunks by `import()` itself, and the merge
 * would make chunks depend on each other in a circle): a static import from search's chunk split
 * the first chunk into 26 files, 151 → 160 KB Brotli, past the first page's budget
 * (rolldown/rolldown#10731). AppProviders (app.tsx) provides it.
 */
import { type ComponentType, createContext, useContext } from 'react';
import type { PostCardProps } from './post-card';

export const PostCardSlot = createContext<ComponentType<PostCardProps> | null>(null);

/** The PostCard AppProviders provides. */
export function usePostCard(): ComponentType<PostCardProps> {
  const Card = useContext(PostCardSlot);
  if (!Card) throw new Error('usePostCard: no PostCardSlot above (AppProviders provides it)');
  return Card;
}
