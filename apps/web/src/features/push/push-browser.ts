/**
 * The browser's side of web push: whether this browser can take pushes, its current
 * subscription, and subscribing with the server's VAPID key or unsubscribing. The service worker
 * (pwa/service-worker.js) shows what arrives; without a registered worker (the dev server) push
 * is not offered.
 */
import { msg } from '@lingui/core/macro';
import { useSyncExternalStore } from 'react';
import { i18n } from '../../lib/i18n';

export type PushSupport = 'supported' | 'unsupported' | 'no-worker';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined') return 'unsupported';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return 'unsupported';
  }
  return 'supported';
}

const unchanging = () => () => {};

/**
 * pushSupport() in a component: 'checking' on the server and while a page rendered there
 * hydrates (the server cannot know this browser, and the first render must draw what it drew),
 * then this browser's answer.
 */
export function usePushSupport(): PushSupport | 'checking' {
  return useSyncExternalStore(unchanging, pushSupport, () => 'checking');
}

/** The worker's registration, or null when none is registered (dev server, private mode). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  const found = await navigator.serviceWorker.getRegistration();
  if (!found) return null;
  return navigator.serviceWorker.ready;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() !== 'supported') return null;
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

/** base64url → the bytes pushManager.subscribe takes as applicationServerKey. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export class PushUnavailableError extends Error {
  override name = 'PushUnavailableError';
}

/** Asks for permission (if not given yet) and subscribes this browser; the JSON goes to the server. */
export async function subscribeBrowser(publicKey: string): Promise<PushSubscriptionJSON> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted')
    throw new PushUnavailableError(i18n._(msg`Notifications are blocked for this site in your browser.`));
  const reg = await registration();
  if (!reg)
    throw new PushUnavailableError(
      i18n._(msg`Push needs the app’s service worker, which is not running here.`),
    );
  const existing = await reg.pushManager.getSubscription();
  const subscription =
    existing ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  return subscription.toJSON();
}

/** Ends this browser's subscription; answers its endpoint (to remove on the server) or null. */
export async function unsubscribeBrowser(): Promise<string | null> {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  return endpoint;
}
