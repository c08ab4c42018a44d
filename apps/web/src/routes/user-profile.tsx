import { useParams } from 'react-router-dom';
import { WithSideColumn } from '../components/shell/side-column';
import { ProfileView, UserNotFound } from '../features/profile/profile-view';
import { prefetchProfile } from '../features/profile/queries';
import type { PageLoader } from './loader';

export const loader: PageLoader = ({ utils, params }) =>
  prefetchProfile(utils, (params.username ?? '').trim());

/** /profile/{username}: anyone's profile, open to visitors too. */
export default function UserProfilePage() {
  const { username = '' } = useParams();
  const name = username.trim();
  if (!name) return <UserNotFound />;
  // A new username is a new page: fresh tabs and state.
  return (
    <WithSideColumn>
      <ProfileView key={name.toLowerCase()} username={name} />
    </WithSideColumn>
  );
}
