import { Settings } from 'lucide-react';
import { PagePlaceholder } from '../components/layout/page-placeholder';
import { RequireAuth } from '../features/auth/route-guards';
import { useDocumentTitle } from '../lib/document-title';

export default function SettingsPage() {
  useDocumentTitle('Settings');
  return (
    <RequireAuth>
      <PagePlaceholder
        title="Settings"
        icon={Settings}
        description="Profile settings, password and email changes are coming soon."
      />
    </RequireAuth>
  );
}
