/**
 * The "you need an account" toasts (docs/web.md, "Likes and comments"), shown instead of sending
 * anything. Fired from event handlers, so they read the app's i18n, in the active language.
 */
import { msg } from '@lingui/core/macro';
import { toast } from '../../components/ui/use-toast';
import { i18n } from '../../lib/i18n';

const INTERACT = msg`You need to be logged in to interact with posts`;

export const loginToasts = {
  like: () =>
    toast({
      title: i18n._(msg`Please login to like posts`),
      description: i18n._(INTERACT),
      variant: 'destructive',
    }),
  comment: () =>
    toast({
      title: i18n._(msg`Please login to comment`),
      description: i18n._(INTERACT),
      variant: 'destructive',
    }),
  post: () =>
    toast({
      title: i18n._(msg`Please login to post`),
      description: i18n._(msg`You need to be logged in to create posts`),
      variant: 'destructive',
    }),
  follow: () =>
    toast({
      title: i18n._(msg`Please login to follow users`),
      description: i18n._(msg`You need to be logged in to follow users`),
      variant: 'destructive',
    }),
};
