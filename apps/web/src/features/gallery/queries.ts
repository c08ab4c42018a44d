/**
 * The gallery's queries: the list (its key, the hook and the page's loader, routes/gallery.tsx)
 * and favourite's optimistic update of it.
 *
 * Favourite / unfavourite a gallery item: the heart and the count flip at once in every cached
 * gallery page, go back on failure with 'Failed to update favorite', and take the server's count
 * on success. A visitor is asked to log in and nothing is sent.
 */
import type { RouterInputs, RouterOutputs } from '@cubes/api/client';
import { msg } from '@lingui/core/macro';
import {
  type InfiniteData,
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useCallback } from 'react';
import { toast } from '../../components/ui/use-toast';
import { i18n } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { useAuth } from '../auth/auth-provider';

export type GalleryItem = RouterOutputs['gallery']['list']['items'][number];
type State = Pick<GalleryItem, 'isFavorite' | 'favoritesCount'>;

export function useFavoriteMutation() {
  const { user, status } = useAuth();
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();

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
      setItem(queryClient, id, optimistic);
      // A refetch on its way (the 30 s poll) would bring the old state back: drop it, and patch
      // again since a cancelled fetch reverts its query's data.
      await utils.gallery.list.cancel();
      setItem(queryClient, id, optimistic);
    },
    onError: (_error, { id, previous }) => {
      setItem(queryClient, id, previous);
      toast({
        variant: 'destructive',
        title: i18n._(msg`Failed to update favorite`),
        description: i18n._(msg`Please try again`),
      });
    },
    onSuccess: (result, { id }) => {
      setItem(queryClient, id, { isFavorite: result.favorited, favoritesCount: result.favoritesCount });
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
          title: i18n._(msg`Please login to favorite items`),
          description: i18n._(msg`You need to be logged in to save favorites`),
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

type GalleryPage = RouterOutputs['gallery']['list'];

/** Patches item `id` in every cached gallery list (any type choice, any text filter). */
function setItem(queryClient: QueryClient, id: string, state: State) {
  queryClient.setQueriesData<InfiniteData<GalleryPage>>(
    { queryKey: getQueryKey(trpc.gallery.list, undefined, 'infinite') },
    (data) =>
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

export const GALLERY_PAGE = 24;
export const GALLERY_POLL_MS = 30_000;

export type GalleryType = NonNullable<Exclude<RouterInputs['gallery']['list'], void>>['type'] & string;

const listInput = (type: GalleryType, q: string) => ({ type, limit: GALLERY_PAGE, ...(q ? { q } : {}) });

/**
 * The gallery of one type, filtered by `q` on the server, newest first; polled. A new filter
 * keeps the previous answer on screen until its own arrives.
 */
export function useGalleryQuery(type: GalleryType, q: string) {
  return trpc.gallery.list.useInfiniteQuery(listInput(type, q), {
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: GALLERY_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/** The gallery page's first data: all types, unfiltered, the first page. */
export async function prefetchGallery(utils: QueryUtils): Promise<void> {
  await utils.gallery.list.prefetchInfinite(listInput('all', ''));
}
