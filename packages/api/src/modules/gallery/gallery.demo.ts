/**
 * The demo gallery: AI media items whose images are drawn here, procedurally (SVG rendered by
 * sharp), and stored as public uploads of their creators, so the demo needs no network and no
 * outside URL. A seeded random generator keeps every fresh start the same.
 */
import { randomUUID } from 'node:crypto';
import { AiMedia, User } from '@cubes/db';
import type { StorageDriver } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import sharp from 'sharp';
import { createPublicImage } from '../objects/objects.service.js';
import type { AiMediaTypeValue } from './gallery.schema.js';

/** mulberry32: small, fast, deterministic. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SIZES: [number, number][] = [
  [640, 480],
  [480, 640],
  [600, 600],
  [640, 360],
  [480, 720],
];

/** One picture per type: shapes for art, a waveform for music, cubes for fun, a frame for video. */
export function demoMediaSvg(type: AiMediaTypeValue, seed: number, width: number, height: number): string {
  const rnd = random(seed);
  const hue = Math.floor(rnd() * 360);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">',
    `<stop offset="0" stop-color="hsl(${hue} 70% 55%)"/>`,
    `<stop offset="1" stop-color="hsl(${(hue + 70 + Math.floor(rnd() * 90)) % 360} 65% 30%)"/>`,
    `</linearGradient></defs><rect width="${width}" height="${height}" fill="url(#g)"/>`,
  ];
  if (type === 'art') {
    for (let i = 0; i < 14; i += 1) {
      const h = (hue + Math.floor(rnd() * 180)) % 360;
      const x = rnd() * width;
      const y = rnd() * height;
      const r = 20 + rnd() * Math.min(width, height) * 0.3;
      parts.push(
        rnd() < 0.5
          ? `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}" fill="hsl(${h} 80% 65%)" fill-opacity="${(0.25 + rnd() * 0.5).toFixed(2)}"/>`
          : `<polygon points="${x.toFixed(1)},${(y - r).toFixed(1)} ${(x + r).toFixed(1)},${(y + r).toFixed(1)} ${(x - r).toFixed(1)},${(y + r).toFixed(1)}" fill="hsl(${h} 75% 60%)" fill-opacity="${(0.2 + rnd() * 0.5).toFixed(2)}"/>`,
      );
    }
  } else if (type === 'music') {
    const bars = 48;
    const w = width / bars;
    for (let i = 0; i < bars; i += 1) {
      const amp = (0.15 + 0.7 * Math.abs(Math.sin(i / (3 + rnd() * 2)) * (0.6 + rnd() * 0.4))) * height * 0.5;
      parts.push(
        `<rect x="${(i * w + w * 0.15).toFixed(1)}" y="${(height / 2 - amp).toFixed(1)}" width="${(w * 0.7).toFixed(1)}" height="${(amp * 2).toFixed(1)}" rx="${(w * 0.3).toFixed(1)}" fill="#fff" fill-opacity="${(0.45 + rnd() * 0.4).toFixed(2)}"/>`,
      );
    }
  } else if (type === 'fun') {
    const size = Math.min(width, height) / 5;
    for (let i = 0; i < 9; i += 1) {
      const cx = rnd() * width;
      const cy = rnd() * height;
      const s = size * (0.5 + rnd());
      parts.push(
        `<g transform="translate(${cx.toFixed(1)} ${cy.toFixed(1)})" stroke="#fff" stroke-width="2" stroke-linejoin="round">`,
        `<path d="M0 ${-s} ${s} ${-s / 2} 0 0 ${-s} ${-s / 2}Z" fill="#fff" fill-opacity=".55"/>`,
        `<path d="M${-s} ${-s / 2} 0 0v${s}L${-s} ${s / 2}Z" fill="#fff" fill-opacity=".3"/>`,
        `<path d="M${s} ${-s / 2} 0 0v${s}l${s} ${-s / 2}Z" fill="#fff" fill-opacity=".12"/></g>`,
      );
    }
  } else {
    const cx = width / 2;
    const cy = height / 2;
    const r = Math.min(width, height) * 0.14;
    for (let x = 0; x < width; x += 40) {
      parts.push(`<rect x="${x + 8}" y="10" width="22" height="16" rx="3" fill="#000" fill-opacity=".45"/>`);
      parts.push(
        `<rect x="${x + 8}" y="${height - 26}" width="22" height="16" rx="3" fill="#000" fill-opacity=".45"/>`,
      );
    }
    // A still from the film (hills under a sun), not a play button: the gallery plays nothing.
    const ground = height * 0.72;
    parts.push(
      `<circle cx="${(cx + r * 1.4).toFixed(1)}" cy="${(cy - r * 0.6).toFixed(1)}" r="${(r * 0.7).toFixed(1)}" fill="#fff" fill-opacity=".7"/>`,
      `<path d="M0 ${ground.toFixed(1)} Q${(width * 0.25).toFixed(1)} ${(ground - r * 2).toFixed(1)} ${(width * 0.5).toFixed(1)} ${ground.toFixed(1)} T${width} ${ground.toFixed(1)} V${height - 30} H0Z" fill="#000" fill-opacity=".35"/>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}

const TITLES: Record<AiMediaTypeValue, string[]> = {
  art: [
    'Neon Lighthouse at Dusk',
    'Voxel Garden in Bloom',
    'Crystal Cavern',
    'Sunset over Cube City',
    'Paper Cranes in Flight',
    'Café on the Corner',
    'Aurora Borealis Study',
    'Geometric Koi Pond',
    'Desert Mirage',
    'Midnight Library',
    'Isometric Harbour',
    'Origami Mountains',
  ],
  music: [
    'Lo-fi Rain Loop',
    'Synthwave Sunrise',
    'Piano for Late Nights',
    'Chiptune Adventure Theme',
    'Ambient Forest Drones',
    'Jazz Café Session',
    'Drum Machine Sketch',
    'Ocean Waves Lullaby',
    'Cube Beat No. 7',
    'Orchestral Dawn',
    'Bassline Study',
  ],
  fun: [
    'Cubes Doing Yoga',
    'A Cat Made of Blocks',
    'Tiny Robot Birthday',
    'Pixel Pizza Party',
    'Dancing Dice',
    'Snowman in July',
    'Rubber Duck Fleet',
    'Penguin on Vacation',
    'Cube Juggling Contest',
    'Zebrafish Disco',
    'Sleepy Dragon',
  ],
  video: [
    'Timelapse: Building a Voxel Castle',
    'Flythrough of the Crystal Cavern',
    'How Cubes Learn to Fly',
    'Morning in Cube City',
    'The Making of Neon Lighthouse',
    'Loop: Rotating Cube Tower',
    'Rainy Window Ambience',
    'Trailer: Block Quest',
    'Stop Motion Cube Ballet',
    'Northern Lights Drift',
    'Kaleidoscope Journey',
  ],
};

export interface DemoCreator {
  id: string;
}

/** Stores one image per demo item and writes the items, spread over the last `spanHours`; their ids, newest first. */
export async function seedDemoGallery(
  em: EntityManager,
  storage: StorageDriver,
  creators: readonly DemoCreator[],
  now: Date,
  spanHours = 150,
): Promise<string[]> {
  const items = (Object.keys(TITLES) as AiMediaTypeValue[]).flatMap((type) =>
    TITLES[type].map((title) => ({ type, title })),
  );
  // Interleave types so the newest page already shows all of them.
  items.sort((a, b) => TITLES[a.type].indexOf(a.title) - TITLES[b.type].indexOf(b.title));
  const ids: string[] = [];
  for (const [i, item] of items.entries()) {
    const [width, height] = SIZES[i % SIZES.length]!;
    const creator = creators[i % creators.length]!;
    const createdAt = new Date(now.getTime() - ((i + 1) * spanHours * 3_600_000) / (items.length + 1));
    const png = await sharp(Buffer.from(demoMediaSvg(item.type, i + 1, width, height)))
      .png()
      .toBuffer();
    const imageUrl = await createPublicImage(em, storage, creator.id, png, createdAt);
    const id = randomUUID();
    em.create(AiMedia, {
      id,
      type: item.type,
      title: item.title,
      imageUrl,
      width,
      height,
      creator: em.getReference(User, creator.id),
      favoritesCount: 0,
      createdAt,
    });
    ids.push(id);
  }
  await em.flush();
  return ids;
}
