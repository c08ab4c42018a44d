/** HMAC-signed upload URLs of the local driver: each names exactly one key and expires. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function signUpload(secret: string, key: string, expires: number): string {
  return createHmac('sha256', secret).update(`PUT\n${key}\n${expires}`).digest('hex');
}

/** True when `sig` is the signature of (key, expires) and `expires` (unix seconds) is not past. */
export function verifyUpload(
  secret: string,
  key: string,
  expires: string | number | undefined,
  sig: string | undefined,
  nowSeconds: number,
): boolean {
  if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return false;
  const exp = typeof expires === 'number' ? expires : Number(expires);
  if (!Number.isSafeInteger(exp) || exp < nowSeconds) return false;
  const expected = Buffer.from(signUpload(secret, key, exp), 'hex');
  return timingSafeEqual(expected, Buffer.from(sig, 'hex'));
}

/**
 * The signing secret: the configured one, or one generated on first start and kept (mode 600)
 * in `file`, so upload URLs survive restarts.
 */
export function loadOrCreateSecret(file: string, configured?: string): string {
  if (configured) return configured;
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}
