import { useParams } from 'react-router-dom';
import { TagView } from '../features/tags/tag-view';

/** /tags/{tag}: a tag's page, open to visitors too. */
export default function TagPage() {
  const { tag = '' } = useParams();
  // A new tag is a new page: fresh lists and state.
  return <TagView key={tag} tag={tag} />;
}
