/** Profile look-ups. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { pageInput } from '../../paging.js';
import { text } from '../../text.js';
import { languageSchema } from '../auth/auth.schema.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const byUsernameInput = z.object({
  username: text('Username', { error: ERROR_REASONS.USERNAME_REQUIRED })
    .trim()
    .min(1, ERROR_REASONS.USERNAME_REQUIRED)
    .max(100),
});
export type ByUsernameInput = z.infer<typeof byUsernameInput>;

export const userIdInput = z.object({ userId: entityIdSchema });
export type UserIdInput = z.infer<typeof userIdInput>;

export const userPostsInput = pageInput.extend({ userId: entityIdSchema });
export type UserPostsInput = z.infer<typeof userPostsInput>;

// Responses, as JSON (see post.schema.ts on response schemas).

/** The public user; `email` is null unless the viewer owns the account or it is made visible. */
export const userSchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  headerUrl: z.string().nullable(),
  emailVisible: z.boolean(),
  createdAt: z.iso.datetime(),
});

export type UserDto = z.infer<typeof userSchema>;

export const userResult = z.strictObject({ user: userSchema });
export type UserResult = z.infer<typeof userResult>;

/**
 * How a member's cards show what authors fold (their two settings): the content behind a
 * content warning, and images marked sensitive, at once (true) or after a press (false).
 */
export const viewPreferencesSchema = z.strictObject({
  alwaysShowContentWarnings: z.boolean(),
  alwaysShowSensitiveMedia: z.boolean(),
});
export type ViewPreferences = z.infer<typeof viewPreferencesSchema>;

/**
 * The signed-in member as register, login and auth.me give them: their user, whether they
 * moderate, their view preferences and their language (every answer carries them; the type lets a
 * client built before them, or a test's fixture, leave them out: both off, English).
 */
export const sessionResult = z.strictObject({
  user: userSchema,
  isModerator: z.boolean(),
  preferences: viewPreferencesSchema.optional(),
  /** The member's language (settings.language), for the web app on every device; absent: DEFAULT_LANGUAGE. */
  language: languageSchema.optional(),
});
export type SessionResult = z.infer<typeof sessionResult>;

export const userStatsSchema = z.strictObject({
  followersCount: z.int().nonnegative(),
  followingCount: z.int().nonnegative(),
  postsCount: z.int().nonnegative(),
});
export type UserStats = z.infer<typeof userStatsSchema>;

/**
 * `isFollowing`, `isBlocking` (the viewer blocked them), `isBlockedBy` (they blocked the viewer)
 * and `isMuting` are false for visitors and on one's own profile. `isSuspended`: a moderator
 * suspended them, and their posts, comments and media are out of sight until it ends. While a
 * block stands either way, or a suspension, the user's bio, e-mail, avatar and banner are null and
 * the counts 0 (users.stats answers 404 then).
 */
export const userProfileSchema = z.strictObject({
  user: userSchema,
  stats: userStatsSchema,
  isFollowing: z.boolean(),
  isBlocking: z.boolean(),
  isBlockedBy: z.boolean(),
  isMuting: z.boolean(),
  isSuspended: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;
