/**
 * Search's tags (tags.search): the tags starting with the query, `#` or not, most people first,
 * each a link to its page with how many posts and people. Asked only when the query could start
 * a tag; nothing is shown when no tag matches.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { tagPrefixOf } from '@cubes/api/text-links';
import { useTagSearchQuery } from './queries';
import { TagLink } from './tag-link';

export type TagMatch = RouterOutputs['tags']['search'][number];

/** The tags matching `q`: [] while none are known, or when `q` could start no tag. */
export function useTagMatches(q: string): TagMatch[] {
  const prefix = tagPrefixOf(q);
  const found = useTagSearchQuery(prefix);
  return prefix === null ? [] : (found.data ?? []);
}

/** The found tags as a list of links; the part of each name the query matched is marked. */
export function TagMatches({ tags, q }: { tags: TagMatch[]; q: string }) {
  const prefix = tagPrefixOf(q) ?? '';
  return (
    <ul className="grid gap-2 sm:grid-cols-2">
      {tags.map((t) => (
        <li key={t.tag}>
          <TagLink {...t} matched={prefix} className="rounded-lg border bg-card p-3" />
        </li>
      ))}
    </ul>
  );
}
