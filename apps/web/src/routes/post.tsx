import { useParams } from 'react-router-dom';
import { PostPage } from '../features/posts/post-page';
import { prefetchPostPage } from '../features/posts/post-page-queries';
import type { PageLoader } from './loader';

export const loader: PageLoader = ({ utils, params }) => prefetchPostPage(utils, (params.id ?? '').trim());

/** /posts/{id}: a post's own page, its permalink; open to visitors too. */
export default function PostRoute() {
  const { id = '' } = useParams();
  const postId = id.trim();
  // Another post is another page: fresh state (the thread's paging, the lightbox).
  return <PostPage key={postId} postId={postId} />;
}
