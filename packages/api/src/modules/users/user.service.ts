/**
 * Public profiles: a user by username with their counts, their stats alone, and their posts; and
 * the one way a member sets their avatar and banner.
 */

import type { IUser } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, publishEvent, readEm, readEmUnlessOwn } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, LOGIN_REQUIRED, notFound, requireUuid, unauthorized } from '../../errors.js';
import { isObjectPath } from '../objects/objects.schema.js';
import { findOwnPublicObject } from '../objects/objects.service.js';
import { authorsOf, cachedProfileHead, type ViewerMarks } from '../posts/feed.cache.js';
import { cachedMemberMarks, MEMBER_MARKS_MAX_PER_KIND, marksAmong } from '../posts/member-marks.cache.js';
import { findMemberMarks } from '../posts/member-marks.repository.js';
import { postKeyset, viewerMarksAmong } from '../posts/post.repository.js';
import type { PostPage } from '../posts/post.schema.js';
import { findProfilePosts, findProfilePostsWithMarks } from '../posts/profile-posts.repository.js';
import { blockedEitherWay, NO_RELATIONSHIP } from '../safety/safety.service.js';
import {
  findProfileRow,
  findStanding,
  findStats,
  findUserById,
  type Standing,
  type StatsRow,
  USER_NOT_FOUND,
  userRowExists,
} from './user.repository.js';
import type { UserPostsInput, UserProfile, UserResult, UserStats } from './user.schema.js';
import { toUserDto } from './user.serializer.js';

export type { UserProfile, UserStats } from './user.schema.js';

const NO_STANDING: Standing = { ...NO_RELATIONSHIP, isFollowing: false };

/** What a profile shows of counts the viewer may not see (users.stats answers 404 then). */
const NO_STATS: UserStats = { followersCount: 0, followingCount: 0, postsCount: 0 };

function toStats(row: StatsRow): UserStats {
  return { followersCount: row.followers, followingCount: row.following, postsCount: row.posts };
}

/**
 * A profile in one statement: the user by name, their counts and where the viewer stands with
 * them. Someone else's profile is read on the read replica when there is one; where the viewer
 * stands then comes from the primary, in a second statement, as they may have just followed,
 * blocked or muted.
 */
export async function getProfile(ctx: Context, username: string): Promise<UserProfile> {
  const viewerId = ctx.session?.user.id ?? null;
  const own = ctx.session?.user.username.toLowerCase() === username.toLowerCase();
  const onReplica = !own && ctx.readReplica !== undefined;
  const row = await findProfileRow(onReplica ? readEm(ctx) : ctx.em, username, onReplica ? null : viewerId);
  if (!row) throw notFound(USER_NOT_FOUND);
  let standing: Standing = row;
  if (viewerId === null || viewerId === row.id) standing = NO_STANDING;
  else if (onReplica) {
    const fromPrimary = await findStanding(ctx.em, row.id, viewerId);
    standing = fromPrimary ?? NO_STANDING;
  }
  const dto = toUserDto(
    {
      id: row.id,
      username: row.username,
      displayName: row.display_name,
      email: row.email,
      emailVisible: row.email_visible,
      bio: row.bio,
      avatarUrl: row.avatar_url,
      headerUrl: row.header_url,
      createdAt: new Date(row.created_at),
    },
    viewerId,
  );
  // A blocked pair still find each other by name (so the blocker can undo), but no details and
  // no counts; nor does anyone see a suspended member's. The rule of users.stats, which answers
  // 404 to both (a suspended member's counts would count what is hidden).
  const walledOff = standing.blocking || standing.blockedBy || row.suspended;
  return {
    user: walledOff ? { ...dto, email: null, bio: null, avatarUrl: null, headerUrl: null } : dto,
    stats: walledOff ? NO_STATS : toStats(row),
    isFollowing: standing.isFollowing,
    isBlocking: standing.blocking,
    isBlockedBy: standing.blockedBy,
    isMuting: standing.muting,
    isSuspended: row.suspended,
  };
}

export async function getStats(ctx: Context, rawUserId: string): Promise<UserStats> {
  const userId = requireUuid(rawUserId, USER_NOT_FOUND);
  const stats = await findStats(readEmUnlessOwn(ctx, userId), userId, ctx.session?.user.id ?? null);
  if (!stats) throw notFound(USER_NOT_FOUND);
  return toStats(stats);
}

/** A block between the reader and the profile's member (`memberId`) hides the whole list, reposts included. */
function hidingAllIfMemberHidden(memberId: string, marks: ViewerMarks, authorIds: string[]): ViewerMarks {
  if (marks.hidden.has(memberId)) for (const id of authorIds) marks.hidden.add(id);
  return marks;
}

