/** Types and helpers for clients (the web app). Type-only imports of the server side. */

export type { UserDto } from './modules/users/user.serializer.js';
export type { AppRouter, RouterInputs, RouterOutputs } from './root.js';
