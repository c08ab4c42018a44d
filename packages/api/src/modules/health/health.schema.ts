/** The health and readiness answers (see post.schema.ts on response schemas). Imports only zod. */
import { z } from 'zod';

/** Liveness: the process answers. Nothing is looked up, so `ok` is always true. */
export const healthResult = z.strictObject({ ok: z.literal(true) });

/** The readiness checks, each true when it passes. */
export const readinessChecks = z.strictObject({
  /** `select 1` answered within READY_DB_TIMEOUT_MS */
  database: z.boolean(),
  /** The event bus listener is connected */
  bus: z.boolean(),
  /** No migration of this build is missing from the database */
  migrations: z.boolean(),
  /** The process is not shutting down (SIGTERM not received) */
  running: z.boolean(),
});

/** `ready` is false (and the REST status 503) when any check fails; `failed` names them. */
export const readyResult = z.strictObject({
  ready: z.boolean(),
  checks: readinessChecks,
  failed: z.array(readinessChecks.keyof()),
});

export type ReadyResult = z.infer<typeof readyResult>;
