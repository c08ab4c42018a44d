/**
 * The "you need an account" toasts (docs/web.md, "Likes and comments"), shown instead of sending
 * anything.
 */
import { toast } from '../../components/ui/use-toast';

const INTERACT = 'You need to be logged in to interact with posts';

export const loginToasts = {
  like: () => toast({ title: 'Please login to like posts', description: INTERACT, variant: 'destructive' }),
  comment: () => toast({ title: 'Please login to comment', description: INTERACT, variant: 'destructive' }),
  post: () =>
    toast({
      title: 'Please login to post',
      description: 'You need to be logged in to create posts',
      variant: 'destructive',
    }),
  follow: () =>
    toast({
      title: 'Please login to follow users',
      description: 'You need to be logged in to follow users',
      variant: 'destructive',
    }),
};
