import type { IUser } from '@cubes/db';

/**
 * The public user shape (the `User` schema of the OpenAPI document). Built field by field so
 * secrets cannot leak by accident.
 */
export interface UserDto {
  id: string;
  username: string;
  displayName: string;
  /** null unless the viewer is the owner or the owner made it visible */
  email: string | null;
  bio: string | null;
  avatarUrl: string | null;
  headerUrl: string | null;
  emailVisible: boolean;
  createdAt: Date;
}

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
    createdAt: user.createdAt,
  };
}
