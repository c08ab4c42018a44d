import { RequireAuth } from '../features/auth/route-guards';
import { ChatView } from '../features/messages/chat-view';
import { useDocumentTitle } from '../lib/document-title';

export default function ChatPage() {
  useDocumentTitle('Chat');
  return (
    <RequireAuth>
      <ChatView />
    </RequireAuth>
  );
}
