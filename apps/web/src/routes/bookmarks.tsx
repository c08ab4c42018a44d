/** /bookmarks: the logged-in member's bookmarked posts (the avatar menu links here). */
import { RequireAuth } from '../features/auth/route-guards';
import { BookmarksView } from '../features/bookmarks/bookmarks-view';
import { useDocumentTitle } from '../lib/document-title';

export default function BookmarksPage() {
  useDocumentTitle('Bookmarks');
  return (
    <RequireAuth>
      <div className="mx-auto grid w-full max-w-2xl gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Bookmarks</h1>
          <p className="text-sm text-muted-foreground">Posts you kept for later. Only you can see them.</p>
        </div>
        <BookmarksView />
      </div>
    </RequireAuth>
  );
}
