/**
 * One item of the gallery's grid: its picture (which opens the lightbox) with a badge saying what
 * the item is, its title and creator, and its favourite heart with the count.
 */
import type { AiMediaTypeValue } from '@cubes/api/rules';
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Clapperboard, Heart, type LucideIcon, Music, Palette, Smile } from 'lucide-react';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { thumbnailUrl } from '../uploads/image-paths';
import type { GalleryItem } from './queries';

/** What each type of item is: a still picture stands for all of them, so it says which it is. */
export const TYPE_BADGES: Record<AiMediaTypeValue, { label: MessageDescriptor; icon: LucideIcon }> = {
  art: { label: msg`Art`, icon: Palette },
  music: { label: msg`Music`, icon: Music },
  fun: { label: msg`Fun`, icon: Smile },
  video: { label: msg`Video`, icon: Clapperboard },
};

/** The item's type, on its picture: not a play control (the gallery shows a picture of each item). */
function TypeBadge({ type }: { type: AiMediaTypeValue }) {
  const { i18n } = useLingui();
  const { label, icon: Icon } = TYPE_BADGES[type];
  return (
    <span className="pointer-events-none absolute top-2 start-2 inline-flex items-center gap-1 rounded-full bg-black/65 px-2 py-0.5 text-xs font-medium text-white">
      <Icon aria-hidden="true" className="size-3.5" />
      {i18n._(label)}
    </span>
  );
}

function FavoriteButton({ item, onToggle }: { item: GalleryItem; onToggle: (item: GalleryItem) => void }) {
  const { i18n, t } = useLingui();
  const title = item.title;
  const count = item.favoritesCount;
  return (
    <button
      type="button"
      aria-pressed={item.isFavorite}
      aria-label={
        item.isFavorite
          ? t`Remove ${title} from favorites, ${plural(count, { one: '# favorite', other: '# favorites' })}`
          : t`Add ${title} to favorites, ${plural(count, { one: '# favorite', other: '# favorites' })}`
      }
      onClick={() => onToggle(item)}
      className="inline-flex h-8 items-center gap-1 rounded-md px-2 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-ring"
    >
      <Heart aria-hidden="true" className={cn('size-4', item.isFavorite && 'fill-red-500 text-red-500')} />
      <span className="tabular-nums">{i18n.number(count)}</span>
    </button>
  );
}

export function GalleryCard({
  item,
  onOpen,
  onToggle,
  first = false,
}: {
  item: GalleryItem;
  onOpen: (opener: HTMLElement) => void;
  onToggle: (item: GalleryItem) => void;
  /** The top of its column, on screen at once: fetched first, not lazily (the page's LCP). */
  first?: boolean;
}) {
  const { i18n, t } = useLingui();
  const title = item.title;
  const type = i18n._(TYPE_BADGES[item.type].label);
  const name = item.creator.displayName;
  return (
    <Card className="overflow-hidden" role="article" aria-label={item.title}>
      <button
        type="button"
        onClick={(e) => onOpen(e.currentTarget)}
        aria-label={t`View ${title}, ${type}`}
        className="relative block w-full bg-muted focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
        style={{ aspectRatio: `${item.width} / ${item.height}` }}
      >
        <img
          src={thumbnailUrl(item.imageUrl)}
          alt={item.title}
          width={item.width}
          height={item.height}
          loading={first ? 'eager' : 'lazy'}
          fetchPriority={first ? 'high' : 'auto'}
          decoding="async"
          className="size-full object-cover"
        />
        <TypeBadge type={item.type} />
      </button>
      <div className="flex items-start gap-2 p-3">
        <div className="min-w-0 flex-1">
          <p className="user-text text-sm font-medium">{item.title}</p>
          <p className="text-xs text-muted-foreground">
            <Trans>by {name}</Trans>
          </p>
        </div>
        <FavoriteButton item={item} onToggle={onToggle} />
      </div>
    </Card>
  );
}
