/**
 * The event bus on PostgreSQL LISTEN/NOTIFY: one listening connection per process, which
 * reconnects by itself, and a small pool that sends NOTIFYs. Every instance on the same database
 * hears every event, its own included, so a process handles its own events the same way as
 * anyone else's (listeners that already acted locally check `event.local`).
 *
 * Events published outside a transaction leave in batches, one statement at a time: those
 * published while a statement is out (or in the same turn of the event loop, as a like's event
 * and its author's bell) go together in the next one. Each NOTIFY was its own round trip, and a
 * round trip wakes a backend on a core the app shares (bench/README.md, "The bus's sends"); one
 * statement at a time also keeps this process's events in the order they were published.
 */
import pg from 'pg';
import { decodeEnvelope, type EventBus, encodeEnvelope, LocalDispatch, type Topic } from './event-bus.js';
import { busLag, busListening, busReceived, busReconnects, busSent } from './event-bus.metrics.js';

export const EVENT_CHANNEL = 'cubes_events';
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;
/** Events one statement sends at most (each payload is under MAX_PAYLOAD_BYTES). */
const MAX_BATCH = 100;

interface Outgoing {
  topic: Topic;
  text: string;
  sent: () => void;
  failed: (error: unknown) => void;
}

export interface PgEventBusOptions {
  connectionString: string;
  /** Where connection trouble and failing listeners are reported. */
  onError?: (message: string, error: unknown) => void;
}

export async function createPgEventBus({
  connectionString,
  onError = () => {},
}: PgEventBusOptions): Promise<EventBus> {
  const local = new LocalDispatch((error) => onError('event listener failed', error));
  const sender = new pg.Pool({ connectionString, max: 2, application_name: 'cubes-events' });
  sender.on('error', (error) => onError('event bus sender connection failed', error));
  let listener: pg.Client | null = null;
  let closed = false;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString, application_name: 'cubes-events-listen' });
    client.on('notification', (message) => {
      if (message.channel !== EVENT_CHANNEL || !message.payload) return;
      const envelope = decodeEnvelope(message.payload);
      if (!envelope) return;
      busReceived.inc({ topic: envelope.t });
      if (typeof envelope.s === 'number') {
        busLag.observe({ topic: envelope.t }, Math.max(0, Date.now() - envelope.s) / 1000);
      }
      local.deliver(envelope);
    });
    client.on('error', (error) => {
      onError('event bus listener connection failed', error);
      lost(client);
    });
    client.on('end', () => lost(client));
    await client.connect();
    await client.query(`listen ${EVENT_CHANNEL}`);
    listener = client;
    busListening.set(1);
    retryMs = RETRY_MIN_MS;
  }

  function lost(client: pg.Client): void {
    if (listener !== client || closed) return;
    listener = null;
    busListening.set(0);
    client.end().catch(() => {});
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().then(
        () => {
          busReconnects.inc();
          local.reconnected();
        },
        (error: unknown) => {
          onError('event bus could not reconnect', error);
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
          scheduleReconnect();
        },
      );
    }, retryMs);
    retryTimer.unref();
  }

  await connect();

  const outgoing: Outgoing[] = [];
  let sending: Promise<void> | null = null;
  let scheduled = false;

  /** Sends what waits, one statement at a time; the next goes when this one is answered. */
  function sendWaiting(): void {
    scheduled = false;
    if (sending || outgoing.length === 0) return;
    const batch = outgoing.splice(0, MAX_BATCH);
    sending = sender
      .query('select pg_notify($1, e) from unnest($2::text[]) as e', [
        EVENT_CHANNEL,
        batch.map((o) => o.text),
      ])
      .then(
        () => {
          for (const o of batch) {
            busSent.inc({ topic: o.topic });
            o.sent();
          }
        },
        (error: unknown) => {
          for (const o of batch) o.failed(error);
        },
      )
      .finally(() => {
        sending = null;
        sendWaiting();
      });
  }

  return {
    async publish(topic, payload, tx) {
      if (closed) return;
      const text = encodeEnvelope(local.origin, topic, payload, tx !== undefined);
      if (tx) {
        await tx.execute('select pg_notify(?, ?)', [EVENT_CHANNEL, text]);
        busSent.inc({ topic });
        return;
      }
      await new Promise<void>((sent, failed) => {
        outgoing.push({ topic, text, sent, failed });
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(sendWaiting);
        }
      });
    },
    publishLocal(topic, payload) {
      if (!closed) local.deliverLocal(topic, payload);
    },
    // Counted when the statement is built: it is sent if that statement commits.
    notifySql: (topic, payload) => {
      busSent.inc({ topic });
      return {
        sql: 'pg_notify(?, ?)',
        params: [EVENT_CHANNEL, encodeEnvelope(local.origin, topic, payload, true)],
      };
    },
    listening: () => listener !== null && !closed,
    on: (topic, fn) => local.on(topic, fn),
    subscribe: (topic, options) => local.subscribe(topic, options),
    onReconnect: (fn) => local.onReconnect(fn),
    async close() {
      closed = true;
      busListening.set(0);
      if (retryTimer) clearTimeout(retryTimer);
      // What was published before the close still leaves.
      while (sending || outgoing.length > 0) {
        if (!sending) sendWaiting();
        await sending;
      }
      const client = listener;
      listener = null;
      await Promise.allSettled([client?.end(), sender.end()]);
    },
  };
}
