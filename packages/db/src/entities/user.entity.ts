import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Who may start a conversation with a member (their `messagesFrom` setting). */
export const MESSAGES_FROM = ['everyone', 'following', 'nobody'] as const;
export type MessagesFrom = (typeof MESSAGES_FROM)[number];

/**
 * The languages a member may choose (users.language; the check says the same). @cubes/api's
 * rules.ts has the same list as LANGUAGES, for the web app, which does not load this package.
 */
export const USER_LANGUAGES = ['en', 'de', 'ar'] as const;
export type UserLanguage = (typeof USER_LANGUAGES)[number];

export const USER_ROLES = ['member', 'moderator'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Whether a member with this role may use /moderation (the one place that says which role does). */
export function isModeratorRole(role: string | null | undefined): boolean {
  return role === 'moderator';
}

/**
 * A member. Username and email are unique regardless of case (unique indexes on lower(...)).
 * The table also has a generated search_vector column that only raw SQL reads (see the
 * SearchGallery migration and schema.test.ts).
 */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  uniques: [
    {
      name: 'users_username_lower_unique',
      expression: 'create unique index "users_username_lower_unique" on "users" (lower("username"))',
    },
    {
      name: 'users_email_lower_unique',
      expression: 'create unique index "users_email_lower_unique" on "users" (lower("email"))',
    },
  ],
  indexes: [
    {
      name: 'users_search_vector_index',
      expression: 'create index "users_search_vector_index" on "users" using gin ("search_vector")',
    },
    {
      name: 'users_username_trgm_index',
      expression:
        'create index "users_username_trgm_index" on "users" using gin (lower("username") gin_trgm_ops)',
    },
    {
      name: 'users_display_name_trgm_index',
      expression:
        'create index "users_display_name_trgm_index" on "users" using gin (lower(cubes_unaccent("display_name")) gin_trgm_ops)',
    },
    {
      name: 'users_suspended_index',
      expression: 'create index "users_suspended_index" on "users" ("id") where "suspended_at" is not null',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [
    { name: 'users_avatar_url_check', expression: "avatar_url ~~ '/objects/%'::text" },
    { name: 'users_header_url_check', expression: "header_url ~~ '/objects/%'::text" },
    { name: 'users_suspension_check', expression: 'suspended_until is null or suspended_at is not null' },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    username: p.string().length(30),
    displayName: p.string().length(50),
    email: p.string().length(254),
    passwordHash: p.string().length(255).hidden(),
    bio: p.text().nullable(),
    avatarUrl: p.text().nullable(),
    headerUrl: p.text().nullable(),
    emailVisible: p.boolean().default(false),
    messagesFrom: p
      .enum([...MESSAGES_FROM])
      .columnType('varchar(16)')
      .default('everyone'),
    /** show posts' text and images behind their content warnings without a Show press */
    alwaysShowContentWarnings: p.boolean().default(false),
    /** show images marked sensitive without blurring them */
    alwaysShowSensitiveMedia: p.boolean().default(false),
    /** the language of the app on every device and of the account's mails */
    language: p
      .enum([...USER_LANGUAGES])
      .columnType('text')
      .default('en'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    /** Set when the member deleted their account; the row is then a nameless tombstone. */
    deletedAt: p.datetime().nullable(),
    /** 'moderator' is granted only by the operator command (`npm run admin -- make-moderator`). */
    role: p
      .enum([...USER_ROLES])
      .columnType('varchar(16)')
      .default('member'),
    /** Suspended since then; until `suspendedUntil`, or for ever when that is null. */
    suspendedAt: p.datetime().nullable(),
    suspendedUntil: p.datetime().nullable(),
  },
});
export type IUser = InferEntity<typeof User>;
