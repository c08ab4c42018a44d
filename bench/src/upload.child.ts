/**
 * The parent's side of src/upload.server.ts: forks the real app into a child process, waits until
 * it listens, and asks it for RSS figures over the IPC channel. Shared by the upload and export
 * benches, which measure the child's memory.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ChildMessage {
  type: string;
  address?: string;
  root?: string;
  rss?: number;
  peak?: number;
}

export interface UploadChild {
  process: ChildProcess;
  /** The app's base URL. */
  address: string;
  /** Its local storage directory. */
  root: string;
  /** Sends `type` ('reset', 'rss') and waits for the answer of that type. */
  ask: (type: string) => Promise<ChildMessage>;
  /** The kernel's peak resident set of the child (VmHWM), in bytes. */
  vmHwm: () => number;
  stop: () => Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export async function startUploadChild(databaseUrl: string): Promise<UploadChild> {
  const child = fork(path.join(here, 'upload.server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
  });
  const ready = await new Promise<ChildMessage>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ChildMessage));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return {
    process: child,
    address: ready.address!,
    root: ready.root ?? '',
    ask: (type) =>
      new Promise((resolve) => {
        const onMessage = (m: ChildMessage) => {
          if (m.type !== type) return;
          child.off('message', onMessage);
          resolve(m);
        };
        child.on('message', onMessage);
        child.send({ type });
      }),
    vmHwm() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
