import { PasswordReset } from './password-reset.entity.js';
import { Session } from './session.entity.js';
import { User } from './user.entity.js';

export * from './password-reset.entity.js';
export * from './session.entity.js';
export * from './user.entity.js';

/** Every entity, listed explicitly (no folder scanning at start-up). */
export const entities = [User, Session, PasswordReset];
