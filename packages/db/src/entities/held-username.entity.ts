import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * The username of a deleted account, held until `freeAt` so no one can take it over at once.
 * Only its SHA-256 (of the lower-cased name) is kept: the name itself is personal data.
 */
export const HeldUsername = defineEntity({
  name: 'HeldUsername',
  tableName: 'held_usernames',
  properties: {
    usernameHash: p.character().length(64).primary(),
    freeAt: p.datetime(),
  },
});
export type IHeldUsername = InferEntity<typeof HeldUsername>;
