/** Share a post: the system share sheet where there is one, else copy its link, its page's absolute address. */
import { msg } from '@lingui/core/macro';
import { toast } from '../../components/ui/use-toast';
import { i18n } from '../../lib/i18n';
import { postPath } from './post-path';

export function postUrl(postId: string): string {
  return `${window.location.origin}${postPath(postId)}`;
}

export async function sharePost(post: { id: string; userDisplayName: string }): Promise<void> {
  const url = postUrl(post.id);
  const name = post.userDisplayName;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: i18n._(msg`Post by ${name} on Cubes AI`), url });
      return;
    } catch (error) {
      // The user closed the sheet: nothing to say. Anything else falls back to copying.
      if (error instanceof DOMException && error.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: i18n._(msg`Link copied`), description: url });
  } catch {
    toast({ title: i18n._(msg`Could not copy the link`), description: url, variant: 'destructive' });
  }
}
