/**
 * The gallery's lightbox: one item at full size, its type, creator and place in the filter
 * ("3 of 45"), the arrows (the next page loads past the last item loaded) and its heart.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Heart } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Lightbox, LightboxStep, stepIndex } from '../../components/lightbox';
import { cn } from '../../lib/cn';
import { TYPE_BADGES } from './gallery-card';
import type { GalleryItem } from './queries';

export function GalleryLightbox({
  items,
  total,
  index,
  onIndex,
  onClose,
  onToggle,
  returnFocus,
  hasNextPage,
  fetchNextPage,
}: {
  items: GalleryItem[];
  /** how many items the gallery has for this filter (its stats): the "3 of 45" */
  total: number;
  index: number | null;
  onIndex: (index: number) => void;
  onClose: () => void;
  onToggle: (item: GalleryItem) => void;
  /** The button that opened it: focus goes back there on closing, without scrolling the page. */
  returnFocus: () => HTMLElement | null;
  hasNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}) {
  const { i18n, t } = useLingui();
  const item = index === null ? undefined : items[index];
  if (!item || index === null) return null;
  // Past the last loaded item the next page loads, so every item of the filter can be reached.
  const move = (by: -1 | 1) => {
    const next = index + by;
    if (next >= items.length && hasNextPage) {
      void fetchNextPage().then(() => onIndex(next));
      return;
    }
    if (next < 0 && hasNextPage) return;
    onIndex(stepIndex(index, by, items.length));
  };
  const badge = TYPE_BADGES[item.type];
  const type = i18n._(badge.label);
  const name = item.creator.displayName;
  const position = i18n.number(index + 1);
  const shownTotal = Math.max(total, items.length);
  const totalCount = i18n.number(shownTotal);
  const count = item.favoritesCount;
  return (
    <Lightbox
      count={shownTotal}
      onStep={move}
      onClose={onClose}
      returnFocus={returnFocus}
      className="dialog-content"
    >
      <Dialog.Title className="max-w-full text-center text-lg font-semibold text-white user-text">
        {item.title}
      </Dialog.Title>
      <Dialog.Description className="flex items-center gap-1.5 text-sm text-white/75">
        <badge.icon aria-hidden="true" className="size-4" />
        <Trans>
          {type} by {name} · {position} of {totalCount}
        </Trans>
      </Dialog.Description>
      <img
        src={item.imageUrl}
        alt={item.title}
        width={item.width}
        height={item.height}
        className="max-h-[calc(100dvh-10rem)] w-auto max-w-full rounded-lg object-contain shadow-2xl"
      />
      <div className="flex items-center gap-2 rounded-full bg-black/60 px-2 text-white">
        <LightboxStep by={-1} label={t`Previous`} onStep={move} place="bar" />
        <button
          type="button"
          aria-pressed={item.isFavorite}
          aria-label={
            item.isFavorite
              ? t`Remove from favorites, ${plural(count, { one: '# favorite', other: '# favorites' })}`
              : t`Add to favorites, ${plural(count, { one: '# favorite', other: '# favorites' })}`
          }
          onClick={() => onToggle(item)}
          className="inline-flex h-9 items-center gap-1 rounded-full px-3 hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-white"
        >
          <Heart
            aria-hidden="true"
            className={cn('size-4', item.isFavorite && 'fill-red-500 text-red-500')}
          />
          <span className="tabular-nums">{i18n.number(count)}</span>
        </button>
        <LightboxStep by={1} label={t`Next`} onStep={move} place="bar" />
      </div>
    </Lightbox>
  );
}
