import { Search } from 'lucide-react';
import { PagePlaceholder } from '../components/layout/page-placeholder';
import { useDocumentTitle } from '../lib/document-title';

export default function SearchPage() {
  useDocumentTitle('Search');
  return (
    <PagePlaceholder
      title="Search"
      icon={Search}
      description="Search for people, posts and AI media is coming soon."
    />
  );
}
