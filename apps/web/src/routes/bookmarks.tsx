/** /bookmarks: the logged-in member's bookmarked posts (the avatar menu links here). */
import { Trans, useLingui } from '@lingui/react/macro';
import { RequireAuth } from '../features/auth/route-guards';
import { BookmarksView } from '../features/bookmarks/bookmarks-view';
import { prefetchBookmarks } from '../features/bookmarks/queries';
import { useDocumentTitle } from '../lib/document-title';
import { memberLoader } from './loader';

export const loader = memberLoader(({ utils }) => prefetchBookmarks(utils));

export default function BookmarksPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Bookmarks`);
  return (
    <RequireAuth>
      <div className="mx-auto grid w-full max-w-2xl gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">
            <Trans>Bookmarks</Trans>
          </h1>
          <p className="text-sm text-muted-foreground">
            <Trans>Posts you kept for later. Only you can see them.</Trans>
          </p>
        </div>
        <BookmarksView />
      </div>
    </RequireAuth>
  );
}
