import { Images } from 'lucide-react';
import { PagePlaceholder } from '../components/layout/page-placeholder';
import { useDocumentTitle } from '../lib/document-title';

export default function GalleryPage() {
  useDocumentTitle('Gallery');
  return (
    <PagePlaceholder
      title="Gallery"
      icon={Images}
      description="A gallery of AI-generated art, music and fun media, with favourites, is coming soon."
    />
  );
}
