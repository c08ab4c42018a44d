/**
 * The public user shape (user.schema.ts's `userSchema`, the `User` of the OpenAPI document). Built
 * field by field so secrets cannot leak by accident.
 */
import type { IUser } from '@cubes/db';
import type { UserDto } from './user.schema.js';

export type { UserDto } from './user.schema.js';

/** The fields of a user the public shape is made of. */
export type UserDtoSource = Pick<
  IUser,
  | 'id'
  | 'username'
  | 'displayName'
  | 'email'
  | 'emailVisible'
  | 'bio'
  | 'avatarUrl'
  | 'headerUrl'
  | 'createdAt'
>;

export function toUserDto(user: UserDtoSource, viewerId: string | null): UserDto {
  const own = viewerId === user.id;
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    email: own || user.emailVisible ? user.email : null,
    bio: user.bio ?? null,
    avatarUrl: user.avatarUrl ?? null,
    headerUrl: user.headerUrl ?? null,
    emailVisible: user.emailVisible,
    createdAt: user.createdAt.toISOString(),
  };
}
