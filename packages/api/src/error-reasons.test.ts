/**
 * Every fixed message the API can answer with has a stable reason (error-reasons.ts), and the
 * answers carry it: the sources are read for messages (test/error-messages.ts), each one must be
 * in the table or be one of the few that vary per request, listed here with why.
 */
import { fileURLToPath } from 'node:url';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { findMessages } from '../test/error-messages.js';
import { callerFor, UNKNOWN_ID, useDatabase } from '../test/harness.js';
import { ERROR_REASONS, type ErrorReason, reasonOf } from './error-reasons.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './modules/auth/auth.schema.js';
import { CHAT_TITLE_MAX_LENGTH, CUBEY_MESSAGE_MAX_LENGTH } from './modules/cubey/cubey.schema.js';
import { GALLERY_FILTER_MAX_LENGTH } from './modules/gallery/gallery.schema.js';
import { CLIENT_ID_MAX_LENGTH, MESSAGE_MAX_LENGTH } from './modules/messages/message.schema.js';
import { MODERATION_NOTE_MAX, SUSPENSION_DAYS_MAX } from './modules/moderation/moderation.schema.js';
import { PINNED_POSTS_MAX } from './modules/posts/profile-posts.repository.js';
import { REPORT_REASON_MAX } from './modules/reports/report.schema.js';
import { SEARCH_QUERY_MAX } from './modules/search/search.schema.js';
import { BIO_MAX } from './modules/settings/settings.schema.js';
import { SUGGESTIONS_MAX } from './modules/users/suggestion.schema.js';
import { PAGE_LIMIT_MAX } from './paging.js';
import { POLL_MINUTES_MAX } from './rules.js';
import { describeError, MAX_SUBSCRIPTIONS_PER_SOCKET } from './trpc.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Messages that vary per request (or are built by a helper whose every outcome is in the table),
 * by file and expression: they answer without a reason, or their parts are checked elsewhere.
 */
