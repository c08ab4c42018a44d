import { UserRound } from 'lucide-react';
import { PagePlaceholder } from '../components/layout/page-placeholder';
import { UserAvatar } from '../components/user-avatar';
import { useAuth } from '../features/auth/auth-provider';
import { RequireAuth } from '../features/auth/route-guards';
import { useDocumentTitle } from '../lib/document-title';

function OwnProfile() {
  const { user } = useAuth();
  return (
    <PagePlaceholder
      title="Profile"
      icon={UserRound}
      description="Your banner, bio, follower counts and posts are coming soon."
    >
      {user ? (
        <div className="mt-2 flex items-center gap-3 text-left">
          <UserAvatar user={user} size={48} decorative />
          <div className="grid">
            <span className="font-semibold">{user.displayName}</span>
            <span className="text-sm text-muted-foreground">@{user.username}</span>
          </div>
        </div>
      ) : null}
    </PagePlaceholder>
  );
}

export default function ProfilePage() {
  useDocumentTitle('Profile');
  return (
    <RequireAuth>
      <OwnProfile />
    </RequireAuth>
  );
}
