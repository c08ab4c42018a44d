/**
 * Real server processes for the operations and job tests: free port ranges, one instance started
 * as `npm start` starts it (src/main.ts under tsx), waiting for it, and reading its metrics.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * How long a server process may take to start before the test gives up: a guard against a hang,
 * not a timing (a start takes seconds alone, and over 60 s with two CPU hogs on a busy two-core
 * machine).
 */
export const START_BOUND_MS = 300_000;

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive free ports, drawn below Linux's ephemeral range (32768 and
 * up): a server process takes seconds to listen after the probe, and meanwhile a port of that
 * range can become the local end of any outgoing connection or `listen(0)` of a test running
 * beside it (EADDRINUSE seen in CI with two server test files at a time).
 */
export async function freePorts(count: number): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * (12_700 - count));
    let free = true;
    for (let k = 0; k < count && free; k++) free = await portFree(port + k);
    if (free) return port;
  }
  throw new Error(`no ${count} free ports`);
}

/** Polls `url` until it answers 200 (a poll on state: its bound only says when a failure shows). */
export async function waitFor200(url: string, timeoutMs: number, output: string[] = []): Promise<void> {
  try {
    await vi.waitFor(
      async () => {
        if (!(await fetch(url)).ok) throw new Error('not 200 yet');
      },
      { timeout: timeoutMs, interval: 100 },
    );
  } catch {
    throw new Error(`${url} not 200 in ${timeoutMs} ms\n${output.join('')}`);
  }
}

export interface ServerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** `node --import tsx src/main.ts` with `env` over the test's own environment. */
export function startServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/**
 * The first match of `pattern` in a server's output, as soon as the chunk that completes it
 * arrives (the process's own output events, no polling); rejects when the process ends first, or
 * after `timeoutMs` (a guard against a hang, not a timing).
 */
export function outputMatch(
  server: ServerProcess,
  pattern: RegExp,
  timeoutMs = START_BOUND_MS,
): Promise<RegExpExecArray> {
  const { child, output } = server;
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('exit', ended);
    };
    // startServer's own listeners come first: `output` already holds the chunk when this runs.
    const check = () => {
      const match = pattern.exec(output.join(''));
      if (!match) return;
      done();
      resolve(match);
    };
    const ended = () => {
      check();
      done();
      reject(new Error(`no ${pattern} (exit ${child.exitCode ?? child.signalCode}):\n${output.join('')}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${pattern} in ${timeoutMs} ms:\n${output.join('')}`));
    }, timeoutMs);
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', ended);
    if (child.exitCode !== null || child.signalCode !== null) ended();
    else check();
  });
}

/** The address a server started with PORT=0 listens on, from its start-up log. */
export async function listeningAt(server: ServerProcess, timeoutMs = START_BOUND_MS): Promise<string> {
  const match = await outputMatch(server, /http:\/\/127\.0\.0\.1:(\d+)/, timeoutMs);
  return `http://127.0.0.1:${match[1]}`;
}

/**
 * `count` instances of the app on one database (`env` holds DATABASE_URL and the rest), started
 * one after the other, since the first applies the migrations, each on a port of its own. Each
 * is pushed into `servers` as it starts, so the caller's afterAll stops whatever did start.
 */
export async function startInstances(
  env: Record<string, string>,
  servers: ServerProcess[],
  count = 2,
): Promise<string[]> {
  const bases: string[] = [];
  for (let i = 0; i < count; i += 1) {
    // The listening line is an info line.
    const server = startServer({ PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'info', ...env });
    servers.push(server);
    bases.push(await listeningAt(server));
  }
  return bases;
}

export async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGINT');
  await server.exited;
}

/** One sample of Prometheus text: the value of `name` whose labels include all of `labels`. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  let total: number | null = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.startsWith(`${name}{`) ? line.slice(name.length + 1, line.lastIndexOf('}')) : '';
    const found = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) {
      total = (total ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return total;
}

/** Every value of one label across a metric's lines. */
export function labelValues(text: string, name: string, label: string): Set<string> {
  const values = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const match = line.match(new RegExp(`${label}="([^"]*)"`));
    if (match) values.add(match[1]!);
  }
  return values;
}