const VARYING: { file: RegExp; source: RegExp; why: string }[] = [
  {
    file: /openai\.provider\.ts$/,
    source: /^`The AI provider did not answer within/,
    why: 'a configured timeout',
  },
  { file: /openai\.provider\.ts$/, source: /^redactSecrets\(message/, why: "the provider's own words" },
  { file: /cubey\.fair-use\.ts$/, source: /^dailyLimitMessage\(/, why: 'names the limit and its reset time' },
  {
    file: /cubey\.fair-use\.ts$/,
    source: /^`Cubey is already writing \$\{max\}/,
    why: 'a configured number',
  },
  {
    file: /cubey\.service\.ts$/,
    source: /^final\.error \?\?/,
    why: "the provider's own words (AI_PROVIDER_FAILED otherwise)",
  },
  {
    file: /moderation\.access\.ts$/,
    source: /^suspendedMessage\(/,
    why: 'the end date (ACCOUNT_SUSPENDED without one)',
  },
  {
    file: /objects\.schema\.ts$/,
    source: /^(message|label)$/,
    why: 'objectPathField: its callers pass ERROR_REASONS',
  },
  { file: /poll\.service\.ts$/, source: /^`This poll has \$\{/, why: "the poll's number of options" },
  {
    file: /post-changes\.service\.ts$/,
    source: /^`This post has \$\{images\.length\}/,
    why: 'an image count over 1',
  },
  {
    file: /push\.schema\.ts$/,
    source: /^(label|`\$\{label\} must)/,
    why: 'base64url(): p256dh and auth are in the table',
  },
  { file: /push\.service\.ts$/, source: /^`Endpoint refused:/, why: "the push service's own words" },
  {
    file: /report\.service\.ts$/,
    source: /^(TARGET_NOT_FOUND|CANNOT_REPORT_OWN)\[type\]$/,
    why: 'records of ERROR_REASONS',
  },
  {
    file: /safety\.service\.ts$/,
    source: /^(message|selfMessage)$/,
    why: 'parameters: callers pass ERROR_REASONS',
  },
  {
    file: /user\.service\.ts$/,
    source: /^notYourImage\(field\)$/,
    why: 'AVATAR_NOT_YOURS or BANNER_NOT_YOURS',
  },
  {
    file: /api\/src\/text\.ts$/,
    source: /^notAllowedMessage\(label\)$/,
    why: "text(label): each label's message is checked",
  },
  {
    file: /server\/src\/app\.ts$/,
    source: /^`(\$\{req\.method\} is not allowed|Unknown API path)/,
    why: 'the method and path',
  },
  {
    file: /server\/src\/errors\.ts$/,
    source: /^`Request body is too large/,
    why: 'the configured body limit',
  },
  {
    file: /server\/src\/errors\.ts$/,
    source: /^message \?\? 'Bad request'$/,
    why: 'HTTP status names, not ours',
  },
  {
    file: /rest\/adapter\.ts$/,
    source: /^error\.message$/,
    why: "gone(): its message is the thrower's, with its reason",
  },
];

describe('ERROR_REASONS', () => {
  it('names each message once, in UPPER_SNAKE_CASE, and reasonOf finds it back', () => {
    const entries = Object.entries(ERROR_REASONS) as [ErrorReason, string][];
    expect(new Set(entries.map(([, message]) => message)).size).toBe(entries.length);
    for (const [reason, message] of entries) {
      expect(reason).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(reasonOf(message)).toBe(reason);
    }
    expect(reasonOf('Post not found')).toBe('POST_NOT_FOUND');
    expect(reasonOf('Post not found!')).toBeUndefined();
  });

  it('holds every message the sources answer with, but the few that vary', () => {
    const found = findMessages(ROOT, ['packages/api/src', 'apps/server/src'], ERROR_REASONS);
    expect(found.length).toBeGreaterThan(150);
    const missing: string[] = [];
    const varying = new Set<number>();
    for (const message of found) {
      if (message.reason) continue;
      if (message.text !== undefined) {
        if (reasonOf(message.text) === undefined)
          missing.push(`${message.file}:${message.line} ${message.text}`);
        continue;
      }
      const known = VARYING.findIndex((v) => v.file.test(message.file) && v.source.test(message.source));
      if (known < 0)
        missing.push(`${message.file}:${message.line} ${message.source} (varies: add it or say why)`);
      else varying.add(known);
    }
    expect(missing).toEqual([]);
    // Every exception still names something in the sources.
    expect(VARYING.filter((_, i) => !varying.has(i)).map((v) => v.source.source)).toEqual([]);
  });

  it('states the limits the schemas and services enforce', () => {
    const pairs: [ErrorReason, number][] = [
      ['TOO_MANY_SUBSCRIPTIONS', MAX_SUBSCRIPTIONS_PER_SOCKET],
      ['TOO_MANY_PINS', PINNED_POSTS_MAX],
      ['CUBEY_MESSAGE_TOO_LONG', CUBEY_MESSAGE_MAX_LENGTH],
      ['TITLE_TOO_LONG', CHAT_TITLE_MAX_LENGTH],
      ['FILTER_TOO_LONG', GALLERY_FILTER_MAX_LENGTH],
      ['MESSAGE_TOO_LONG', MESSAGE_MAX_LENGTH],
      ['CLIENT_ID_INVALID_LENGTH', CLIENT_ID_MAX_LENGTH],
      ['NOTE_TOO_LONG', MODERATION_NOTE_MAX],
      ['SUSPENSION_TOO_LONG', SUSPENSION_DAYS_MAX],
      ['REASON_TOO_LONG', REPORT_REASON_MAX],
      ['QUERY_TOO_LONG', SEARCH_QUERY_MAX],
      ['BIO_TOO_LONG', BIO_MAX],
      ['PAGE_LIMIT_OUT_OF_RANGE', PAGE_LIMIT_MAX],
      ['SUGGESTION_LIMIT_OUT_OF_RANGE', SUGGESTIONS_MAX],
      ['PASSWORD_TOO_SHORT', PASSWORD_MIN],
      ['PASSWORD_TOO_LONG', PASSWORD_MAX],
      ['POLL_TOO_LONG', POLL_MINUTES_MAX / (24 * 60)],
    ];
    for (const [reason, limit] of pairs) expect(ERROR_REASONS[reason], reason).toContain(String(limit));
  });
});

describe('describeError', () => {
  const db = useDatabase();

  async function failure(p: Promise<unknown>): Promise<TRPCError> {
    const error = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCError);
    return error as TRPCError;
  }

  it("adds a thrown error's reason beside its unchanged English message", async () => {
    const { caller } = callerFor(db.orm);
    const error = await failure(caller.posts.byId({ postId: UNKNOWN_ID }));
    expect(describeError(error)).toEqual({ message: 'Post not found', reason: 'POST_NOT_FOUND' });
    const anonymous = await failure(caller.auth.me());
    expect(describeError(anonymous)).toEqual({
      message: 'You need to be logged in',
      reason: 'LOGIN_REQUIRED',
    });
  });

  it('gives each validation issue its reason, and the first as the top one', async () => {
    const { caller } = callerFor(db.orm);
    const error = await failure(
      caller.auth.register({ username: 'ok_name', email: 'nope', password: '123', displayName: 'x' }),
    );
    const described = describeError(error);
    expect(described.issues).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Enter a valid email address', reason: 'EMAIL_INVALID' },
        { path: 'password', message: 'Must be at least 6 characters', reason: 'PASSWORD_TOO_SHORT' },
      ]),
    );
    expect(described.reason).toBe(described.issues?.[0]?.reason);
  });

  it('leaves out the reason of a message that has none', () => {
    const error = new TRPCError({
      code: 'BAD_REQUEST',
      message: 'This poll has 3 options: choose from 0 to 2',
    });
    expect(describeError(error)).toEqual({ message: 'This poll has 3 options: choose from 0 to 2' });
  });
});