export async function listUserPosts(ctx: Context, input: UserPostsInput): Promise<PostPage> {
  const userId = requireUuid(input.userId, USER_NOT_FOUND);
  const cursor = postKeyset.decode(input.cursor);
  const viewerId = ctx.session?.user.id ?? null;
  if (cursor) {
    const em = readEmUnlessOwn(ctx, userId);
    const page = await findProfilePosts(em, { viewerId, authorId: userId, cursor, limit: input.limit });
    if (page.items.length === 0) await requireUserExists(em, userId);
    return page;
  }
  // The first page from memory (feed.cache.ts), as the feed's: read on the primary, since a write
  // drops it and a lagging replica would fill it again as it was.
  return cachedProfileHead(ctx.cacheScope, userId, input.limit, viewerId, {
    async load() {
      const page = await findProfilePosts(ctx.em, {
        viewerId: null,
        authorId: userId,
        cursor: null,
        limit: input.limit,
      });
      if (page.items.length === 0) await requireUserExists(ctx.em, userId);
      return page;
    },
    // On a profile only a block either way hides an author (a mute hides them from feeds only),
    // and a block with the profile's member hides their reposts too: the whole list.
    async viewerMarks(viewer, postIds, authorIds) {
      return hidingAllIfMemberHidden(
        userId,
        await viewerMarksAmong(ctx.em, viewer, postIds, [...authorIds, userId], 'blocks'),
        authorIds,
      );
    },
    // A reader new to a kept page: the same marks from what is kept of theirs (their likes,
    // reposts and bookmarks; their blocks), no statement. A poll on the page is marked by their
    // vote: the database is asked then, as for a member with too many marks to keep.
    async keptMarks(viewer, page) {
      if (page.items.some((p) => p.poll)) return null;
      const [kept, blocks] = await Promise.all([
        cachedMemberMarks(ctx.cacheScope, viewer, () =>
          findMemberMarks(ctx.em, viewer, MEMBER_MARKS_MAX_PER_KIND),
        ),
        blockedEitherWay(ctx, viewer),
      ]);
      if (!kept) return null;
      const authorIds = authorsOf(page);
      return hidingAllIfMemberHidden(
        userId,
        marksAmong(
          kept,
          blocks,
          page.items.map((p) => p.id),
          [...authorIds, userId],
        ),
        authorIds,
      );
    },
    // A member's miss: the page and their marks on it in one round trip.
    async loadWithMarks(viewer) {
      const read = await findProfilePostsWithMarks(ctx.em, {
        authorId: userId,
        viewerId: viewer,
        limit: input.limit,
      });
      if (read.page.items.length === 0) await requireUserExists(ctx.em, userId);
      return read;
    },
  });
}

/** Posts by them mean they exist: only an empty page asks. */
async function requireUserExists(em: EntityManager, userId: string): Promise<void> {
  if (!(await userRowExists(em, userId))) throw notFound(USER_NOT_FOUND);
}

/** A member's two profile images, by their field, with the name people know them by. */
export const PROFILE_IMAGE_LABELS = { avatarUrl: 'Profile picture', headerUrl: 'Banner' } as const;
export type ProfileImageField = keyof typeof PROFILE_IMAGE_LABELS;

/**
 * The one answer to an image reference that is not the caller's own public upload: 400 naming
 * the field. Someone else's upload, a private one and one that does not exist answer alike, so
 * the answer tells nothing about other members' files.
 */
export function notYourImage(field: ProfileImageField): string {
  return field === 'avatarUrl' ? ERROR_REASONS.AVATAR_NOT_YOURS : ERROR_REASONS.BANNER_NOT_YOURS;
}

/**
 * The one way to set the avatar and banner (`settings.update`, `users.setProfileImage` and
 * `setBannerImage`): every given image is checked before any is set; the caller flushes. An image
 * is an `/objects/` path of the caller's own public upload, or already one of their two images
 * (saving the settings form again, or swapping them); null clears. Nothing else: no URL of
 * another site, which viewers' browsers would fetch (the database refuses one too).
 */
export async function setProfileImages(
  ctx: AuthedContext,
  user: IUser,
  images: Partial<Record<ProfileImageField, string | null>>,
): Promise<void> {
  const fields = (Object.keys(PROFILE_IMAGE_LABELS) as ProfileImageField[]).filter(
    (field) => images[field] !== undefined,
  );
  for (const field of fields) {
    const value = images[field];
    if (!value) continue;
    if (!isObjectPath(value)) throw badRequest(notYourImage(field));
    if (value === user.avatarUrl || value === user.headerUrl) continue;
    if (!(await findOwnPublicObject(ctx, value))) throw badRequest(notYourImage(field));
  }
  for (const field of fields) user[field] = images[field] ?? null;
}

/** PUT /api/users/profile-image and banner-image: only the caller's own public upload. */
export async function setProfileImage(
  ctx: AuthedContext,
  field: ProfileImageField,
  objectPath: string,
): Promise<UserResult> {
  const user = await findUserById(ctx.em, ctx.session.user.id);
  if (!user) throw unauthorized(LOGIN_REQUIRED);
  await setProfileImages(ctx, user, { [field]: objectPath });
  await ctx.em.flush();
  publishEvent(ctx, 'profiles', { userId: user.id });
  return { user: toUserDto(user, user.id) };
}
