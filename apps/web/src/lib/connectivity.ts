/**
 * Whether the server can be reached: the browser's own word (navigator.onLine and its events),
 * and what the app's requests find. navigator.onLine alone is not enough: it only knows whether
 * there is a network adapter, so "Wi-Fi without internet" reads as online, and Chromium reports a
 * page that its service worker served while offline as online until the connection changes again
 * (https://crbug.com/678075; seen here with Chromium 150 after an offline reload).
 *
 * So a request that fails without any answer marks the server unreachable until one is answered.
 * While it is, /api/health is asked again with a growing pause (1 s up to 8 s); the first answer
 * calls every reconnect listener, as the browser's `online` event does.
 */

type Listener = () => void;

const changeListeners = new Set<Listener>();
const reconnectListeners = new Set<Listener>();
let unreachable = false;
let probeTimer: ReturnType<typeof setTimeout> | null = null;
let probeDelayMs = 0;
const PROBE_FIRST_MS = 1000;
const PROBE_MAX_MS = 8000;

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** Online as far as the app can tell: the browser has a network and the last request was answered. */
export function isOnline(): boolean {
  return browserOnline() && !unreachable;
}

function notifyChange(): void {
  for (const listener of changeListeners) listener();
}

function notifyReconnect(): void {
  for (const listener of reconnectListeners) listener();
}

function stopProbing(): void {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  probeDelayMs = 0;
}

function scheduleProbe(): void {
  if (probeTimer || typeof window === 'undefined') return;
  probeDelayMs = probeDelayMs ? Math.min(probeDelayMs * 2, PROBE_MAX_MS) : PROBE_FIRST_MS;
  probeTimer = setTimeout(() => {
    probeTimer = null;
    fetch('/api/health', { cache: 'no-store', credentials: 'omit' }).then(
      () => reportAnswered(),
      () => scheduleProbe(),
    );
  }, probeDelayMs);
}

/** A request got an answer (any status): the server is reachable again. */
export function reportAnswered(): void {
  if (!unreachable) return;
  unreachable = false;
  stopProbing();
  notifyChange();
  notifyReconnect();
}

/** A request failed without an answer (fetch rejected with a TypeError, not an abort). */
export function reportUnanswered(): void {
  if (unreachable) return;
  unreachable = true;
  notifyChange();
  scheduleProbe();
}

/** `fetch`, reporting to this module whether the server answered. */
export async function trackedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    const response = await fetch(input, init);
    reportAnswered();
    return response;
  } catch (error) {
    if (error instanceof TypeError) reportUnanswered();
    throw error;
  }
}

let watchingBrowser = false;

/** The browser's `online` event is a reconnect too: the server is worth asking again. */
function watchBrowser(): void {
  if (watchingBrowser) return;
  watchingBrowser = true;
  window.addEventListener('online', () => {
    const wasUnreachable = unreachable;
    unreachable = false;
    stopProbing();
    if (wasUnreachable) notifyChange();
    notifyReconnect();
  });
}

/** Calls `onChange` whenever isOnline() may have changed. Returns the unsubscribe. */
export function subscribeConnectivity(onChange: Listener): () => void {
  watchBrowser();
  changeListeners.add(onChange);
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    changeListeners.delete(onChange);
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Calls `listener` when the connection is back: the browser's `online` event, or a probe's answer. */
export function onReconnect(listener: Listener): () => void {
  watchBrowser();
  reconnectListeners.add(listener);
  return () => {
    reconnectListeners.delete(listener);
  };
}

/** Back to the first state (tests). */
export function resetConnectivity(): void {
  unreachable = false;
  stopProbing();
}
