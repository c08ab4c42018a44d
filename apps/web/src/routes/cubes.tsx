import { Boxes } from 'lucide-react';
import { PagePlaceholder } from '../components/layout/page-placeholder';
import { useDocumentTitle } from '../lib/document-title';

export default function CubesPage() {
  useDocumentTitle('Cubes');
  return (
    <PagePlaceholder
      title="Cubes"
      icon={Boxes}
      description="AI tools in four categories (Cubes, Social AI, VIP and Cube3), starting with Chat with Cubey, are coming soon."
    />
  );
}
