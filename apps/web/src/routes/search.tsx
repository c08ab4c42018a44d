import { Trans, useLingui } from '@lingui/react/macro';
import { WithSideColumn } from '../components/shell/side-column';
import { prefetchSearch } from '../features/search/queries';
import { SearchView } from '../features/search/search-view';
import { useDocumentTitle } from '../lib/document-title';
import type { PageLoader } from './loader';

export const loader: PageLoader = ({ utils, search }) => prefetchSearch(utils, search.get('q') ?? '');

export default function SearchPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Search`);
  return (
    <WithSideColumn>
      <div className="mx-auto w-full max-w-3xl space-y-4">
        <h1 className="text-2xl font-bold tracking-tight">
          <Trans>Search</Trans>
        </h1>
        <SearchView />
      </div>
    </WithSideColumn>
  );
}
