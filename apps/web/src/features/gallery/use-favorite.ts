/**
 * Favourite / unfavourite a gallery item: the heart and the count flip at once in every cached
 * gallery page, go back on failure with 'Failed to update favorite', and take the server's count
 * on success. A visitor is asked to log in and nothing is sent.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { useMutation } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toast } from '../../components/ui/use-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';

export type GalleryItem = RouterOutputs['gallery']['list']['items'][number];
type State = Pick<GalleryItem, 'isFavorite' | 'favoritesCount'>;

export function useFavorite() {
  const { user, status } = useAuth();
  const utils = trpc.useUtils();

  const mutation = useMutation({
    mutationFn: ({ id, favorite }: { id: string; favorite: boolean; previous: State }) =>
      favorite
        ? utils.client.gallery.favorite.mutate({ mediaId: id })
        : utils.client.gallery.unfavorite.mutate({ mediaId: id }),
    onMutate: async ({ id, favorite, previous }) => {
      const optimistic = {
        isFavorite: favorite,
        favoritesCount: Math.max(0, previous.favoritesCount + (favorite ? 1 : -1)),
      };
      setItem(utils, id, optimistic);
      // A refetch on its way (the 30 s poll) would bring the old state back: drop it, and patch
      // again since a cancelled fetch reverts its query's data.
      await utils.gallery.list.cancel();
      setItem(utils, id, optimistic);
    },
    onError: (_error, { id, previous }) => {
      setItem(utils, id, previous);
      toast({ variant: 'destructive', title: 'Failed to update favorite', description: 'Please try again' });
    },
    onSuccess: (result, { id }) => {
      setItem(utils, id, { isFavorite: result.favorited, favoritesCount: result.favoritesCount });
      void utils.gallery.favorites.invalidate();
    },
  });

  const { mutate } = mutation;
  const toggle = useCallback(
    (item: Pick<GalleryItem, 'id' | 'isFavorite' | 'favoritesCount'>) => {
      if (status === 'loading') return;
      if (!user) {
        toast({
          variant: 'destructive',
          title: 'Please login to favorite items',
          description: 'You need to be logged in to save favorites',
        });
        return;
      }
      mutate({
        id: item.id,
        favorite: !item.isFavorite,
        previous: { isFavorite: item.isFavorite, favoritesCount: item.favoritesCount },
      });
    },
    [user, status, mutate],
  );
  return { toggle };
}

type Utils = ReturnType<typeof trpc.useUtils>;

/** Patches item `id` in every cached gallery list (any type filter). */
function setItem(utils: Utils, id: string, state: State) {
  const client = utils.gallery.list;
  for (const type of ['all', 'art', 'music', 'fun', 'video'] as const) {
    client.setInfiniteData({ type, limit: GALLERY_PAGE }, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.map((item) => (item.id === id ? { ...item, ...state } : item)),
            })),
          }
        : data,
    );
  }
}

export const GALLERY_PAGE = 24;
