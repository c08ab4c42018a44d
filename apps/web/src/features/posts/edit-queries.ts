/**
 * Saving an edit of the author's post: every cached list shows the new text at once. Loaded with
 * the Edit dialog (edit-post-dialog.tsx), not with the first page's queries.ts: a static import of
 * queries.ts from the dialog's chunk splits the first page's chunk (rolldown/rolldown#10731).
 */

import { msg } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { errorToast } from '../../lib/error-toast';
import { i18n } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import { editedFields, patchPost } from './post-cache';

/** Saves the edit; `onSaved` runs once the lists show it. */
export function useEditPostMutation(onSaved: () => void) {
  const queryClient = useQueryClient();
  return trpc.posts.edit.useMutation({
    onSuccess: ({ post }) => {
      // The new text's @mentions and #tags link at once.
      patchPost(queryClient, post.id, editedFields(post));
      onSaved();
    },
    onError: (failure) => {
      errorToast(i18n._(msg`Failed to edit post`), failure, i18n._(msg`Please try again`));
    },
  });
}
