import { useLingui } from '@lingui/react/macro';
import { ModerationView } from '../features/moderation/moderation-view';
import { useDocumentTitle } from '../lib/document-title';

export default function ModerationPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Moderation`);
  return <ModerationView />;
}
