/**
 * The health procedures: the health check operators and load balancers call. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (apps/server/src/rest/routes.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, publicProcedure } from '../../trpc.js';
import { databaseAnswers } from './health.repository.js';
import { healthResult } from './health.schema.js';

export const healthRouter = createTRPCRouter({
  check: publicProcedure.output(output(healthResult)).query(async ({ ctx }) => {
    const db = await databaseAnswers(ctx.em);
    return { ok: db, db };
  }),
});
