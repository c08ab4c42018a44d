/**
 * The reference topology on 127.0.0.1, in one temporary directory: a PostgreSQL primary and its
 * streaming standby (pg_basebackup -R), S3 on s3rver, N app instances (the production server,
 * `pnpm --filter @cubes/server start`) and nginx in front of them. Everything it starts is
 * recorded in <dir>/state.json, so `stopTopology` (or down.mjs, from another process) ends it all
 * and removes the directory, also after a failure half-way.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const deployDir = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(deployDir, '..');
/** The directory of the topology last brought up (by up.mjs or check.mjs), for down.mjs. */
export const pointerFile = path.join(tmpdir(), 'cubes-deploy.current');

const isRoot = process.getuid?.() === 0;
const PG_MAJOR = 15;
const pgBinDir = () => process.env.PG_BIN ?? `/usr/lib/postgresql/${PG_MAJOR}/bin`;
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

/** Installs a Debian package when its file is missing (root only); otherwise says what to install. */
function ensurePackage(file, pkg, log) {
  if (existsSync(file)) return;
  if (!isRoot)
    throw new Error(`${file} is missing: install the Debian package ${pkg} (apt-get install ${pkg})`);
  log(`installing ${pkg} (apt-get) …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, encoding: 'utf8' });
  if (r.status !== 0) {
    spawnSync('apt-get', ['update'], { env, stdio: 'ignore' });
    r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, encoding: 'utf8' });
  }
  if (r.status !== 0 || !existsSync(file)) throw new Error(`apt-get install ${pkg} failed:\n${r.stderr}`);
  // Debian's postinst may start a system-wide service; this topology runs its own.
  if (pkg.startsWith('nginx')) spawnSync(NGINX, ['-s', 'stop'], { stdio: 'ignore' });
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Runs a command to its end; throws with its output when it fails. */
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  }
  return r.stdout;
}

/** A PostgreSQL binary, as the `postgres` user when we are root (PostgreSQL refuses root). */
function pgCommand(tool, args) {
  const bin = path.join(pgBinDir(), tool);
  return isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}
function pgRun(tool, args, options) {
  const [cmd, full] = pgCommand(tool, args);
  return run(cmd, full, options);
}

function ownByPostgres(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!isRoot) return;
  const uid = Number(run('id', ['-u', 'postgres']).trim());
  const gid = Number(run('id', ['-g', 'postgres']).trim());
  chownSync(dir, uid, gid);
}

export async function waitFor(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One query on a fresh connection (the checks' monitoring reads). */
export async function query(url, sql, params = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Readiness of an instance (or of nginx in front): database, bus and migrations, not stopping. */
async function healthy(base) {
  const res = await fetch(`${base}/api/ready`);
  return res.ok;
}

function saveState(state) {
  writeFileSync(path.join(state.dir, 'state.json'), JSON.stringify(state, null, 2));
}

/** Starts a long-running process in its own process group, its output in <dir>/<name>.log. */
function startProcess(state, name, cmd, args, options = {}) {
  const out = openSync(path.join(state.dir, `${name}.log`), 'a');
  const child = spawn(cmd, args, { ...options, detached: true, stdio: ['ignore', out, out] });
  state.processes.push({ name, pid: child.pid });
  saveState(state);
  child.unref();
  return child;
}

export function logTail(state, name, lines = 30) {
  const file = path.join(state.dir, `${name}.log`);
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends `signal` to a process group started by startProcess. */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {}
}

/**
 * Brings the topology up. `instances` app processes, nginx on a free port. Resolves with the
 * running topology (its URLs and state); on any failure it stops what it started and throws.
 */
export async function startTopology({ instances = 3, build = true, log = console.log } = {}) {
  ensurePackage(path.join(pgBinDir(), 'pg_basebackup'), `postgresql-${PG_MAJOR}`, log);
  ensurePackage(NGINX, 'nginx-light', log);

  const dir = mkdtempSync(path.join(tmpdir(), 'cubes-deploy-'));
  chmodSync(dir, 0o755); // the postgres user reaches its data directories inside
  const state = { dir, pgBin: pgBinDir(), processes: [], pgData: [], nginxConf: null };
  saveState(state);
  // down.mjs finds it there, also when the script that started it was killed.
  writeFileSync(pointerFile, dir);
  try {
    await bringUp(state, { instances, build, log });
    return state;
  } catch (error) {
    await stopTopology(state);
    throw error;
  }
}

async function bringUp(state, { instances, build, log }) {
  const { dir } = state;
  const secret = () => randomBytes(16).toString('hex');
  const passwords = { postgres: secret(), cubes: secret(), replicator: secret() };
  const [primaryPort, standbyPort, s3Port, nginxPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const appPorts = [];
  for (let i = 0; i < instances; i++) appPorts.push(await freePort());

  if (build) {
    log('building (pnpm build) …');
    run('pnpm', ['build'], {
      cwd: repoRoot,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
    });
  }

  // S3: s3rver, in a process of its own.
  mkdirSync(path.join(dir, 's3'));
  startProcess(state, 's3rver', process.execPath, [path.join(deployDir, 's3rver.mjs')], {
    env: { ...process.env, S3_PORT: String(s3Port), S3_DIR: path.join(dir, 's3') },
  });
  const s3 = `http://127.0.0.1:${s3Port}`;

  // PostgreSQL primary: password logins over TCP, the superuser over its own socket.
  const pgDir = path.join(dir, 'pg');
  ownByPostgres(pgDir);
  const primaryData = path.join(pgDir, 'primary');
  const standbyData = path.join(pgDir, 'standby');
  const pwfile = path.join(pgDir, 'pw');
  writeFileSync(pwfile, `${passwords.postgres}\n`, { mode: 0o600 });
  if (isRoot) chownSync(pwfile, Number(run('id', ['-u', 'postgres']).trim()), 0);
  log(`PostgreSQL ${PG_MAJOR}: initdb, primary on :${primaryPort}`);
  pgRun('initdb', [
    '-D',
    primaryData,
    '-U',
    'postgres',
    `--pwfile=${pwfile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  rmSync(pwfile);
  const conf = [
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${pgDir}'`,
    'wal_level = replica',
    'max_wal_senders = 4',
    'max_replication_slots = 4',
    'hot_standby = on',
    "log_line_prefix = '%m [%p] %q%u@%d '",
  ].join('\n');
  writeFileSync(path.join(primaryData, 'postgresql.conf'), `\n${conf}\n`, { flag: 'a' });
  state.pgData.push(primaryData);
  saveState(state);
  // Both servers log every statement: the check tells which one answered a read.
  pgRun('pg_ctl', [
    '-D',
    primaryData,
    '-o',
    `-p ${primaryPort} -c log_statement=all`,
    '-l',
    path.join(pgDir, 'primary.log'),
    '-w',
    'start',
  ]);
  const psql = (port, db, sql) =>
    pgRun('psql', [
      '-h',
      pgDir,
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      db,
      '-v',
      'ON_ERROR_STOP=1',
      '-qAtc',
      sql,
    ]);
  psql(primaryPort, 'postgres', `create role cubes login password '${passwords.cubes}'`);
  psql(primaryPort, 'postgres', 'create database cubes owner cubes');
  psql(
    primaryPort,
    'postgres',
    `create role replicator login replication password '${passwords.replicator}'`,
  );
  // Extensions the migrations use, made by the superuser (the app's role owns its database only).
  psql(
    primaryPort,
    'cubes',
    'create extension pg_trgm; create extension unaccent; create extension fuzzystrmatch',
  );

  // The standby: a base backup streamed from the primary, -R writes standby.signal and primary_conninfo.
  log(`PostgreSQL ${PG_MAJOR}: pg_basebackup -R, streaming standby on :${standbyPort}`);
  pgRun(
    'pg_basebackup',
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'replicator',
      '-D',
      standbyData,
      '-R',
      '-X',
      'stream',
      '-C',
      '-S',
      'standby1',
      '--checkpoint=fast',
    ],
    { env: { ...process.env, PGPASSWORD: passwords.replicator } },
  );
  state.pgData.push(standbyData);
  saveState(state);
  pgRun('pg_ctl', [
    '-D',
    standbyData,
    '-o',
    `-p ${standbyPort} -c log_statement=all -c cluster_name=standby1`,
    '-l',
    path.join(pgDir, 'standby.log'),
    '-w',
    'start',
  ]);
  const url = (user, port, db = 'cubes') => `postgres://${user}:${passwords[user]}@127.0.0.1:${port}/${db}`;
  state.databaseUrl = url('cubes', primaryPort);
  state.readUrl = url('cubes', standbyPort);
  state.primaryAdminUrl = url('postgres', primaryPort);
  state.standbyAdminUrl = url('postgres', standbyPort);
  await waitFor(
    'the standby to stream',
    async () =>
      (
        await query(state.primaryAdminUrl, 'select 1 from pg_stat_replication where state = $1', [
          'streaming',
        ])
      ).length === 1,
    30_000,
  );

  // The app instances: the first alone (it runs the migrations), then the rest together.
  const appEnv = (port, i) => ({
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: state.databaseUrl,
    DATABASE_READ_URL: state.readUrl,
    DATA_DIR: path.join(dir, 'app'),
    S3_ENDPOINT: s3,
    S3_PUBLIC_ENDPOINT: s3,
    S3_BUCKET: 'cubes',
    S3_ACCESS_KEY: 'S3RVER',
    S3_SECRET_KEY: 'S3RVER',
    TRUST_PROXY: '1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'info',
    // The check registers many members and sends hundreds of messages from one address.
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? '100',
    CUBES_DEPLOY_INSTANCE: String(i),
  });
  state.instances = appPorts.map((port, i) => ({
    name: `app${i + 1}`,
    port,
    base: `http://127.0.0.1:${port}`,
  }));
  const startApp = async (instance, i) => {
    log(`app ${instance.name}: pnpm --filter @cubes/server start on :${instance.port}`);
    const child = startProcess(state, instance.name, 'pnpm', ['--filter', '@cubes/server', 'start'], {
      cwd: repoRoot,
      env: appEnv(instance.port, i + 1),
    });
    instance.pid = child.pid;
    saveState(state);
    await waitFor(
      `${instance.name} on ${instance.base}/api/ready`,
      async () => {
        if (!alive(child.pid)) throw new Error('exited');
        return healthy(instance.base);
      },
      120_000,
    ).catch((error) => {
      throw new Error(`${error.message}\n${logTail(state, instance.name)}`);
    });
  };
  const started = performance.now();
  // All at once on the empty database: its migrations run under an advisory lock, one instance
  // migrating while the others wait (packages/db/src/orm.ts).
  await Promise.all(state.instances.map((instance, i) => startApp(instance, i)));
  state.appStartMs = Math.round(performance.now() - started);

  // nginx, in the foreground with its own prefix (its pid file and logs in the temporary directory).
  const nginxDir = path.join(dir, 'nginx');
  mkdirSync(nginxDir);
  const servers = state.instances
    .map((i) => `    server 127.0.0.1:${i.port} max_fails=1 fail_timeout=10s;`)
    .join('\n');
  const confText = readFileSync(path.join(deployDir, 'nginx.conf.template'), 'utf8')
    .replaceAll('{{DIR}}', nginxDir)
    .replaceAll('{{PORT}}', String(nginxPort))
    .replace('{{SERVERS}}', servers);
  state.nginxConf = path.join(nginxDir, 'nginx.conf');
  writeFileSync(state.nginxConf, confText);
  run(NGINX, ['-t', '-p', nginxDir, '-c', state.nginxConf]);
  log(`nginx on :${nginxPort} in front of ${state.instances.length} instances`);
  startProcess(state, 'nginx', NGINX, ['-p', nginxDir, '-c', state.nginxConf]);
  state.proxy = `http://127.0.0.1:${nginxPort}`;
  state.s3 = s3;
  saveState(state);
  await waitFor('nginx', () => healthy(state.proxy), 10_000);
}

/** Stops everything recorded in `state` (processes, then both PostgreSQL servers) and removes its directory. */
export async function stopTopology(state) {
  const running = state.processes.filter((p) => alive(p.pid));
  for (const p of running) killGroup(p.pid, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (running.some((p) => alive(p.pid)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  for (const p of running) if (alive(p.pid)) killGroup(p.pid, 'SIGKILL');
  for (const data of [...state.pgData].reverse()) {
    if (!existsSync(path.join(data, 'postmaster.pid'))) continue;
    const [cmd, args] = isRoot
      ? [
          'runuser',
          ['-u', 'postgres', '--', path.join(state.pgBin, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop'],
        ]
      : [path.join(state.pgBin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']];
    spawnSync(cmd, args, { stdio: 'ignore' });
  }
  rmSync(state.dir, { recursive: true, force: true });
  if (existsSync(pointerFile) && readFileSync(pointerFile, 'utf8').trim() === state.dir) rmSync(pointerFile);
}
