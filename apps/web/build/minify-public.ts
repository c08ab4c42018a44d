/**
 * A Vite plugin that minifies the classic scripts public/ holds (theme-init.js, intl-warmup.js,
 * start-after-paint.js), which Vite copies into dist/ as they are: with their comments, which every
 * first page sent (1.7 KB of 5 raw, 0.8 KB of 2 Brotli). They stay readable in public/; the
 * build's copies are Vite's own minifier's (Oxc), before precompress.ts writes their `.br` and
 * `.gz` copies.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { minify, type Plugin, type ResolvedConfig } from 'vite';

export function minifyPublicScripts(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'cubes:minify-public-scripts',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      sequential: true,
      async handler() {
        const publicDir = config.publicDir;
        if (!publicDir) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const scripts = (await readdir(publicDir)).filter((name) => name.endsWith('.js'));
        for (const name of scripts) {
          const file = path.join(outDir, name);
          const result = await minify(name, await readFile(file, 'utf8'), { compress: true, mangle: true });
          if (result.errors.length > 0)
            throw new Error(`${name}: ${result.errors.map((e) => e.message).join('; ')}`);
          await writeFile(file, result.code);
        }
      },
    },
  };
}
