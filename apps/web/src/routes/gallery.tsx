import { Trans, useLingui } from '@lingui/react/macro';
import { GalleryView } from '../features/gallery/gallery-view';
import { prefetchGallery } from '../features/gallery/queries';
import { useDocumentTitle } from '../lib/document-title';
import type { PageLoader } from './loader';

export const loader: PageLoader = ({ utils }) => prefetchGallery(utils);

export default function GalleryPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Gallery`);
  return (
    <div className="mx-auto w-full max-w-6xl space-y-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">
          <Trans>AI Gallery</Trans>
        </h1>
        <p className="text-sm text-muted-foreground">
          <Trans>Art, music and fun made by the community with AI.</Trans>
        </p>
      </div>
      <GalleryView />
    </div>
  );
}
