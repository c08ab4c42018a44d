/**
 * The one toast for a failed request: a destructive toast whose title says what failed (the
 * fixed words of the error catalogue where it has them, e.g. 'Failed to create post') and whose
 * description is the server's own message for a client error ('Too many requests, try again in
 * 42 seconds', 'Post not found'), or `fallback` for a server error or a lost connection.
 */
import { toast } from '../components/ui/use-toast';
import { describeError } from './error-message';

/** `title` and `fallback` come translated (`t` from '@lingui/core/macro' where the toast is raised). */
export function errorToast(title: string, error: unknown, fallback?: string) {
  const description = describeError(error, fallback);
  return { ...toast({ variant: 'destructive', title, description }), description };
}
