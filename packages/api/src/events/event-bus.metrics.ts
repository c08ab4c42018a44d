/**
 * The PostgreSQL event bus's Prometheus metrics, on prom-client's default registry: events sent
 * and received per topic, reconnects, whether the listener is connected, and the delivery lag
 * (receipt time minus the sent-at time in the envelope, so across machines it includes their
 * clock difference).
 */
import { Counter, Gauge, Histogram, register } from 'prom-client';

function once<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

export const busSent = once(
  'cubes_bus_events_sent_total',
  () =>
    new Counter({
      name: 'cubes_bus_events_sent_total',
      help: 'Events this process sent on the bus (NOTIFY), by topic',
      labelNames: ['topic'] as const,
    }),
);

export const busReceived = once(
  'cubes_bus_events_received_total',
  () =>
    new Counter({
      name: 'cubes_bus_events_received_total',
      help: 'Events this process heard on the bus (its own included), by topic',
      labelNames: ['topic'] as const,
    }),
);

export const busReconnects = once(
  'cubes_bus_reconnects_total',
  () =>
    new Counter({
      name: 'cubes_bus_reconnects_total',
      help: 'Times the bus listener lost its connection and got it back',
    }),
);

export const busListening = once(
  'cubes_bus_listening',
  () => new Gauge({ name: 'cubes_bus_listening', help: '1 while the bus listener is connected, else 0' }),
);

export const busLag = once(
  'cubes_bus_delivery_lag_seconds',
  () =>
    new Histogram({
      name: 'cubes_bus_delivery_lag_seconds',
      help: 'From an event being sent to this process hearing it',
      labelNames: ['topic'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
);
