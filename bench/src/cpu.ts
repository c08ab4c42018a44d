/**
 * CPU time from /proc, for the benchmarks that print what each party used: the app's processes,
 * PostgreSQL's, the load generator (this process) and the rest of the machine.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuSample {
  at: number;
  app: number;
  pg: number;
  generator: number;
  busy: number;
}

/** CPU ms a process has used (utime + stime, in 1/100 s). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU ms every PostgreSQL process running now has used so far (pool connections stay open). */
export function postgresCpuMs(): number {
  let ms = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // gone between the listing and the read
    }
  }
  return ms;
}

/**
 * CPU ms one PostgreSQL cluster has used: its postmaster and every process it started (backends,
 * WAL writer, checkpointer…), and none of the other clusters on the machine.
 */
export function clusterCpuMs(postmasterPid: number): number {
  let ms = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(pid) !== postmasterPid && Number(fields[1]) !== postmasterPid) continue;
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // gone between the listing and the read
    }
  }
  return ms;
}

/** CPU ms the whole machine has been busy (every core, all but idle and iowait). */
function machineBusyMs(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = ticks.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  return ((n.slice(0, 8).reduce((a, b) => a + b, 0) - idle) * 1000) / 100;
}

/** Samples every 250 ms until stopped. */
export function startCpuSampler(appPids: number[]): { samples: CpuSample[]; stop(): void } {
  const samples: CpuSample[] = [];
  const sample = () => {
    const own = process.cpuUsage();
    samples.push({
      at: Date.now(),
      app: appPids.reduce((ms, pid) => ms + cpuMs(pid), 0),
      pg: postgresCpuMs(),
      generator: (own.user + own.system) / 1000,
      busy: machineBusyMs(),
    });
  };
  sample();
  const timer = setInterval(sample, 250);
  return { samples, stop: () => clearInterval(timer) };
}

/** Cores each party used between the samples around [from, to). */
export function coresBetween(samples: CpuSample[], from: number, to: number): string {
  const first = [...samples].reverse().find((s) => s.at <= from) ?? samples[0];
  const last = samples.find((s) => s.at >= to) ?? samples.at(-1);
  if (!first || !last || last.at <= first.at) return 'no CPU samples';
  const ms = last.at - first.at;
  const cores = (a: number, b: number) => ((b - a) / ms).toFixed(2);
  const rest =
    last.busy -
    first.busy -
    (last.app - first.app) -
    (last.pg - first.pg) -
    (last.generator - first.generator);
  return `cores: app ${cores(first.app, last.app)}, PostgreSQL ${cores(first.pg, last.pg)}, generator ${cores(first.generator, last.generator)}, rest ${(Math.max(0, rest) / ms).toFixed(2)}`;
}
