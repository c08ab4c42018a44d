/**
 * Starts `server.ts` (the real app on `appPort`, a bare Fastify route on `barePort`) in a child
 * process against `databaseUrl`, the way every HTTP benchmark measures both in one run, and
 * resolves once both listen. BENCH_CPU_PROF=dir writes a V8 CPU profile of that process there;
 * BENCH_SERVER=/other/checkout/bench/src/server.ts runs that checkout's app instead (an A/B in turn).
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function startBenchServer(
  databaseUrl: string,
  appPort: number,
  barePort: number,
): Promise<ChildProcess> {
  // BENCH_SERVER: another checkout's bench/src/server.ts (its app), for an A/B with this bench.
  const server = fork(process.env.BENCH_SERVER ?? path.join(here, 'server.ts'), [], {
    // As `pnpm start` runs the server (apps/server/package.json).
    execArgv: [
      '--max-semi-space-size=32',
      ...(process.env.BENCH_TRACE_GC ? ['--trace-gc'] : []),
      ...(process.env.BENCH_EXEC_ARGV ?? '').split(' ').filter(Boolean),
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_APP_PORT: String(appPort),
      BENCH_BARE_PORT: String(barePort),
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('message', () => resolve());
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return server;
}
