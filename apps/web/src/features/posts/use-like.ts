/**
 * Like / unlike with the optimistic flow of docs/web.md, "Likes and comments": the heart and the
 * count change at once in every cached list; a failure puts them back and says so; a success
 * refreshes the cached lists.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { loginToasts } from './login-toasts';
import { cancelPostLists, invalidatePostLists, type Post, patchPost } from './post-cache';

interface LikeVariables {
  postId: string;
  like: boolean;
  previous: Pick<Post, 'isLiked' | 'likesCount'>;
}

export function useLike() {
  const { user, status } = useAuth();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  const mutation = useMutation({
    mutationFn: ({ postId, like }: LikeVariables) =>
      like ? utils.client.posts.like.mutate({ postId }) : utils.client.posts.unlike.mutate({ postId }),
    onMutate: async ({ postId, like, previous }) => {
      const optimistic = { isLiked: like, likesCount: Math.max(0, previous.likesCount + (like ? 1 : -1)) };
      patchPost(queryClient, postId, optimistic);
      // A refetch already on its way would bring back the old state: drop it (after the flip, so
      // the flip is immediate), and patch again since a cancelled fetch reverts its query's data.
      await cancelPostLists(queryClient);
      patchPost(queryClient, postId, optimistic);
    },
    onError: (error, { postId, previous }) => {
      patchPost(queryClient, postId, previous);
      errorToast('Failed to update like', error, 'Please try again');
    },
    onSuccess: (result, { postId }) => {
      patchPost(queryClient, postId, { isLiked: result.liked, likesCount: result.likesCount });
      void invalidatePostLists(queryClient);
    },
  });

  const { mutate, isPending } = mutation;
  const toggle = useCallback(
    (post: Pick<Post, 'id' | 'isLiked' | 'likesCount'>) => {
      if (status === 'loading') return;
      if (!user) {
        loginToasts.like();
        return;
      }
      // One request per card at a time: a second tap waits for the first to settle.
      if (isPending) return;
      mutate({
        postId: post.id,
        like: !post.isLiked,
        previous: { isLiked: post.isLiked, likesCount: post.likesCount },
      });
    },
    [user, status, isPending, mutate],
  );

  return { toggle, isPending };
}
