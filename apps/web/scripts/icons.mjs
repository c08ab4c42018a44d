/**
 * Makes the app's icons from our logo (public/favicon.svg's cube on the violet-to-cyan gradient):
 * favicon.ico (16, 32, 48), apple-touch-icon.png (180), and the manifest's icons/icon-192.png,
 * icons/icon-512.png and icons/icon-maskable-512.png. Run once when the logo changes
 * (`pnpm --filter @cubes/web exec node scripts/icons.mjs`); the files are committed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');
const logo = readFileSync(path.join(publicDir, 'favicon.svg'));

const GRADIENT =
  '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8b5cf6"/><stop offset="1" stop-color="#06b6d4"/></linearGradient></defs>';
const CUBE =
  '<path d="M16 6.5 24.5 11v10L16 25.5 7.5 21V11Z M7.5 11 16 15.5 24.5 11M16 15.5v10" fill="none" stroke="#fff" stroke-width="2" stroke-linejoin="round"/>';

/** A square, edge-to-edge gradient with the cube scaled to `scale` of it (platforms round or mask it). */
function fullBleed(scale) {
  const offset = 16 * (1 - scale);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${GRADIENT}<rect width="32" height="32" fill="url(#g)"/><g transform="translate(${offset} ${offset}) scale(${scale})">${CUBE}</g></svg>`,
  );
}

const png = (svg, size) =>
  sharp(svg, { density: 72 * (size / 32) * 2 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();

/** An .ico holding PNG images (every browser since IE 11 reads them). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.data)]);
}

const out = (name, data) => {
  writeFileSync(path.join(publicDir, name), data);
  console.log(`${name}: ${data.length} bytes`);
};
out(
  'favicon.ico',
  ico(await Promise.all([16, 32, 48].map(async (size) => ({ size, data: await png(logo, size) })))),
);
out('apple-touch-icon.png', await png(fullBleed(0.75), 180));
out('icons/icon-192.png', await png(logo, 192));
out('icons/icon-512.png', await png(logo, 512));
// Maskable: the platform may crop to a circle of 80 % of the side; the cube stays inside it.
out('icons/icon-maskable-512.png', await png(fullBleed(0.6), 512));
