/**
 * The event bus: how one server instance tells the others (and itself) that something happened.
 * Production runs it on PostgreSQL LISTEN/NOTIFY (pg-event-bus.ts), so several instances on one
 * database deliver to each other's clients; unit tests use the in-memory bus below.
 *
 * Payloads carry ids and small facts, never rows: NOTIFY payloads are capped at 8,000 bytes, and
 * a receiver loads what it shows from the database (through a fresh EntityManager fork), so it
 * never shows data that a transaction did not commit.
 *
 * Delivery is at most once and may be lost (a listener that reconnects misses what was sent
 * meanwhile): consumers that must lose nothing, the subscriptions, yield tracked ids and catch up
 * from the database; caches drop everything when the bus says it `reconnected`.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';

/** Every topic and the shape of its payload. */
export interface EventTopics {
  /** The notifications of `recipientId` changed (one was added, taken back, or all were read). */
  notifications: { recipientId: string };
  /** A post was published: feeds offer 'New posts'. */
  posts: { postId: string; authorId: string };
  /**
   * A post was deleted or edited by its author, removed by a moderator, or one of its comments
   * was deleted or removed: open feeds drop the post or load it again. `authorId` is the post's
   * author: a listener blocked either way with them never hears of it. `hidden`: the post was
   * out of everyone's sight already (removed, or its author suspended), so caches hear of it and
   * no listener does (posts.onChange). 'poll': someone voted in its poll, or the poll ended:
   * viewers load it again, each seeing the counts they may see.
   */
  postChanges: {
    postId: string;
    /** `linkCard`: its link card arrived or was removed (link-cards/); `poll`: its poll was voted in or ended */
    kind: 'deleted' | 'edited' | 'comments' | 'linkCard' | 'poll';
    authorId: string;
    hidden: boolean;
  };
  /**
   * Likes, comments or favourites changed on another instance (they go out as this one event, at
   * most once per FEED_EVENT_WINDOW_MS: see `OTHER_INSTANCES`). Caches of what they count drop.
   */
  feed: Record<string, never>;
  /**
   * `userId` liked or unliked `postId`; `likesCount` is the count its own statement returned, and
   * `authorId` the post's author when the toggle changed something (null when it changed nothing):
   * their bell follows from this event (notification.bells.ts).
   */
  likes: { postId: string; userId: string; likesCount: number; authorId: string | null };
  /**
   * `userId` reposted `postId` or took the repost back (only a toggle that changed something):
   * their followers' Following feeds and the post's count change. `repostsCount` is the count the
   * toggle's own statement returned.
   */
  reposts: { postId: string; userId: string; reposted: boolean; repostsCount: number };
  /** `userId` bookmarked or took back the bookmark of `postId`: only their own copies change. */
  bookmarks: { postId: string; userId: string };
  /** `userId` commented on `postId` (a deletion is a `postChanges` event). */
  comments: { postId: string; userId: string };
  /** `userId` favourited or unfavourited the medium `mediaId`. */
  favorites: { mediaId: string; userId: string };
  /** What others see of `userId` changed: their name, avatar, banner or bio. */
  profiles: { userId: string };
  /** `userId` followed, unfollowed, blocked, unblocked, muted or unmuted `otherId`. */
  relations: {
    userId: string;
    otherId: string;
    kind: 'follow' | 'unfollow' | 'block' | 'unblock' | 'mute' | 'unmute';
  };
  /** An account left or came back into sight: deleted, suspended, or its suspension lifted. */
  accounts: { userId: string; change: 'deleted' | 'suspended' | 'reinstated' };
  /**
   * Sessions ended: one (`sessionId`), or all of a user's but `exceptSessionId` (a password
   * change keeps the caller's own). Caches drop them and sockets on them close.
   */
  sessions: { userId: string; sessionId?: string; exceptSessionId?: string };
  /**
   * Direct messages, addressed to `userId` (a send tells the sender's tabs and the receiver's):
   * a new message, the peer read my messages (`read`), my unread count changed, or `fromId` is
   * typing to me (never stored).
   */
  messages:
    | { userId: string; kind: 'message'; messageId: string }
    | { userId: string; kind: 'read'; peerId: string }
    | { userId: string; kind: 'unread' }
    | { userId: string; kind: 'typing'; fromId: string; active: boolean };
  /**
   * A Cubey answer grew or ended. `text` is all of it after the first `from` characters, which
   * are saved in the database, so a receiver that joins late loses nothing; `status` on the last.
   */
  cubey: {
    userId: string;
    messageId: string;
    from: number;
    text: string;
    status?: 'done' | 'stopped' | 'failed';
    error?: string;
    /** How many look-ups the answer has saved, when a new one was (they are read from the row). */
    lookups?: number;
  };
  /** Stop generating this Cubey answer, on whichever instance runs it. */
  cubeyStop: { messageId: string };
  /**
   * A Cubey session of `userId` changed: it was created, an answer started or ended in it.
   * `updatedAt` is the session's new `updated_at` (microseconds), the id a subscriber resumes from.
   */
  cubeySessions: { userId: string; sessionId: string; updatedAt: string };
  /** `userId` subscribed a browser to pushes, or took one back: whether a push reaches them changed. */
  pushSubscriptions: { userId: string };
}

