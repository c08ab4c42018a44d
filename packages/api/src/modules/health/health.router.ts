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
