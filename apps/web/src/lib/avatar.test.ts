import { describe, expect, it } from 'vitest';
import { avatarInitials, generatedAvatarUrl, hashString } from './avatar';

const PREFIX = 'data:image/svg+xml;charset=utf-8,';

function decode(uri: string): string {
  return decodeURIComponent(uri.slice(PREFIX.length));
}

describe('generated avatars', () => {
  it('is deterministic for a username', () => {
    expect(generatedAvatarUrl('alice')).toBe(generatedAvatarUrl('alice'));
    expect(hashString('alice')).toBe(hashString('alice'));
  });

  it('ignores case, like usernames do', () => {
    expect(generatedAvatarUrl('Alice')).toBe(generatedAvatarUrl('alice'));
  });

  it('differs between usernames', () => {
    const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'cube_master', 'alicf'];
    const uris = new Set(names.map(generatedAvatarUrl));
    expect(uris.size).toBe(names.length);
  });

  it('is a valid SVG data URI that an <img> can load', () => {
    const uri = generatedAvatarUrl('cube_master');
    expect(uri.startsWith(PREFIX)).toBe(true);
    expect(uri).not.toMatch(/[\s<>"#]/); // fully encoded: nothing that breaks a URL
    const doc = new DOMParser().parseFromString(decode(uri), 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.documentElement.nodeName).toBe('svg');
    expect(doc.querySelector('text')?.textContent).toBe('CM');
  });

  it('takes one or two initials', () => {
    expect(avatarInitials('alice')).toBe('A');
    expect(avatarInitials('cube_master')).toBe('CM');
    expect(avatarInitials('_x_y_z')).toBe('XY');
    expect(avatarInitials('')).toBe('?');
  });

  it('escapes anything XML-special', () => {
    const doc = new DOMParser().parseFromString(decode(generatedAvatarUrl('<&>')), 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  });
});
