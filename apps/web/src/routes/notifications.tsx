/** /notifications: every notification of the member, or their mentions (the bell leads here). */
import { useLingui } from '@lingui/react/macro';
import { RequireAuth } from '../features/auth/route-guards';
import { NotificationsView } from '../features/notifications/notifications-view';
import { useDocumentTitle } from '../lib/document-title';

export default function NotificationsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Notifications`);
  return (
    <RequireAuth>
      <NotificationsView />
    </RequireAuth>
  );
}
