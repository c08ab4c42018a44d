import { IMAGE_TYPES, MAX_OBJECT_BYTES } from '@cubes/storage/keys';
import { describe, expect, it } from 'vitest';
import { POST_EDIT_WINDOW_MS, POST_IMAGES_MAX, POST_MAX_LENGTH } from '../../rules.js';
import { PASSWORD_MIN, RESET_CODE_LENGTH } from '../auth/auth.schema.js';
import { RESET_CODE_TTL_MS, RESET_MAX_ATTEMPTS } from '../auth/password-reset.service.js';
import { appFacts, helpAnswers } from './cubey.help.js';
import { systemPrompt } from './providers/provider.js';

// Issue #46, bug 15: the help said "Add one image" while a post takes POST_IMAGES_MAX. Every
// figure below is read from the constant the app enforces, so this test follows a change of one.
const images =
  (POST_IMAGES_MAX as number) === 1 ? 'one image' : `up to ${POST_IMAGES_MAX.toLocaleString('en-US')} images`;
const characters = `${POST_MAX_LENGTH.toLocaleString('en-US')} characters`;
const editMinutes = `${POST_EDIT_WINDOW_MS / 60_000} minutes`;
const size = `at most ${MAX_OBJECT_BYTES / (1024 * 1024)} MB each`;

describe("Cubey's help about the app", () => {
  it('says how many images and characters a post takes, as the app allows', () => {
    const { post, upload } = helpAnswers();
    expect(post).toContain(`Add ${images} with **Media**`);
    expect(post).toContain(`up to ${characters}`);
    expect(post).toContain(`edit it for ${editMinutes}`);
    expect(upload).toContain(`add ${images}`);
    expect(upload).toContain(size);
    for (const type of IMAGE_TYPES) expect(upload.toLowerCase()).toContain(type.slice('image/'.length));
    if ((POST_IMAGES_MAX as number) > 1)
      for (const text of [post, upload]) expect(text).not.toMatch(/\bone image\b/i);
  });

  it('gives the reset rules as the reset enforces them', () => {
    const { password } = helpAnswers();
    expect(password).toContain(`${RESET_CODE_LENGTH}-digit code`);
    expect(password).toContain(`valid ${RESET_CODE_TTL_MS / 60_000} minutes, ${RESET_MAX_ATTEMPTS} tries`);
    expect(password).toContain(`at least ${PASSWORD_MIN} characters`);
  });

  it("puts the same facts in a model's system prompt", () => {
    expect(systemPrompt()).toContain(appFacts());
    expect(appFacts()).toContain(`${characters} and ${images}`);
    expect(appFacts()).toContain(size);
  });
});
