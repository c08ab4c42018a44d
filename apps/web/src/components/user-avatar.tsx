import { isDeletedUsername } from '@cubes/api/rules';
import { useMemo, useState } from 'react';
import { thumbnailUrl } from '../features/uploads/image-paths';
import { generatedAvatarUrl } from '../lib/avatar';
import { cn } from '../lib/cn';

export interface AvatarUser {
  username: string;
  displayName: string;
  avatarUrl?: string | null;
}

interface UserAvatarProps {
  user: AvatarUser;
  /** Edge length in CSS pixels. */
  size?: number;
  className?: string;
  /** Next to the visible name the picture adds nothing for screen readers: empty alt. */
  decorative?: boolean;
}

/** The user's picture, or an avatar generated from the username when there is none (or it fails to load). */
export function UserAvatar({ user, size = 40, className, decorative = false }: UserAvatarProps) {
  // A deleted account's placeholder username would draw its hex: draw "Deleted user" instead.
  const seed = isDeletedUsername(user.username) ? user.displayName : user.username;
  const generated = useMemo(() => generatedAvatarUrl(seed), [seed]);
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  // An uploaded picture is shown from its 640-px thumbnail: avatars never need the full image.
  const src = user.avatarUrl && user.avatarUrl !== brokenUrl ? thumbnailUrl(user.avatarUrl) : generated;
  return (
    <img
      src={src}
      alt={decorative ? '' : user.displayName}
      width={size}
      height={size}
      decoding="async"
      onError={() => setBrokenUrl(user.avatarUrl ?? null)}
      className={cn('shrink-0 rounded-full bg-muted object-cover', className)}
      style={{ width: size, height: size }}
    />
  );
}
