/**
 * The server's VAPID key pair, which identifies it to push services: from VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY when given, otherwise generated once into DATA_DIR/vapid.json (mode 600).
 * Instances sharing DATA_DIR share the file; the first to write it wins and the others read it.
 * Instances on separate machines must be given the same keys by environment.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** What the push module needs of its host (Context.push, the send job). */
export interface PushSettings extends VapidKeys {
  /** `mailto:` or `https:` contact the push services may reach the operator at. */
  subject: string;
  /** Tests only: endpoints on http: and private addresses are accepted (a local push service). */
  allowPrivateEndpoints: boolean;
}

declare module '../../context.types.js' {
  interface HandedIn {
    /** Web push: the VAPID keys and endpoint rules; absent: push is not offered. */
    push: PushSettings;
  }
}

export function generateVapidKeys(): VapidKeys {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return { publicKey, privateKey };
}

function readKeys(file: string): VapidKeys | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof parsed.publicKey === 'string' && typeof parsed.privateKey === 'string') {
      return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
    }
    throw new Error(`${file} holds no VAPID keys`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export function loadOrCreateVapidKeys(file: string, configured?: Partial<VapidKeys>): VapidKeys {
  if (configured?.publicKey && configured.privateKey) {
    return { publicKey: configured.publicKey, privateKey: configured.privateKey };
  }
  const existing = readKeys(file);
  if (existing) return existing;
  mkdirSync(path.dirname(file), { recursive: true });
  const keys = generateVapidKeys();
  // Written whole beside it, then linked into place: the link either makes the file, complete,
  // or fails because another instance made it first (then theirs is used).
  const partial = `${file}.${randomUUID()}`;
  writeFileSync(partial, `${JSON.stringify(keys)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(partial, file);
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKeys(file) ?? keys;
    throw error;
  } finally {
    rmSync(partial, { force: true });
  }
}
