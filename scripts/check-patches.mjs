#!/usr/bin/env node
/**
 * Checks, before `pnpm install`, that every patch under `patchedDependencies` in
 * pnpm-workspace.yaml still names the version the workspace uses, and explains what to do when it
 * does not. pnpm 10 itself stops the install with terse errors: ERR_PNPM_UNUSED_PATCH after a
 * version bump (ERR_PNPM_OUTDATED_LOCKFILE under --frozen-lockfile), ERR_PNPM_PATCH_FAILED when
 * the file no longer applies to the package's content; `explainPatchFailure` turns the latter
 * into the same advice. scripts/run.mjs runs both; `node scripts/check-patches.mjs` on its own
 * runs the check.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `key: value` lines of one top-level block of pnpm-workspace.yaml (flat blocks only). */
function yamlBlock(text, name) {
  const entries = new Map();
  let inside = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inside = line.startsWith(`${name}:`);
    else if (inside) {
      const m = line.match(/^\s+(['"]?)(.+?)\1\s*:\s*(['"]?)(.+?)\3\s*(#.*)?$/);
      if (m) entries.set(m[2], m[4]);
    }
  }
  return entries;
}

/** `@scope/name@1.2.3` → ['@scope/name', '1.2.3'] */
function splitSpec(spec) {
  const at = spec.lastIndexOf('@');
  return at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, ''];
}

export function readPatches(dir = root) {
  const workspace = readFileSync(path.join(dir, 'pnpm-workspace.yaml'), 'utf8');
  const catalog = yamlBlock(workspace, 'catalog');
  return [...yamlBlock(workspace, 'patchedDependencies')].map(([spec, file]) => {
    const [name, version] = splitSpec(spec);
    return { spec, name, version, file, catalogVersion: catalog.get(name) };
  });
}

function howToFix({ spec, name, file }, newVersion) {
  const target = `${name}@${newVersion ?? '<version>'}`;
  return [
    `To keep the change, make the patch again for ${target}:`,
    `  1. delete the "${spec}" line under patchedDependencies in pnpm-workspace.yaml, and ${file}`,
    '     (keep a copy to see what it changed), then: pnpm install',
    `  2. pnpm patch ${target}       # prints a folder holding the package as published`,
    '  3. make the same change there, then: pnpm patch-commit <that folder>',
    '     (writes the new patch file, its patchedDependencies line and the lockfile; it also',
    '     sorts pnpm-workspace.yaml: keep only the patchedDependencies change)',
    '  4. update the figures and the reason next to it (the comment above patchedDependencies,',
    '     bench/README.md) after measuring again with pnpm bench.',
    'Or drop it: step 1 alone.',
  ].join('\n');
}

/** Problems found without installing anything: missing files, versions that no longer match. */
export function checkPatches(dir = root) {
  const problems = [];
  const lockPath = path.join(dir, 'pnpm-lock.yaml');
  const lockfile = existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null;
  for (const patch of readPatches(dir)) {
    if (!existsSync(path.join(dir, patch.file))) {
      problems.push(`${patch.file} (patchedDependencies "${patch.spec}") does not exist.`);
    } else if (patch.catalogVersion && patch.catalogVersion !== patch.version) {
      problems.push(
        `${patch.file} was made for ${patch.name} ${patch.version}, but the catalog in ` +
          `pnpm-workspace.yaml now pins ${patch.name} ${patch.catalogVersion}; pnpm refuses to ` +
          `install with a patch that matches no package.\n${howToFix(patch, patch.catalogVersion)}`,
      );
    } else if (!patch.catalogVersion && lockfile && !lockfile.includes(`${patch.name}@${patch.version}`)) {
      problems.push(
        `${patch.file} was made for ${patch.name} ${patch.version}, which pnpm-lock.yaml no longer ` +
          `holds; pnpm refuses to install with a patch that matches no package.\n${howToFix(patch)}`,
      );
    }
  }
  return problems;
}

/** Advice for pnpm's output of a failed install, or null when no patch is to blame. */
export function explainPatchFailure(output, dir = root) {
  const failed = output.match(/ERR_PNPM_PATCH_FAILED\s+Could not apply patch (\S+)/);
  if (failed) {
    const patch = readPatches(dir).find((p) => failed[1].endsWith(p.file));
    if (patch)
      return (
        `${patch.file} no longer applies to ${patch.name} ${patch.version}: the package's files ` +
        `are not what the patch was made against.\n${howToFix(patch, patch.version)}`
      );
  }
  if (/ERR_PNPM_LOCKFILE_CONFIG_MISMATCH[^\n]*patchedDependencies/.test(output))
    return [
      'A patch file or its line under patchedDependencies in pnpm-workspace.yaml changed since ' +
        'pnpm-lock.yaml was written. Run pnpm install --no-frozen-lockfile and commit the ' +
        'lockfile with the patch. If pnpm then stops with ERR_PNPM_PATCH_FAILED, the patch no ' +
        'longer applies to its package.',
      ...readPatches(dir).map((patch) => howToFix(patch, patch.version)),
    ].join('\n');
  if (/ERR_PNPM_UNUSED_PATCH/.test(output))
    return 'A patch under patchedDependencies in pnpm-workspace.yaml matches no installed package: its version was changed. Run node scripts/check-patches.mjs for what to do.';
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkPatches();
  for (const p of problems) console.error(`\n${p}`);
  if (problems.length) process.exit(1);
  console.log(`patches: ${readPatches().length} checked, each names the version in use`);
}
