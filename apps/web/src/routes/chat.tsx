import { useLingui } from '@lingui/react/macro';
import { readLastMember } from '../features/auth/last-member';
import { RequireAuth } from '../features/auth/route-guards';
import { prefetchChat } from '../features/messages/chat-queries';
import { ChatView } from '../features/messages/chat-view';
import { useDocumentTitle } from '../lib/document-title';
import type { PageLoader } from './loader';

/**
 * Only for a member (a member's shell, or where this device knows one): a visitor's page goes to
 * /auth, and would ask in vain.
 */
export const loader: PageLoader = async ({ utils, search, member }) => {
  if (!member && !readLastMember()) return;
  await prefetchChat(utils, search.get('user')?.toLowerCase() || null);
};

export default function ChatPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Chat`);
  return (
    <RequireAuth>
      <ChatView />
    </RequireAuth>
  );
}
