/**
 * Link cards' one write: the author removes their post's card. It leaves every cached list at
 * once; a failure puts it back and says so.
 */
import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { cancelPostLists, type Post, patchPost } from '../posts/post-cache';

export function useRemoveLinkCard() {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  return useMutation({
    mutationFn: (post: Pick<Post, 'id' | 'linkCard'>) =>
      utils.client.linkCards.remove.mutate({ postId: post.id }),
    onMutate: async (post) => {
      await cancelPostLists(queryClient);
      patchPost(queryClient, post.id, { linkCard: null });
    },
    onError: (error, post) => {
      patchPost(queryClient, post.id, { linkCard: post.linkCard });
      errorToast(t`Failed to remove the preview`, error, t`Please try again`);
    },
  });
}
