/** The Quote action on a post card: opens the quote dialog (loaded on first use); visitors are asked to log in. */
import { useLingui } from '@lingui/react/macro';
import { MessageSquareQuote } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useAuth } from '../auth/auth-provider';
import type { Post } from '../posts/post-cache';
import { quoteLoginToast } from './queries';

const QuoteDialog = lazy(() => import('./quote-dialog'));

export function QuoteButton({ post, className }: { post: Post; className: string }) {
  const { user, status } = useAuth();
  const [open, setOpen] = useState(false);
  const { t } = useLingui();
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={t`Quote`}
        title={t`Quote`}
        aria-haspopup="dialog"
        onClick={() => {
          if (status === 'loading') return;
          if (!user) quoteLoginToast();
          else setOpen(true);
        }}
      >
        <MessageSquareQuote aria-hidden="true" />
      </button>
      {open ? (
        <Suspense fallback={null}>
          <QuoteDialog post={post} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
