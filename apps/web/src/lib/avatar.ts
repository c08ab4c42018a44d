/**
 * Generated avatars for users without a picture: an SVG data: URI with the username's initials
 * on a gradient whose colour comes from a hash of the username. Same username, same avatar.
 */

/** 32-bit FNV-1a: small, fast and stable across browsers. */
export function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** One or two letters: 'alice' → 'A', 'cube_master' → 'CM'. */
export function avatarInitials(username: string): string {
  const parts = username
    .split(/[_\-.\s]+/)
    .map((p) => p.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
  const first = parts[0]?.[0] ?? '?';
  const second = parts.length > 1 ? (parts[1]?.[0] ?? '') : '';
  return (first + second).toUpperCase();
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/** The avatar for `username` as a `data:image/svg+xml` URI (the CSP's img-src allows data:). */
export function generatedAvatarUrl(username: string): string {
  const key = username.trim().toLowerCase();
  const hash = hashString(key);
  const hue = hash % 360;
  const hue2 = (hue + 35 + ((hash >>> 9) % 50)) % 360;
  const initials = escapeXml(avatarInitials(key || '?'));
  const fontSize = initials.length > 1 ? 26 : 30;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue} 65% 52%)"/><stop offset="1" stop-color="hsl(${hue2} 70% 40%)"/>` +
    `</linearGradient></defs>` +
    `<rect width="64" height="64" fill="url(#g)"/>` +
    `<path d="M46 8l10 5.5v11L46 30l-10-5.5v-11z" fill="#fff" fill-opacity=".12"/>` +
    `<text x="50%" y="50%" dy=".35em" text-anchor="middle" fill="#fff" ` +
    `font-family="system-ui,-apple-system,'Segoe UI',Roboto,sans-serif" font-size="${fontSize}" font-weight="600">` +
    `${initials}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
