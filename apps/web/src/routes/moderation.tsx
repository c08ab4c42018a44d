import { ModerationView } from '../features/moderation/moderation-view';
import { useDocumentTitle } from '../lib/document-title';

export default function ModerationPage() {
  useDocumentTitle('Moderation');
  return <ModerationView />;
}
