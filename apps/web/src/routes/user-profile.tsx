import { UserRound } from 'lucide-react';
import { useParams } from 'react-router-dom';
import { PagePlaceholder } from '../components/layout/page-placeholder';
import { useDocumentTitle } from '../lib/document-title';

export default function UserProfilePage() {
  const { username = '' } = useParams();
  useDocumentTitle(`@${username}`);
  return (
    <PagePlaceholder
      title={`@${username}`}
      icon={UserRound}
      description="Member profiles with posts, followers and a Follow button are coming soon."
    />
  );
}
