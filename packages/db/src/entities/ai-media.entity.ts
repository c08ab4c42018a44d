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
  indexes: [
    { name: 'ai_media_creator_id_index', properties: ['creator'] },
    {
      name: 'ai_media_created_at_id_index',
      expression: 'create index "ai_media_created_at_id_index" on "ai_media" ("created_at" desc, "id" desc)',
    },
    {
      name: 'ai_media_type_created_at_id_index',
      expression:
        'create index "ai_media_type_created_at_id_index" on "ai_media" ("type", "created_at" desc, "id" desc)',
    },
    {
      name: 'ai_media_popular_index',
      expression:
        'create index "ai_media_popular_index" on "ai_media" ("favorites_count" desc, "created_at" desc)',
    },
    {
      name: 'ai_media_search_vector_index',
      expression: 'create index "ai_media_search_vector_index" on "ai_media" using gin ("search_vector")',
    },
    {
      name: 'ai_media_title_trgm_index',
      expression:
        'create index "ai_media_title_trgm_index" on "ai_media" using gin (lower(cubes_unaccent("title")) gin_trgm_ops)',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [
    { name: 'ai_media_size_check', expression: 'width > 0 and height > 0' },
    { name: 'ai_media_favorites_count_check', expression: 'favorites_count >= 0' },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    type: p.enum([...AI_MEDIA_TYPES]).columnType('varchar(8)'),
    title: p.string().length(200),
    imageUrl: p.text(),
    width: p.integer(),
    height: p.integer(),
    creator: () => p.manyToOne(User).deleteRule('cascade'),
    favoritesCount: p.integer().default(0),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IAiMedia = InferEntity<typeof AiMedia>;
