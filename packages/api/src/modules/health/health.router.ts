/**
 * The health procedures: liveness (`check`, the process answers; nothing is looked up) and
 * readiness (`ready`, for load balancers and rolling restarts). Each declares its `.output()`
 * schema once; the service holds the rules, and a REST row (health.rest.ts)
 * says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, sharedProcedure } from '../../trpc.js';
import { healthResult, readyResult } from './health.schema.js';
import { checkReadiness } from './health.service.js';

export const healthRouter = createTRPCRouter({
  // The same for everyone, and only true as it is asked: no cache may keep either.
  check: sharedProcedure('no-store')
    .output(output(healthResult))
    .query(() => ({ ok: true as const })),
  ready: sharedProcedure('no-store')
    .output(output(readyResult))
    .query(({ ctx }) => checkReadiness(ctx)),
});
