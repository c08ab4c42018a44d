import { useParams } from 'react-router-dom';
import { prefetchTag } from '../features/tags/queries';
import { TagView } from '../features/tags/tag-view';
import type { PageLoader } from './loader';

export const loader: PageLoader = ({ utils, params }) => prefetchTag(utils, params.tag ?? '');

/** /tags/{tag}: a tag's page, open to visitors too. */
export default function TagPage() {
  const { tag = '' } = useParams();
  // A new tag is a new page: fresh lists and state.
  return <TagView key={tag} tag={tag} />;
}
