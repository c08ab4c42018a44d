/**
 * What the side column holds, wide or (in Search) narrow: Who to follow and Trending tags. A
 * module of its own so that side-column.tsx loads it lazily: it is not part of the first page's
 * JavaScript (a phone never draws the column on Home).
 */
import { WhoToFollow } from '../../features/suggestions/who-to-follow';
import { TrendingTags } from '../../features/tags/trending-tags';

export default function SideColumnContent() {
  return (
    <div className="grid gap-4">
      <WhoToFollow />
      <TrendingTags className="rounded-xl border bg-card p-4 shadow-sm" />
    </div>
  );
}
