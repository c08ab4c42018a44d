/**
 * docker-compose.yml carries no password: every credential is a `${NAME:?…}` reference to .env
 * (compose refuses to start without it), .env.example names each one with an empty value, .env is
 * git-ignored, and the MinIO console listens on 127.0.0.1 only. scripts/compose-env.mjs writes
 * a .env with random passwords, mode 600, and never changes one that is already set.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const compose = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const example = readFileSync(path.join(root, '.env.example'), 'utf8');
const SECRET_NAME = /(PASSWORD|SECRET|ACCESS_KEY|SECRET_KEY|ROOT_USER)$/;
const REQUIRED = /\$\{([A-Z_][A-Z0-9_]*):\?[^}]+\}/g;

/** `NAME: value` lines of every `environment:` block. */
function environment(): [string, string][] {
  return [...compose.matchAll(/^\s+([A-Z][A-Z0-9_]*):\s*(.+?)\s*$/gm)].map((m) => [m[1]!, m[2]!]);
}

function envFile(text: string): Map<string, string> {
  return new Map(
    [...text.matchAll(/^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/gm)].map(
      (m) => [m[1]!, m[2]!.trim()] as [string, string],
    ),
  );
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function stackDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cubes-compose-'));
  dirs.push(dir);
  copyFileSync(path.join(root, 'docker-compose.yml'), path.join(dir, 'docker-compose.yml'));
  copyFileSync(path.join(root, '.env.example'), path.join(dir, '.env.example'));
  return dir;
}
function composeEnv(dir: string): string {
  return execFileSync(process.execPath, [path.join(root, 'scripts/compose-env.mjs'), dir], {
    encoding: 'utf8',
  });
}

describe('docker-compose.yml', () => {
  it('takes every credential from .env, never a literal', () => {
    const credentials = environment().filter(([name]) => SECRET_NAME.test(name));
    expect(credentials.map(([name]) => name).sort()).toEqual(
      [
        'MINIO_ROOT_PASSWORD',
        'MINIO_ROOT_USER',
        'POSTGRES_PASSWORD',
        'S3_ACCESS_KEY',
        'S3_SECRET_KEY',
      ].sort(),
    );
    for (const [name, value] of credentials) expect(value, name).toMatch(/^\$\{[A-Z_]+:\?[^}]+\}$/);
    const url = environment().find(([name]) => name === 'DATABASE_URL')?.[1];
    expect(url).toMatch(/^postgres:\/\/cubes:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/cubes$/);
    // The old literals are gone.
    expect(compose).not.toMatch(/cubes-minio-secret|cubes:cubes@|POSTGRES_PASSWORD: cubes\b/);
  });

  it('publishes the MinIO console on 127.0.0.1 only', () => {
    const ports = [...compose.matchAll(/^\s+- "([^"]+)"/gm)].map((m) => m[1]!);
    const console = ports.filter((p) => p.endsWith(':9001'));
    expect(console).toEqual(['127.0.0.1:9001:9001']);
    expect(compose).toContain('--console-address :9001');
  });

  it('names every required variable in .env.example, passwords left empty, and git ignores .env', () => {
    const required = new Set([...compose.matchAll(REQUIRED)].map((m) => m[1]!));
    const names = envFile(example);
    for (const name of required) expect(names.has(name), name).toBe(true);
    for (const [name, value] of names) if (/PASSWORD|SECRET/.test(name)) expect(value, name).toBe('');
    const ignored = spawnSync('git', ['check-ignore', '-q', '.env'], { cwd: root });
    if (ignored.status !== 128) expect(ignored.status).toBe(0); // 128: not a git checkout
    expect(readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n')).toContain('.env');
  });
});

describe('scripts/compose-env.mjs', () => {
  it('writes .env with random passwords, mode 600, and keeps what is set on a second run', () => {
    const dir = stackDir();
    const out = composeEnv(dir);
    const envPath = path.join(dir, '.env');
    const first = envFile(readFileSync(envPath, 'utf8'));
    expect(statSync(envPath).mode & 0o777).toBe(0o600);
    expect(first.get('POSTGRES_PASSWORD')).toMatch(/^[0-9a-f]{32}$/);
    expect(first.get('MINIO_ROOT_PASSWORD')).toMatch(/^[0-9a-f]{32}$/);
    expect(first.get('MINIO_ROOT_PASSWORD')).not.toBe(first.get('POSTGRES_PASSWORD'));
    expect(first.get('MINIO_ROOT_USER')).toBe('cubes');
    expect(out).not.toContain(first.get('POSTGRES_PASSWORD')!); // never printed
    expect(out).not.toContain(first.get('MINIO_ROOT_PASSWORD')!);

    const before = readFileSync(envPath, 'utf8');
    composeEnv(dir);
    expect(readFileSync(envPath, 'utf8')).toBe(before);

    // A .env of one's own: a set password stays, an empty or missing one is filled in.
    writeFileSync(envPath, 'POSTGRES_PASSWORD=mine0123\nMINIO_ROOT_PASSWORD=\n');
    composeEnv(dir);
    const mixed = envFile(readFileSync(envPath, 'utf8'));
    expect(mixed.get('POSTGRES_PASSWORD')).toBe('mine0123');
    expect(mixed.get('MINIO_ROOT_PASSWORD')).toMatch(/^[0-9a-f]{32}$/);
    expect(mixed.get('MINIO_ROOT_USER')).toBe('cubes');
    expect(readFileSync(envPath, 'utf8').match(/^MINIO_ROOT_PASSWORD=/gm)).toHaveLength(1);
  });

  // Offline check of the interpolation with the docker-compose CLI, where it is installed.
  const cli = ['/usr/bin/docker-compose', '/usr/local/bin/docker-compose'].find((f) => existsSync(f));
  it.skipIf(!cli)('docker-compose config: refused without .env, complete with the generated one', () => {
    const dir = stackDir();
    const without = spawnSync(cli!, ['config'], { cwd: dir, encoding: 'utf8' });
    expect(without.status).not.toBe(0);
    expect(without.stderr).toMatch(/set it in \.env/);
    composeEnv(dir);
    const env = envFile(readFileSync(path.join(dir, '.env'), 'utf8'));
    const resolved = execFileSync(cli!, ['config'], { cwd: dir, encoding: 'utf8' });
    expect(resolved).toContain(`POSTGRES_PASSWORD: ${env.get('POSTGRES_PASSWORD')}`);
    expect(resolved).toContain(
      `DATABASE_URL: postgres://cubes:${env.get('POSTGRES_PASSWORD')}@postgres:5432/cubes`,
    );
    expect(resolved).toContain('127.0.0.1:9001:9001');
  });
});
