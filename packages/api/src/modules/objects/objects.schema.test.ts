import { describe, expect, it } from 'vitest';
import { createPostInput } from '../posts/post.schema.js';
import { updateSettingsInput } from '../settings/settings.schema.js';
import {
  isObjectPath,
  keyFromObjectPath,
  OBJECT_PATH_MAX,
  objectPathInput,
  objectPathOf,
} from './objects.schema.js';

const GOOD = [
  '/objects/uploads/0b7c1e2f-1111-4222-8333-444455556666',
  '/objects/uploads/0b7c1e2f-1111-4222-8333-444455556666/thumb',
  '/objects/a',
  '/objects/a.b_c-d/e..f',
  `/objects/${'k'.repeat(OBJECT_PATH_MAX - '/objects/'.length)}`,
];

const BAD = [
  '',
  '/objects',
  '/objects/',
  '/objects//a',
  '/objects/a/',
  '/objects/../secret',
  '/objects/./a',
  '/objects/.hidden',
  '/objects/a/../../etc/passwd',
  '/objects/a b',
  '/objects/a\u0000',
  '/objects/a\nb',
  '/objects/🧊',
  '/objects/a%2e%2e',
  '/objects/a?x=1',
  '//evil.example/objects/a',
  'https://elsewhere.example/objects/a.png',
  'objects/a',
  '/Objects/a',
  `/objects/${'k'.repeat(OBJECT_PATH_MAX - '/objects/'.length + 1)}`,
  `/objects/${'k'.repeat(70_000)}`,
];

describe('object paths', () => {
  it('accepts our own object paths and nothing else', () => {
    for (const path of GOOD) expect(isObjectPath(path), path).toBe(true);
    for (const path of BAD) expect(isObjectPath(path), path).toBe(false);
  });

  it('maps keys to paths and back', () => {
    expect(objectPathOf('uploads/x')).toBe('/objects/uploads/x');
    expect(keyFromObjectPath('/objects/uploads/x')).toBe('uploads/x');
    for (const path of BAD) expect(keyFromObjectPath(path)).toBeNull();
  });

  it('is the same rule in every form that takes an uploaded image', () => {
    for (const path of [...GOOD, ...BAD]) {
      const expected = isObjectPath(path);
      expect(objectPathInput.safeParse({ objectPath: path }).success, path).toBe(expected);
      expect(createPostInput.safeParse({ content: 'x', imageUrl: path }).success, path).toBe(expected);
      // Settings also take http(s) URLs and '' (clears the image); none of the paths above is one.
      if (path === '' || path.startsWith('https:')) continue;
      expect(updateSettingsInput.safeParse({ avatarUrl: path }).success, path).toBe(expected);
    }
  });

  it('names the field in its message and trims like the other text fields', () => {
    const result = objectPathInput.safeParse({ objectPath: '/objects/../x' });
    expect(result.error?.issues[0]?.message).toBe('objectPath must be an uploaded image path');
    expect(objectPathInput.safeParse({ objectPath: 42 }).error?.issues[0]?.message).toBe(
      'objectPath must be an uploaded image path',
    );
    const post = createPostInput.safeParse({ content: 'x', imageUrl: 'https://elsewhere.example/a.png' });
    expect(post.error?.issues[0]?.message).toBe('Invalid image URL');
    expect(objectPathInput.parse({ objectPath: ` ${GOOD[0]} ` })).toEqual({ objectPath: GOOD[0] });
  });
});
