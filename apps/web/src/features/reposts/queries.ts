/**
 * Repost / take back (useRepost), with the same optimistic flow as a like (useLikeMutation in
 * posts/queries.ts): the mark and count change at once in every cached list, a failure puts them
 * back and says so, a success sets the server's count and refreshes the lists (a repost moves the
 * post to the top of the Following feed and the member's profile). A visitor is asked to log in.
 */
import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { cancelPostLists, invalidatePostLists, type Post, patchPost } from '../posts/post-cache';

interface RepostVariables {
  postId: string;
  repost: boolean;
  previous: Pick<Post, 'isReposted' | 'repostsCount'>;
}

export const repostLoginToast = () =>
  toast({
    title: t`Please login to repost posts`,
    description: t`You need to be logged in to interact with posts`,
    variant: 'destructive',
  });

export const quoteLoginToast = () =>
  toast({
    title: t`Please login to quote posts`,
    description: t`You need to be logged in to interact with posts`,
    variant: 'destructive',
  });

export function useRepost() {
  const { user, status } = useAuth();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  const mutation = useMutation({
    mutationFn: ({ postId, repost }: RepostVariables) =>
      repost ? utils.client.reposts.add.mutate({ postId }) : utils.client.reposts.remove.mutate({ postId }),
    onMutate: async ({ postId, repost, previous }) => {
      const optimistic = {
        isReposted: repost,
        repostsCount: Math.max(0, previous.repostsCount + (repost ? 1 : -1)),
      };
      patchPost(queryClient, postId, optimistic);
      // As with likes: a refetch on its way would bring the old state back.
      await cancelPostLists(queryClient);
      patchPost(queryClient, postId, optimistic);
    },
    onError: (error, { postId, previous }) => {
      patchPost(queryClient, postId, previous);
      errorToast(t`Failed to update repost`, error, t`Please try again`);
    },
    onSuccess: (result, { postId }) => {
      patchPost(queryClient, postId, { isReposted: result.reposted, repostsCount: result.repostsCount });
      void invalidatePostLists(queryClient);
    },
  });

  const { mutate, isPending } = mutation;
  const toggle = useCallback(
    (post: Pick<Post, 'id' | 'isReposted' | 'repostsCount'>) => {
      if (status === 'loading') return;
      if (!user) {
        repostLoginToast();
        return;
      }
      // One request per card at a time: a second tap waits for the first to settle.
      if (isPending) return;
      mutate({
        postId: post.id,
        repost: !post.isReposted,
        previous: { isReposted: post.isReposted, repostsCount: post.repostsCount },
      });
    },
    [user, status, isPending, mutate],
  );

  return { toggle, isPending };
}
