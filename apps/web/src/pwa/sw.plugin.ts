/**
 * Vite plugin that writes the service worker (service-worker.js) to dist/sw.js at build time,
 * with the list of files it precaches and a version that changes with any of them, after the
 * push notifications' words (push-texts.ts, its types stripped). Runs in Node (vite.config.ts),
 * never in the browser.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, transformWithOxc } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.join(here, 'service-worker.js');
const texts = path.join(here, 'push-texts.ts');

/**
 * The worker's code: push-texts.ts as plain script (types stripped, its `export`s plain
 * declarations: a worker script has no modules), then service-worker.js.
 */
export async function workerSource(): Promise<string> {
  const { code } = await transformWithOxc(readFileSync(texts, 'utf8'), texts, { lang: 'ts' });
  const plain = code.replace(/^export (?=(?:const|let|function) )/gm, '');
  if (/^\s*(?:export|import)\b/m.test(plain)) {
    throw new Error('push-texts.ts must import nothing and export only consts and functions');
  }
  return `${plain}\n${readFileSync(source, 'utf8')}`;
}

/** Precached: the app's code and styles, and the Latin font; other font subsets are cached on use. */
function precached(file: string): boolean {
  if (file.endsWith('.map') || file.startsWith('.vite/')) return false;
  if (file.endsWith('.woff2')) return /-latin-wght/.test(file);
  return true;
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

export function serviceWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'cubes-service-worker',
    apply: 'build',
    // After Vite's own plugins, so index.html is in the bundle and counts in the version.
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    async generateBundle(_options, bundle) {
      const hash = createHash('sha256');
      const files: string[] = [];
      for (const [file, output] of Object.entries(bundle)) {
        if (!precached(file)) continue;
        // index.html is precached as the shell, '/' (the server's answer, with its CSP).
        if (file !== 'index.html') files.push(`/${file}`);
        hash.update(output.type === 'chunk' ? output.code : output.source);
      }
      for (const file of publicDir ? listFiles(publicDir) : []) {
        if (file === 'sw.js') continue;
        files.push(`/${file}`);
        hash.update(readFileSync(path.join(publicDir, file)));
      }
      const worker = await workerSource();
      hash.update(worker);
      files.sort();
      const version = hash.digest('hex').slice(0, 16);
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: `self.__CUBES_VERSION__ = ${JSON.stringify(version)};\nself.__CUBES_PRECACHE__ = ${JSON.stringify(files)};\n${worker}`,
      });
    },
  };
}
