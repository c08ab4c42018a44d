/**
 * Cubey's Prometheus metrics, on prom-client's default registry (the server serves it on its
 * metrics listener): answers running now, answers ended by status, and the streamed pieces
 * (one per token for an OpenAI-compatible stream, one per word for the offline assistant).
 */
import { Counter, Gauge, register } from 'prom-client';

function once<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

export const cubeyRunning = once(
  'cubes_cubey_answers_running',
  () => new Gauge({ name: 'cubes_cubey_answers_running', help: 'Cubey answers being generated now' }),
);

export const cubeyAnswers = once(
  'cubes_cubey_answers_total',
  () =>
    new Counter({
      name: 'cubes_cubey_answers_total',
      help: 'Cubey answers ended, by final status (done, stopped, failed)',
      labelNames: ['status'] as const,
    }),
);

export const cubeyTokens = once(
  'cubes_cubey_tokens_total',
  () =>
    new Counter({
      name: 'cubes_cubey_tokens_total',
      help: 'Pieces streamed by the Cubey provider (tokens of a model; words of the offline assistant)',
    }),
);

export const cubeySpent = once(
  'cubes_cubey_usage_tokens_total',
  () =>
    new Counter({
      name: 'cubes_cubey_usage_tokens_total',
      help: "Tokens Cubey's model requests spent in this process (the provider's usage, or estimated)",
    }),
);
