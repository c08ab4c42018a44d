/**
 * What Cubey tells members about the app, built from the constants the app itself enforces, so
 * its help cannot fall behind them: how many images and characters a post holds, which files an
 * upload takes, how long a post can be edited, how a password reset works. The offline assistant
 * answers with these (offline.provider.ts); a model gets the facts in its system prompt
 * (provider.ts). Functions, not constants: read when an answer is made.
 */
import { IMAGE_TYPES, MAX_OBJECT_BYTES } from '@cubes/storage/keys';
import { POST_EDIT_WINDOW_MS, POST_IMAGES_MAX, POST_MAX_LENGTH } from '../../rules.js';
import { PASSWORD_MIN, RESET_CODE_LENGTH } from '../auth/auth.schema.js';
import { RESET_CODE_TTL_MS, RESET_MAX_ATTEMPTS } from '../auth/password-reset.service.js';
import { COMMENT_MAX_LENGTH } from '../comments/comment.schema.js';

const TYPE_NAMES: Record<string, string> = { png: 'PNG', jpeg: 'JPEG', gif: 'GIF', webp: 'WebP' };

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function minutes(ms: number): string {
  const n = Math.round(ms / 60_000);
  return `${n} ${n === 1 ? 'minute' : 'minutes'}`;
}

/** "a, b, c or d" */
function oneOf(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** "PNG, JPEG, GIF or WebP, at most 5 MB each" */
export function imageFilesRule(): string {
  const types = IMAGE_TYPES.map((type) => TYPE_NAMES[type.slice('image/'.length)] ?? type);
  return `${oneOf(types)}, at most ${count(MAX_OBJECT_BYTES / (1024 * 1024))} MB each`;
}

/** "up to 4 images" (or "one image" were the limit one) */
export function postImagesRule(): string {
  return (POST_IMAGES_MAX as number) === 1 ? 'one image' : `up to ${count(POST_IMAGES_MAX)} images`;
}

/** The answers of the offline assistant's help topics. */
export function helpAnswers(): { password: string; upload: string; post: string } {
  return {
    password: [
      '**Resetting your password**',
      '',
      '1. Open **Login** and choose the **Reset** tab.',
      `2. Enter your e-mail address and press send: a ${RESET_CODE_LENGTH}-digit code is sent to you (valid ${minutes(RESET_CODE_TTL_MS)}, ${RESET_MAX_ATTEMPTS} tries).`,
      `3. Enter the code and a new password of at least ${PASSWORD_MIN} characters.`,
      '',
      'All your sessions are logged out afterwards. To change a password you still know, use **Settings → Change Password**.',
    ].join('\n'),
    upload: [
      '**Uploading an image**',
      '',
      `- In the composer on **Home**, press **Media** and add ${postImagesRule()} (${imageFilesRule()}), then post. Each image can have a description for people who cannot see it.`,
      '- For your profile picture or banner, open **Settings** and upload there.',
    ].join('\n'),
    post: [
      '**Posting**',
      '',
      '- On **Home**, write in the box that says *What’s on your mind?* and press **Post**.',
      `- Add ${postImagesRule()} with **Media**; a post holds up to ${count(POST_MAX_LENGTH)} characters. Type @ to mention a member and # to tag it.`,
      `- Others can like and comment on it (comments hold up to ${count(COMMENT_MAX_LENGTH)} characters); you can edit it for ${minutes(POST_EDIT_WINDOW_MS)} and delete it any time.`,
    ].join('\n'),
  };
}

/** The facts a model is given about the app, in its system prompt. */
export function appFacts(): string {
  return [
    `A post holds up to ${count(POST_MAX_LENGTH)} characters and ${postImagesRule()} (${imageFilesRule()}), added with Media in the composer on Home;`,
    `its author can edit it for ${minutes(POST_EDIT_WINDOW_MS)} and delete it any time.`,
    `Comments hold up to ${count(COMMENT_MAX_LENGTH)} characters. @username mentions a member and #tag tags a post.`,
    `A forgotten password is reset from Login → Reset with a ${RESET_CODE_LENGTH}-digit e-mailed code, valid ${minutes(RESET_CODE_TTL_MS)}.`,
  ].join(' ');
}
