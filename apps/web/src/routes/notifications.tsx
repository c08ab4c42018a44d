/** /notifications: every notification of the member, or their mentions (the bell leads here). */
import { useLingui } from '@lingui/react/macro';
import { RequireAuth } from '../features/auth/route-guards';
import { prefetchNotificationsPage } from '../features/notifications/list-queries';
import {
  filterOf,
  NOTIFICATIONS_PAGE_SIZE,
  NotificationsView,
} from '../features/notifications/notifications-view';
import { useDocumentTitle } from '../lib/document-title';
import { memberLoader } from './loader';

export const loader = memberLoader(({ utils, search }) =>
  prefetchNotificationsPage(utils, filterOf(search.get('filter')), NOTIFICATIONS_PAGE_SIZE),
);

export default function NotificationsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Notifications`);
  return (
    <RequireAuth>
      <NotificationsView />
    </RequireAuth>
  );
}
