import { MessageCircle } from 'lucide-react';
import { PagePlaceholder } from '../components/layout/page-placeholder';
import { RequireAuth } from '../features/auth/route-guards';
import { useDocumentTitle } from '../lib/document-title';

export default function ChatPage() {
  useDocumentTitle('Chat');
  return (
    <RequireAuth>
      <PagePlaceholder
        title="Chat"
        icon={MessageCircle}
        description="Direct messages with other members are coming soon."
      />
    </RequireAuth>
  );
}
