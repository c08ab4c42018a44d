import { createTRPCRouter, publicProcedure } from '../../trpc.js';

export const healthRouter = createTRPCRouter({
  check: publicProcedure.query(async ({ ctx }) => {
    let db = false;
    try {
      await ctx.em.getConnection().execute('select 1');
      db = true;
    } catch {
      db = false;
    }
    return { ok: db, db };
  }),
});
