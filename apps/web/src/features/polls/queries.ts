/**
 * Polls' queries: a vote. Its answer is the poll as the voter now sees it (with the results), put
 * into every cached copy of the post. A visitor is asked to log in and nothing is sent; a failure
 * says so in the error toast (an ended poll: 'This poll has ended', and the post loads again).
 */
import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { patchPost } from '../posts/post-cache';

export const voteLoginToast = () =>
  toast({
    title: t`Please login to vote`,
    description: t`You need to be logged in to interact with posts`,
    variant: 'destructive',
  });

export function useVote(postId: string) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const mutation = trpc.polls.vote.useMutation({
    onSuccess: ({ poll }) => patchPost(queryClient, postId, { poll }),
    onError: (error) => {
      errorToast(t`Failed to vote`, error, t`Please try again`);
      // Ended, voted elsewhere, or gone: show the poll as it is now.
      utils.posts.byId
        .fetch({ postId }, { staleTime: 0 })
        .then(({ post }) => patchPost(queryClient, postId, { poll: post.poll }))
        .catch(() => {});
    },
  });
  const vote = (choices: number[]) => {
    if (!user) {
      voteLoginToast();
      return;
    }
    mutation.mutate({ postId, choices });
  };
  return { vote, isPending: mutation.isPending };
}
