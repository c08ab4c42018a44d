/**
 * A Vite plugin that writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside
 * every compressible file of the build, once, so the server sends them as they are
 * (`@fastify/static` with `preCompressed`) instead of compressing on each request. Formats that
 * are compressed already (woff2, images) are left alone, and so is index.html: the server puts a
 * fresh nonce in it on every answer and compresses that answer itself. A copy that would not be
 * smaller than its file is not written.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const TEXT = /\.(?:js|mjs|css|svg|html|json|webmanifest|txt|xml|map)$/;
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|html|json|webmanifest|txt|xml|map|ico|ttf|otf)$/;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Every file under `dir` (relative paths), skipping Vite's own `.vite` folder. */
async function files(dir: string, under = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, under), { withFileTypes: true })) {
    const relative = path.join(under, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') found.push(...(await files(dir, relative)));
    } else found.push(relative);
  }
  return found;
}

/** Writes `.br` and `.gz` copies beside the compressible files of `dir`; returns what it wrote. */
export async function precompressDir(dir: string): Promise<{ files: number; raw: number; br: number }> {
  const chosen = (await files(dir)).filter((f) => COMPRESSIBLE.test(f) && f !== 'index.html');
  let raw = 0;
  let br = 0;
  await Promise.all(
    chosen.map(async (file) => {
      const full = path.join(dir, file);
      const bytes = await readFile(full);
      const [brotliBytes, gzipBytes] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            [constants.BROTLI_PARAM_MODE]: TEXT.test(file)
              ? constants.BROTLI_MODE_TEXT
              : constants.BROTLI_MODE_GENERIC,
          },
        }),
        gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      raw += bytes.length;
      if (brotliBytes.length < bytes.length) {
        await writeFile(`${full}.br`, brotliBytes);
        br += brotliBytes.length;
      } else br += bytes.length;
      if (gzipBytes.length < bytes.length) await writeFile(`${full}.gz`, gzipBytes);
    }),
  );
  return { files: chosen.length, raw, br };
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'cubes:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const dir = path.resolve(config.root, config.build.outDir);
      const { files: n, raw, br } = await precompressDir(dir);
      config.logger.info(
        `precompressed ${n} files: ${(raw / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB brotli (+ gzip)`,
      );
    },
  };
}
