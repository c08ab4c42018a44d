/**
 * Fails when the checked-in catalogs (src/locales) do not hold exactly the messages the source uses
 * (issue #50): runs Lingui's extractor into a directory of its own (I18N_CATALOGS, read by
 * lingui.config.ts) and compares. The fix it names: `pnpm --filter @cubes/web i18n:extract`, then
 * translate what is new in de and ar (catalogs.test.ts checks that every message is translated).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readCatalog } from '../src/locales/catalogs.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'cubes-catalogs-'));
try {
  execFileSync('lingui', ['extract', '--clean', '--locale', 'en'], {
    env: { ...process.env, I18N_CATALOGS: dir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const used = await readCatalog('en', dir);
  const kept = await readCatalog('en');
  const missing = [...used.entries()].filter(([id]) => !kept.has(id)).map(([, entry]) => entry);
  const unused = [...kept.entries()].filter(([id]) => !used.has(id)).map(([, entry]) => entry);
  for (const entry of missing)
    console.error(
      `missing from the catalogs: ${JSON.stringify(entry.message)} (${entry.origins.join(', ')})`,
    );
  for (const entry of unused)
    console.error(`in the catalogs, used nowhere: ${JSON.stringify(entry.message)}`);
  if (missing.length || unused.length) {
    console.error('run: pnpm --filter @cubes/web i18n:extract, and translate what is new in de and ar');
    process.exit(1);
  }
  console.log(`catalogs: ${kept.size} messages, as the source uses them`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
