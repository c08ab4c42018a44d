/**
 * The rate limits of docs/api.md, "Rate limits", one bucket per row. Procedures name a bucket and a
 * key; the server enforces it (counted in PostgreSQL, so every instance shares the count), so the same limit holds on /api
 * and /trpc. Every `max` is multiplied by RATE_LIMIT_SCALE at the server; nothing turns limits off.
 */
export const rateLimits = {
  login: { max: 10, windowMs: 60_000 }, // per IP + email
  loginIp: { max: 50, windowMs: 60_000 }, // per IP
  loginAccount: { max: 30, windowMs: 15 * 60_000 }, // per account (email) and its password, whatever the IP
  register: { max: 10, windowMs: 60 * 60_000 }, // per IP
  passwordReset: { max: 5, windowMs: 15 * 60_000 }, // per email
  passwordResetIp: { max: 20, windowMs: 15 * 60_000 }, // per IP
  write: { max: 30, windowMs: 60_000 }, // posts, comments; per user
  react: { max: 120, windowMs: 60_000 }, // likes, follows, favourites, blocks, mutes; per user
  directMessage: { max: 60, windowMs: 60_000 }, // per user
  cubeyChat: { max: 20, windowMs: 60_000 }, // per user
  uploadUrl: { max: 30, windowMs: 30 * 60_000 }, // per user
  dataExport: { max: 5, windowMs: 60 * 60_000 }, // "Download my data" builds; per user
  accountDelete: { max: 5, windowMs: 15 * 60_000 }, // password tries to delete the account; per user
  passwordCheck: { max: 10, windowMs: 15 * 60_000 }, // every procedure that checks the current password; per user
  emailChange: { max: 5, windowMs: 60 * 60_000 }, // e-mail change requests and confirmation tries; per user
  search: { max: 120, windowMs: 60_000 }, // search, suggestions, Search's tags; per user, or per IP logged out
  report: { max: 20, windowMs: 60 * 60_000 }, // reports of posts, comments, messages, members; per user
} as const;

export type RateLimitBucket = keyof typeof rateLimits;

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one hit of `key` in `bucket`. Provided by the host (the server). */
export type RateLimiter = (bucket: RateLimitBucket, key: string) => Promise<RateLimitResult>;
