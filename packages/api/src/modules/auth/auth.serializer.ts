/**
 * The signed-in member as register, login, auth.me and the settings answers carry them: their own
 * user (e-mail shown), whether they moderate (the web app shows the way to /moderation only to
 * them; the procedures check for themselves), their view preferences and their language (the web
 * app speaks it on every device the member signs in on).
 */
import { type IUser, isModeratorRole } from '@cubes/db';
import type { SessionResult, UserDto } from '../users/user.schema.js';
import { toUserDto, type UserDtoSource } from '../users/user.serializer.js';

export function ownUser(user: UserDtoSource): UserDto {
  return toUserDto(user, user.id);
}

export function sessionResultFor(
  user: UserDtoSource &
    Pick<IUser, 'role' | 'alwaysShowContentWarnings' | 'alwaysShowSensitiveMedia' | 'language'>,
): SessionResult {
  return {
    user: ownUser(user),
    isModerator: isModeratorRole(user.role),
    preferences: {
      alwaysShowContentWarnings: user.alwaysShowContentWarnings,
      alwaysShowSensitiveMedia: user.alwaysShowSensitiveMedia,
    },
    language: user.language,
  };
}
