import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

export const AI_MEDIA_TYPES = ['art', 'music', 'fun', 'video'] as const;
export type AiMediaType = (typeof AI_MEDIA_TYPES)[number];

/**
 * An item of the gallery: an image with its stored size (the web lays the masonry out from it
 * before the image loads). favoritesCount is a denormalised counter, changed in the same
 * transaction as the Favorite row it counts. The table also has a generated search_vector
 * column (see the SearchGallery migration) that only raw SQL reads.
 */
export const AiMedia = defineEntity({
  name: 'AiMedia',
  tableName: 'ai_media',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    type: p.string().length(8).$type<AiMediaType>(),
    title: p.string().length(200),
    imageUrl: p.text(),
    width: p.integer(),
    height: p.integer(),
    creator: () => p.manyToOne(User).deleteRule('cascade'),
    favoritesCount: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IAiMedia = InferEntity<typeof AiMedia>;
