import { WithSideColumn } from '../components/shell/side-column';
import { useAuth } from '../features/auth/auth-provider';
import { RequireAuth } from '../features/auth/route-guards';
import { ProfileView } from '../features/profile/profile-view';
import { prefetchProfile } from '../features/profile/queries';
import { memberLoader } from './loader';

/** The member's own profile. */
export const loader = memberLoader(({ utils }, session) => prefetchProfile(utils, session.user.username));

function OwnProfile() {
  const { user } = useAuth();
  return user ? (
    <WithSideColumn>
      <ProfileView username={user.username} />
    </WithSideColumn>
  ) : null;
}

/** /profile: the logged-in user's own profile. */
export default function ProfilePage() {
  return (
    <RequireAuth>
      <OwnProfile />
    </RequireAuth>
  );
}
