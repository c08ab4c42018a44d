/**
 * Operator commands, run on the server's machine: `npm run admin -- <command> <username>`.
 *   make-moderator <username>    grant the moderator role (there is no UI for it)
 *   revoke-moderator <username>  make them a member again
 * The database is the server's: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR/pg (or
 * PG_DATA_DIR), whether the server is running on it or not.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setRole } from '@cubes/api';
import { initOrm, isModeratorRole, resolveDatabase } from '@cubes/db';
import { readEnv } from './env.js';

const COMMANDS = { 'make-moderator': 'moderator', 'revoke-moderator': 'member' } as const;

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(
    'Usage: npm run admin -- make-moderator <username>\n       npm run admin -- revoke-moderator <username>',
  );
  process.exit(2);
}

/**
 * The URL of an embedded PostgreSQL the server already runs on `dataDir` (read from its
 * postmaster.pid and our credentials file), or null when none is running there.
 */
function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const credentialsFile = path.join(dataDir, 'cubes-credentials.json');
  if (!existsSync(pidFile) || !existsSync(credentialsFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  const port = Number(lines[3]);
  const { user, password } = JSON.parse(readFileSync(credentialsFile, 'utf8')) as {
    user: string;
    password: string;
  };
  return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/cubes`;
}

const [command, username, ...rest] = process.argv.slice(2);
if (!command || !(command in COMMANDS)) usage(command ? `Unknown command: ${command}` : undefined);
if (!username || rest.length > 0) usage('Give exactly one username.');

const env = readEnv();
// An empty PG_DATA_DIR means unset: path.resolve('') would be the working directory.
const dataDir = path.resolve(env.PG_DATA_DIR || path.join(env.DATA_DIR, 'pg'));
const running = env.DATABASE_URL ? null : runningEmbeddedUrl(dataDir);
const database = running
  ? { url: running, embedded: null }
  : await resolveDatabase({ databaseUrl: env.DATABASE_URL, dataDir, port: env.PG_PORT });
const orm = await initOrm({ clientUrl: database.url });
let code = 0;
try {
  const role = COMMANDS[command as keyof typeof COMMANDS];
  const user = await setRole(orm.em.fork(), username, role);
  if (user) {
    console.log(`${user.username} is now ${isModeratorRole(role) ? 'a moderator' : 'a member'}.`);
  } else {
    console.error(`No member is called ${username}.`);
    code = 1;
  }
} finally {
  await orm.close();
  await database.embedded?.stop();
}
process.exit(code);
