/** Live subscriptions open over WebSockets now, on prom-client's default registry. */
import { Gauge, register } from 'prom-client';

export const liveSubscriptions =
  (register.getSingleMetric('cubes_live_subscriptions') as Gauge | undefined) ??
  new Gauge({ name: 'cubes_live_subscriptions', help: 'tRPC subscriptions open over WebSockets' });
