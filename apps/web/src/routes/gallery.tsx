import { GalleryView } from '../features/gallery/gallery-view';
import { prefetchGallery } from '../features/gallery/queries';
import { useDocumentTitle } from '../lib/document-title';
import type { PageLoader } from './loader';

export const loader: PageLoader = ({ utils }) => prefetchGallery(utils);

export default function GalleryPage() {
  useDocumentTitle('Gallery');
  return (
    <div className="mx-auto w-full max-w-6xl space-y-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">AI Gallery</h1>
        <p className="text-sm text-muted-foreground">Art, music and fun made by the community with AI.</p>
      </div>
      <GalleryView />
    </div>
  );
}
