/**
 * The e2e suite's server: the real production server (built web app + API + embedded PostgreSQL)
 * on a fresh data directory, so every run starts from the same demo community (its members, posts
 * and gallery, as a first `npm start` makes them; the specs register their own members). Outgoing mail (password
 * reset codes) goes to a local SMTP receiver that appends each message as a JSON line to
 * e2e/.data/mail.jsonl, where the tests read it.
 *
 * With E2E_CUBEY_MODEL=1 Cubey talks to a local model that asks for tool calls (fake-model.mjs)
 * instead of the offline assistant; cubey-tools.spec.ts starts such a second server, on a port
 * and in a data directory (E2E_DATA_DIR) of its own.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { startFakeModel } from './fake-model.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const dataDir = process.env.E2E_DATA_DIR
  ? path.resolve(here, process.env.E2E_DATA_DIR)
  : path.join(here, '.data');
const mailFile = path.join(dataDir, 'mail.jsonl');
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
writeFileSync(mailFile, '');

function headerValue(raw, name) {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  // Unfold continuation lines, then find the header.
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

const smtp = new SMTPServer({
  secure: false,
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('error', callback);
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const to = session.envelope.rcptTo.map((r) => r.address);
      appendFileSync(mailFile, `${JSON.stringify({ to, subject: headerValue(raw, 'Subject'), raw })}\n`);
      callback();
    });
  },
});
await new Promise((resolve, reject) => {
  smtp.once('error', reject);
  smtp.listen(0, '127.0.0.1', resolve);
});
const smtpPort = smtp.server.address().port;

const fakeModel = process.env.E2E_CUBEY_MODEL === '1' ? await startFakeModel() : null;

// The built server, as `npm start` runs it (turbo's e2e task builds it first).
const serverMain = path.join(root, 'apps/server/dist/main.js');
if (!existsSync(serverMain)) {
  console.error(`No built server at ${serverMain}: run \`pnpm build\` (turbo's e2e task does).`);
  process.exit(1);
}
const server = spawn(process.execPath, ['--enable-source-maps', serverMain], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PG_PORT: '0',
    // The demo community: the gallery has no upload path of its own, so its spec needs the demo's.
    SEED_DEMO: process.env.SEED_DEMO ?? '1',
    // Many registrations from one address within minutes; limits stay on, just wider.
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? '50',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // No metrics listener: two e2e runs side by side would both want 9464.
    METRICS_PORT: process.env.METRICS_PORT ?? '0',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Cubes AI <no-reply@cubes.test>',
    // Cubey's offline assistant, slowed down so a test can reload or stop mid-answer.
    CUBEY_OFFLINE_DELAY_MS: process.env.CUBEY_OFFLINE_DELAY_MS ?? '60',
    CUBEY_OFFLINE_THINK_MS: process.env.CUBEY_OFFLINE_THINK_MS ?? '700',
    // Link cards of pages a spec serves on 127.0.0.1 (link-cards.spec.ts).
    LINK_PREVIEW_ALLOW_PRIVATE: '1',
    ...(fakeModel ? { CUBEY_BASE_URL: fakeModel.url, CUBEY_MODEL: 'e2e-tools' } : {}),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill('SIGTERM'));
server.on('exit', (code) => {
  smtp.close();
  fakeModel?.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
