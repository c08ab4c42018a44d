#!/usr/bin/env node
/**
 * First run of `docker compose`: writes .env from .env.example, with a random value for every
 * password the example leaves empty (32 hex characters: letters and digits, safe in a URL).
 *   node scripts/compose-env.mjs [directory]    (default: the repository root)
 * An existing .env is kept: only the names it lacks (or leaves empty) are added, so running it
 * again never changes a password a database was created with. .env is written mode 600, and the
 * values are never printed.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const examplePath = path.join(dir, '.env.example');
const envPath = path.join(dir, '.env');
const LINE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;

/** name → value of the assignments in a .env text (comments and blank lines skipped). */
function parse(text) {
  const values = new Map();
  for (const line of text.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (m) values.set(m[1], m[2].trim());
  }
  return values;
}

if (!existsSync(examplePath)) {
  console.error(`compose-env: ${examplePath} not found`);
  process.exit(1);
}
const example = readFileSync(examplePath, 'utf8');
const existingText = existsSync(envPath) ? readFileSync(envPath, 'utf8') : null;
const existing = parse(existingText ?? '');

const generated = [];
const added = [];
const lines = [];
for (const [name, value] of parse(example)) {
  if (existing.get(name)) continue;
  if (value === '') {
    lines.push(`${name}=${randomBytes(16).toString('hex')}`);
    generated.push(name);
  } else {
    lines.push(`${name}=${value}`);
    added.push(name);
  }
}

/** `text` with each empty assignment of a name in `filled` set, and the rest of `filled` appended. */
function fill(text, filled) {
  const placed = new Set();
  const out = text.split(/\r?\n/).map((line) => {
    const m = LINE.exec(line);
    const name = m ? m[1] : null;
    if (name === null || m[2].trim() !== '' || !filled.has(name) || placed.has(name)) return line;
    placed.add(name);
    return filled.get(name);
  });
  const rest = [...filled].filter(([name]) => !placed.has(name)).map(([, line]) => line);
  if (rest.length === 0) return out.join('\n');
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return `${[...out, ...rest].join('\n')}\n`;
}

const filled = new Map(lines.map((l) => [l.slice(0, l.indexOf('=')), l]));
if (existingText === null) {
  // The example as it is (comments too), with its empty values filled in.
  const secrets = new Map([...filled].filter(([name]) => generated.includes(name)));
  writeFileSync(envPath, fill(example, secrets), { mode: 0o600 });
} else if (lines.length > 0) {
  writeFileSync(envPath, fill(existingText, filled), { mode: 0o600 });
}
chmodSync(envPath, 0o600);

const rel = path.relative(process.cwd(), envPath) || envPath;
if (existingText === null) console.log(`compose-env: wrote ${rel}`);
else if (lines.length === 0) console.log(`compose-env: ${rel} already has every setting; nothing changed`);
else console.log(`compose-env: added to ${rel}: ${[...generated, ...added].join(', ')}`);
if (generated.length > 0) console.log(`compose-env: random values for ${generated.join(', ')} (not shown)`);
