import { useAuth } from '../features/auth/auth-provider';
import { RequireAuth } from '../features/auth/route-guards';
import { ProfileView } from '../features/profile/profile-view';

function OwnProfile() {
  const { user } = useAuth();
  return user ? <ProfileView username={user.username} /> : null;
}

/** /profile: the logged-in user's own profile. */
export default function ProfilePage() {
  return (
    <RequireAuth>
      <OwnProfile />
    </RequireAuth>
  );
}
