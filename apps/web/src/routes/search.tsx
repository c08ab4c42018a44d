import { WithSideColumn } from '../components/layout/side-column';
import { SearchView } from '../features/search/search-view';
import { useDocumentTitle } from '../lib/document-title';

export default function SearchPage() {
  useDocumentTitle('Search');
  return (
    <WithSideColumn>
      <div className="mx-auto w-full max-w-3xl space-y-4">
        <h1 className="text-2xl font-bold tracking-tight">Search</h1>
        <SearchView />
      </div>
    </WithSideColumn>
  );
}