export type Topic = keyof EventTopics;

/**
 * How the other instances hear a topic, where it is not event by event. Likes, comments and
 * favourites come too often for a NOTIFY each: this process's caches hear every one, and the
 * other instances hear one `feed` event per FEED_EVENT_WINDOW_MS (trailing edge, so the last
 * write of a burst is always announced), which drops what those caches kept of counts.
 */
export const OTHER_INSTANCES: { [T in Topic]?: 'feed' } = {
  likes: 'feed',
  comments: 'feed',
  favorites: 'feed',
};

/** At most one `feed` event per bus in this window: see OTHER_INSTANCES. */
export const FEED_EVENT_WINDOW_MS = 100;

/**
 * The key a topic's events are addressed by, where they have one: a subscription for one user
 * hears only that user's events without every other socket's listener looking at them.
 */
const KEYS: { [T in Topic]?: (payload: EventTopics[T]) => string } = {
  notifications: (p) => p.recipientId,
  sessions: (p) => p.userId,
  messages: (p) => p.userId,
  cubey: (p) => p.userId,
  cubeySessions: (p) => p.userId,
  // The member who acted: their own tabs hear their follows (follows.onChange).
  relations: (p) => p.userId,
};

function keyOf(topic: Topic, payload: unknown): string | undefined {
  const key = KEYS[topic] as ((p: unknown) => string) | undefined;
  return key?.(payload);
}

export interface SubscribeOptions {
  /** Ends the iteration. */
  signal?: AbortSignal;
  /** Only events with this key (the recipient of `notifications`, the user of `sessions`). */
  key?: string;
}

/** A delivered event: `local` when this process published it. */
export interface BusEvent<T extends Topic = Topic> {
  topic: T;
  payload: EventTopics[T];
  local: boolean;
  /**
   * Sent with its write (`publish` with a transaction, `notifySql`): delivered at the commit, which
   * may be before the writer reads the commit's answer and calls `sentWithWrite`.
   */
  withWrite: boolean;
}

/** Runs one SQL statement (`?` placeholders): an EntityManager in a transaction is one. */
export interface SqlExecutor {
  execute(sql: string, params: unknown[]): Promise<unknown>;
}

export interface EventBus {
  /**
   * Sends to every instance, this one included. Resolves once the bus has taken it. Given the
   * transaction of the write it announces (`tx`), the PostgreSQL bus sends it with that write:
   * delivered at the commit, before the writer can answer its client, and never if it rolls back.
   */
  publish<T extends Topic>(topic: T, payload: EventTopics[T], tx?: SqlExecutor): Promise<void>;
  /**
   * Delivers to this process's listeners only (as `local`), never to other instances, after the
   * caller's turn: for the topics of OTHER_INSTANCES, which the other instances hear as the windowed
   * `feed` event, so what follows from them here (a like's bell) still follows an event.
   */
  publishLocal<T extends Topic>(topic: T, payload: EventTopics[T]): void;
  /**
   * A bus in the database only: the SQL expression (`?` placeholders) that sends the event when a
   * statement evaluates it, delivered at that statement's commit, so a write and its events are
   * one round trip (`insert … returning …` wrapped in `select …, <sql> from inserted`). Without
   * it, publish after the write.
   */
  notifySql?<T extends Topic>(topic: T, payload: EventTopics[T]): { sql: string; params: unknown[] };
  /** Calls `listener` for each event of `topic`; returns the function that stops it. */
  on<T extends Topic>(topic: T, listener: (event: BusEvent<T>) => void): () => void;
  /**
   * The events of `topic` (with `key`, only those addressed to it) as an async iterable for a
   * subscription's generator; it ends when `signal` aborts. Events are queued from the moment
   * of the call, so a subscription that subscribes first and then reads the database misses
   * nothing in between.
   */
  subscribe<T extends Topic>(topic: T, options?: SubscribeOptions): AsyncIterable<EventTopics[T]>;
  /**
   * Called after the bus lost its connection and got it back: events sent in between are gone,
   * so caches drop everything. Returns the function that stops it.
   */
  onReconnect(listener: () => void): () => void;
  /** Whether events from other instances can reach this process now (readiness); absent: always. */
  listening?(): boolean;
  close(): Promise<void>;
}

/**
 * The wire form of an event: topic, payload, the publishing process, when it was sent (ms) and
 * its number in that process (PostgreSQL delivers identical payloads of one transaction once,
 * and several events can share a statement: pg-event-bus.ts), and `w: 1` when it was sent with
 * its write (BusEvent's `withWrite`).
 */
