/**
 * Publishing a post from the composer: it tops the cached feed and the author's profile reloads.
 * Loaded with the composer (composer.tsx), not with the first page's queries.ts: a static import
 * of queries.ts from the composer's chunk splits the first page's chunk (rolldown/rolldown#10731).
 */

import { msg } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { errorToast } from '../../lib/error-toast';
import { i18n } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import { prependToFeed } from './post-cache';

/** Publishes a post; `onCreated` runs once it is in the feed. */
export function useCreatePostMutation(onCreated: () => void) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return trpc.posts.create.useMutation({
    onSuccess: ({ post }) => {
      prependToFeed(queryClient, post);
      // Profile counts and lists of the author are out of date now.
      void utils.users.invalidate();
      onCreated();
    },
    onError: (error) => {
      errorToast(i18n._(msg`Failed to create post`), error, i18n._(msg`Please try again`));
    },
  });
}
