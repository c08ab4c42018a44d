/** The cards of a search answer: users, posts and AI media, with the matched words marked. */
import type { RouterOutputs } from '@cubes/api/client';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Card } from '../../components/ui/card';
import { UserAvatar } from '../../components/user-avatar';
import { MarkedText } from '../../lib/mark-words';
import { FollowButton } from '../follows/follow-button';
import { TYPE_BADGES } from '../gallery/gallery-card';
import { usePostCard } from '../posts/post-card-slot';
import { thumbnailUrl } from '../uploads/image-paths';
import { Highlight } from './highlight';

export type SearchAnswer = RouterOutputs['search']['query'];
export type SearchUser = SearchAnswer['users'][number];
export type SearchPost = SearchAnswer['posts'][number];
export type SearchMedia = SearchAnswer['aiMedia'][number];

export function UserResult({ user }: { user: SearchUser }) {
  const { t } = useLingui();
  const [followers, setFollowers] = useState(user.followersCount);
  return (
    <Card className="flex items-start gap-3 p-4" aria-label={user.displayName} role="article">
      <Link to={`/profile/${user.username}`} className="shrink-0" tabIndex={-1} aria-hidden="true">
        <UserAvatar user={user} size={48} decorative />
      </Link>
      <div className="min-w-0 flex-1">
        <Link
          to={`/profile/${user.username}`}
          className="block font-semibold hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          <Highlight text={user.displayName} words={user.highlights} />
        </Link>
        <p className="text-sm text-muted-foreground">
          @<Highlight text={user.username} words={user.highlights} />
        </p>
        <p className="user-text mt-1 line-clamp-2 text-sm">{user.bio || t`Member of Cubes AI`}</p>
        <p className="mt-1 text-xs text-muted-foreground">
          <Plural value={followers} one="# follower" other="# followers" />
        </p>
      </div>
      <FollowButton
        userId={user.id}
        displayName={user.displayName}
        isFollowing={user.isFollowing}
        followersCount={followers}
        onCountChange={setFollowers}
      />
    </Card>
  );
}

/**
 * A post found: the feed's own card (open, like, comment, share, its #tags and @mentions linked),
 * with the words the search matched marked in its text.
 */
export function PostResult({ post }: { post: SearchPost }) {
  const PostCard = usePostCard();
  return <PostCard post={post} markText={(text) => <MarkedText text={text} words={post.highlights} />} />;
}

export function MediaResult({ media }: { media: SearchMedia }) {
  const { i18n } = useLingui();
  const type = i18n._(TYPE_BADGES[media.type].label);
  const name = media.creator.displayName;
  return (
    <Card className="overflow-hidden" role="article" aria-label={media.title}>
      <img
        src={thumbnailUrl(media.imageUrl)}
        alt={media.title}
        loading="lazy"
        width={media.width}
        height={media.height}
        style={{ aspectRatio: `${media.width} / ${media.height}` }}
        className="block h-auto w-full bg-muted object-cover"
      />
      <div className="p-3">
        <p className="text-sm font-medium">
          <Highlight text={media.title} words={media.highlights} />
        </p>
        <p className="text-xs text-muted-foreground">
          <Trans>
            {type} · by {name}
          </Trans>
        </p>
      </div>
    </Card>
  );
}