export interface Envelope {
  t: Topic;
  p: unknown;
  o: string;
  s?: number;
  n?: number;
  w?: 1;
}

export const MAX_PAYLOAD_BYTES = 7_900;
/** Events one subscription may hold unread before the oldest are dropped. */
export const MAX_QUEUED = 1_000;

let sequence = 0;

export function encodeEnvelope(origin: string, topic: Topic, payload: unknown, withWrite = false): string {
  sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
  const text = JSON.stringify({
    t: topic,
    p: payload,
    o: origin,
    s: Date.now(),
    n: sequence,
    ...(withWrite ? { w: 1 as const } : {}),
  } satisfies Envelope);
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) {
    throw new Error(`Event on '${topic}' is too large for the bus: send ids, not rows`);
  }
  return text;
}

export function decodeEnvelope(text: string): Envelope | null {
  try {
    const value = JSON.parse(text) as Partial<Envelope>;
    return typeof value.t === 'string' && typeof value.o === 'string' ? (value as Envelope) : null;
  } catch {
    return null;
  }
}

/**
 * The local half every bus shares: listeners by topic, async iteration, reconnect listeners.
 * Implementations call `deliver` for each event that reaches this process.
 */
export class LocalDispatch {
  readonly origin = randomUUID();
  private readonly emitter = new EventEmitter();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {
    // Each open subscription is a listener; thousands of sockets are normal.
    this.emitter.setMaxListeners(0);
  }

  deliver(envelope: Envelope): void {
    const event: BusEvent = {
      topic: envelope.t,
      payload: envelope.p as never,
      local: envelope.o === this.origin,
      withWrite: envelope.w === 1,
    };
    const listeners = this.emitter.listeners(envelope.t);
    const key = keyOf(envelope.t, envelope.p);
    if (key !== undefined) listeners.push(...this.emitter.listeners(`${envelope.t}:${key}`));
    // A throwing listener must not stop the others (nor the bus's connection handler).
    for (const listener of listeners) {
      try {
        (listener as (e: BusEvent) => void)(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  /** An event of this process for its own listeners only, delivered on a later microtask. */
  deliverLocal(topic: Topic, payload: unknown): void {
    queueMicrotask(() => this.deliver({ t: topic, p: payload, o: this.origin }));
  }

  reconnected(): void {
    this.emitter.emit('reconnect');
  }

  on<T extends Topic>(topic: T, listener: (event: BusEvent<T>) => void, key?: string): () => void {
    const name = key === undefined ? topic : `${topic}:${key}`;
    this.emitter.on(name, listener as (e: BusEvent) => void);
    return () => this.emitter.off(name, listener as (e: BusEvent) => void);
  }

  onReconnect(listener: () => void): () => void {
    this.emitter.on('reconnect', listener);
    return () => this.emitter.off('reconnect', listener);
  }

  /**
   * Registers the listener at once (a generator's body would run only at its first next()), so
   * nothing published between this call and the first read is missed. A consumer that falls
   * more than MAX_QUEUED events behind loses the oldest: consumers reload state from the
   * database, they do not count on every event.
   */
  subscribe<T extends Topic>(
    topic: T,
    { signal, key }: SubscribeOptions = {},
  ): AsyncIterable<EventTopics[T]> {
    const queue: EventTopics[T][] = [];
    let wake: (() => void) | null = null;
    const stopListening = this.on(
      topic,
      (event) => {
        if (queue.length >= MAX_QUEUED) queue.shift();
        queue.push(event.payload);
        wake?.();
      },
      key,
    );
    const onAbort = () => {
      stopListening();
      wake?.();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    async function* drain(): AsyncGenerator<EventTopics[T]> {
      try {
        while (!signal?.aborted) {
          const next = queue.shift();
          if (next !== undefined) {
            yield next;
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = null;
        }
      } finally {
        stopListening();
        signal?.removeEventListener('abort', onAbort);
      }
    }
    return drain();
  }
}

/** In one process only: for unit tests, and for a single instance with no database bus. */
export function createMemoryEventBus(): EventBus {
  const local = new LocalDispatch();
  let closed = false;
  return {
    async publish(topic, payload, tx) {
      if (closed) return;
      const envelope = decodeEnvelope(encodeEnvelope(local.origin, topic, payload, tx !== undefined));
      // Asynchronous like a real bus: a publisher never runs listeners inside its own call.
      if (envelope) setImmediate(() => local.deliver(envelope));
    },
    publishLocal(topic, payload) {
      if (!closed) local.deliverLocal(topic, payload);
    },
    on: (topic, listener) => local.on(topic, listener),
    subscribe: (topic, options) => local.subscribe(topic, options),
    onReconnect: (listener) => local.onReconnect(listener),
    async close() {
      closed = true;
    },
  };
}
