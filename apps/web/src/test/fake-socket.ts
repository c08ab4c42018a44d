/**
 * A fake /trpc WebSocket for component tests: speaks just enough of tRPC's socket protocol
 * (subscription start and stop, 'started', tracked 'data') for a test to push a live event to
 * whatever subscribed, the way fake-trpc.tsx answers HTTP calls. Installed for every test by
 * setup.ts, so no test opens a real socket.
 */
import superjson from 'superjson';

interface Subscription {
  socket: FakeSocket;
  id: number | string;
  path: string;
  input: unknown;
}

const open = new Set<FakeSocket>();
let serial = 0;
const subscriptions = new Map<string, Subscription>();

export class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  readyState = 0;
  binaryType = 'blob';
  onopen: ((e: Event) => void) | null = null;
  onclose: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;

  private readonly serial = ++serial;

  constructor(readonly url: string) {
    super();
    open.add(this);
    setTimeout(() => {
      if (this.readyState !== 0) return;
      this.readyState = 1;
      this.emit(new Event('open'));
    });
  }

  private emit(event: Event): void {
    this.dispatchEvent(event);
    const handler = (this as unknown as Record<string, ((e: Event) => void) | null>)[`on${event.type}`];
    handler?.(event);
  }

  send(raw: string): void {
    const messages = [JSON.parse(raw)].flat() as {
      id: number | string;
      method: string;
      params?: { path: string; input?: { json: unknown } };
    }[];
    for (const message of messages) {
      const key = `${this.serial}:${message.id}`;
      if (message.method === 'subscription' && message.params) {
        const input = message.params.input ? superjson.deserialize(message.params.input as never) : undefined;
        subscriptions.set(key, { socket: this, id: message.id, path: message.params.path, input });
        this.reply({ id: message.id, result: { type: 'started' } });
      } else if (message.method === 'subscription.stop') {
        for (const [k, s] of subscriptions)
          if (s.socket === this && s.id === message.id) subscriptions.delete(k);
      }
    }
  }

  reply(message: unknown): void {
    setTimeout(() => {
      if (this.readyState === 1) this.emit(new MessageEvent('message', { data: JSON.stringify(message) }));
    });
  }

  close(code = 1000): void {
    if (this.readyState >= 2) return;
    this.readyState = 3;
    open.delete(this);
    for (const [k, s] of subscriptions) if (s.socket === this) subscriptions.delete(k);
    this.emit(Object.assign(new Event('close'), { code, reason: '', wasClean: true }));
  }
}

/** The live subscriptions open right now, by procedure path ('notifications.onChange'). */
export function liveSubscriptions(path: string): Subscription[] {
  return [...subscriptions.values()].filter((s) => s.path === path);
}

/** Sends a tracked event to every subscriber of `path`; returns how many got it. */
export function pushLive(path: string, data: unknown, eventId = String(Date.now())): number {
  const targets = liveSubscriptions(path);
  for (const s of targets) {
    s.socket.reply({
      id: s.id,
      result: { type: 'data', id: eventId, data: superjson.serialize({ id: eventId, data }) },
    });
  }
  return targets.length;
}

export function closeAllSockets(): void {
  for (const socket of [...open]) socket.close();
}
