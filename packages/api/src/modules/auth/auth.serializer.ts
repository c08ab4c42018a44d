/**
 * The signed-in member as register, login, auth.me and the settings answers carry them: their own
 * user (e-mail shown), and whether they moderate (the web app shows the way to /moderation only to
 * them; the procedures check for themselves).
 */
import { type IUser, isModeratorRole } from '@cubes/db';
import { toUserDto, type UserDto, type UserDtoSource } from '../users/user.serializer.js';

// These answers still carry `createdAt` as a Date (users/user.serializer.ts's UserDto), where
// `sessionResult` and `userResult` say ISO text: their procedures declare `.output` once UserDto
// follows the schema.
export interface SessionResult {
  user: UserDto;
  isModerator: boolean;
}
export interface UserResult {
  user: UserDto;
}

export function ownUser(user: UserDtoSource): UserDto {
  return toUserDto(user, user.id);
}

export function sessionResultFor(user: UserDtoSource & Pick<IUser, 'role'>): SessionResult {
  return { user: ownUser(user), isModerator: isModeratorRole(user.role) };
}
