import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { AiMedia } from './ai-media.entity.js';
import { User } from './user.entity.js';

/** A user favourites an AI media item at most once: the pair is the primary key. */
export const Favorite = defineEntity({
  name: 'Favorite',
  tableName: 'favorites',
  indexes: [
    { name: 'favorites_media_id_index', properties: ['media'] },
    {
      name: 'favorites_user_created_at_index',
      expression:
        'create index "favorites_user_created_at_index" on "favorites" ("user_id", "created_at" desc)',
    },
  ],
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    media: () => p.manyToOne(AiMedia).primary().deleteRule('cascade'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IFavorite = InferEntity<typeof Favorite>;
