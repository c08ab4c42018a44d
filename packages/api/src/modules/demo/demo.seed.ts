/**
 * The demo community loaded on the first start of an empty database (unless SEED_DEMO=0): a few
 * members with posts (some with described images, #tags and @mentions, so the last day's tags
 * trend), likes, comments, follows, favourited gallery media and direct messages spread over the
 * last days. It goes through the same services as real requests (with the clock
 * set back), so counters and notifications come out as if the members had used the app; only the
 * direct messages are written as rows. Passwords are random and returned once for the start-up log.
 */

import { randomBytes } from 'node:crypto';
import { User } from '@cubes/db';
import type { StorageDriver } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import sharp from 'sharp';
import { type AuthedContext, createContextInner } from '../../context.js';
import { hashPassword } from '../auth/auth.password.js';
import { createComment } from '../comments/comment.service.js';
import { follow } from '../follows/follow.service.js';
import { demoMediaSvg, seedDemoGallery } from '../gallery/gallery.demo.js';
import { addFavorite } from '../gallery/gallery.service.js';
import { createPublicImage } from '../objects/objects.service.js';
import { createPost, likePost } from '../posts/post.service.js';

/** A stable hue per name, so each demo member keeps their colours across fresh starts. */
function hueOf(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/** A small isometric cube on a gradient (SVG), drawn locally: demo avatars need no network. */
export function cubeAvatarSvg(hue: number): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">',
    '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">',
    `<stop offset="0" stop-color="hsl(${hue} 80% 62%)"/>`,
    `<stop offset="1" stop-color="hsl(${(hue + 50) % 360} 75% 42%)"/>`,
    '</linearGradient></defs><rect width="96" height="96" fill="url(#g)"/>',
    '<g stroke="#fff" stroke-width="2" stroke-linejoin="round">',
    '<path d="M48 22 70 34 48 46 26 34Z" fill="#fff" fill-opacity=".5"/>',
    '<path d="M26 34 48 46v26L26 60Z" fill="#fff" fill-opacity=".28"/>',
    '<path d="M70 34 48 46v26l22-12Z" fill="#fff" fill-opacity=".12"/>',
    '</g></svg>',
  ].join('');
}

export interface DemoAccount {
  username: string;
  email: string;
  password: string;
}

const MEMBERS = [
  {
    username: 'alice',
    displayName: 'Alice Cubeworth',
    bio: 'Pixel artist. I build tiny worlds one cube at a time.',
  },
  {
    username: 'bruno',
    displayName: 'Bruno Blocksmith',
    bio: 'Weekend voxel tinkerer, weekday coffee enthusiast.',
  },
  { username: 'chen', displayName: 'Chen Li', bio: 'Prompt engineer by day, synth nerd by night.' },
  {
    username: 'dana',
    displayName: 'Dana Okafor',
    bio: 'Community host. Ask me about the weekly build challenge!',
  },
  { username: 'emil', displayName: 'Emil Sørensen', bio: '3D renders, low poly, high hopes.' },
  { username: 'farah', displayName: 'Farah Haddad', bio: 'Exploring AI music and generative art.' },
] as const;

type Member = (typeof MEMBERS)[number]['username'];

/** An image of a demo post: drawn like the gallery's 'fun' items, from a seed, at a size. */
interface DemoImage {
  seed: number;
  size: [number, number];
  alt: string;
}

interface DemoPost {
  by: Member;
  hoursAgo: number;
  content: string;
  images?: DemoImage[];
  likedBy: Member[];
  comments: [Member, string][];
}

const POSTS: DemoPost[] = [
  {
    by: 'dana',
    hoursAgo: 140,
    content: 'Welcome to Cubes AI! 🎲 Introduce yourself below and tell us what you like to build.',
    likedBy: ['alice', 'bruno', 'chen', 'emil', 'farah'],
    comments: [
      ['alice', 'Hi all! Pixel art and tiny isometric towns over here.'],
      ['farah', 'Hello! Mostly music experiments, some generative visuals.'],
    ],
  },
  {
    by: 'alice',
    hoursAgo: 128,
    content: 'Finished my first isometric lighthouse. 42 cubes, zero regrets. #pixelart',
    likedBy: ['dana', 'emil', 'bruno'],
    comments: [['emil', 'The shading on the lamp room is lovely.']],
  },
  {
    by: 'chen',
    hoursAgo: 115,
    content: 'Tip: describe the lighting first, then the subject. My prompts got twice as consistent.',
    likedBy: ['alice', 'farah', 'dana', 'emil'],
    comments: [
      ['bruno', 'Trying this tonight, thanks!'],
      ['farah', 'Same works for music prompts: mood first, instruments second.'],
    ],
  },
  {
    by: 'bruno',
    hoursAgo: 100,
    content: 'Coffee number three and my voxel cat finally has a tail. Progress.',
    likedBy: ['alice', 'dana'],
    comments: [['alice', 'Post the cat!']],
  },
  {
    by: 'farah',
    hoursAgo: 90,
    content:
      "Made a lo-fi loop entirely from cube sounds: tapping wood blocks, a dice cup, a Rubik's cube twist.",
    likedBy: ['chen', 'dana', 'emil'],
    comments: [],
  },
  {
    by: 'emil',
    hoursAgo: 76,
    content: 'Low poly mountain range, 300 triangles total. Sometimes less really is more.',
    likedBy: ['alice', 'chen'],
    comments: [['chen', 'That silhouette is fantastic.']],
  },
  {
    by: 'dana',
    hoursAgo: 64,
    content: 'This week\'s build challenge: "a place you would like to wake up in". Share yours by Sunday!',
    likedBy: ['alice', 'bruno', 'chen', 'farah'],
    comments: [
      ['bruno', 'A treehouse made of cubes, obviously.'],
      ['emil', 'Cabin by a frozen lake, coming up.'],
    ],
  },
  {
    by: 'alice',
    hoursAgo: 50,
    content:
      'Work in progress: a floating island market. Still deciding on the colour of the awnings. #pixelart',
    likedBy: ['farah', 'dana'],
    comments: [['farah', 'Teal awnings! Trust me.']],
  },
  {
    by: 'chen',
    hoursAgo: 40,
    content: 'Asked Cubey to explain keyset pagination like I am five. It used stacks of cubes. It worked.',
    likedBy: ['bruno', 'emil'],
    comments: [],
  },
  {
    by: 'emil',
    hoursAgo: 30,
    content: 'Challenge entry: a cabin by a frozen lake, lit by one warm window. #buildchallenge #lowpoly',
    likedBy: ['dana', 'alice', 'farah'],
    comments: [['dana', 'Cosy! This one is going on the highlights board.']],
  },
  {
    by: 'bruno',
    hoursAgo: 22,
    content: 'Challenge entry: the cube treehouse. Rope bridge included, safety rails not. #buildchallenge',
    images: [
      {
        seed: 2207,
        size: [640, 480],
        alt: 'A treehouse of stacked white cubes in a tree of green blocks, seen from the front.',
      },
      {
        seed: 2208,
        size: [480, 640],
        alt: 'The same treehouse from below: a rope bridge of thin cubes sags between two branches.',
      },
      {
        seed: 2209,
        size: [600, 600],
        alt: 'Close-up of the rope bridge. There are no safety rails.',
      },
    ],
    likedBy: ['dana', 'chen'],
    comments: [['alice', 'The rope bridge made me laugh, love it.']],
  },
  {
    by: 'farah',
    hoursAgo: 14,
    content: 'Does anyone have tips for making generated melodies less repetitive? #aimusic',
    likedBy: ['chen'],
    comments: [['chen', 'Vary the seed per bar and keep the chord progression fixed.']],
  },
  {
    by: 'dana',
    hoursAgo: 8,
    content:
      'Thank you all for the entries, @emil and @bruno included! Results of the #buildchallenge tomorrow morning. ☀️',
    likedBy: ['emil', 'bruno'],
    comments: [],
  },
  {
    by: 'alice',
    hoursAgo: 4,
    content: 'Teal awnings it is. @farah was right. #pixelart #buildchallenge',
    images: [
      {
        seed: 4101,
        size: [640, 360],
        alt: 'A floating island market of small cubes, its stalls under teal awnings.',
      },
      {
        seed: 4102,
        size: [640, 360],
        alt: 'The same market before: the awnings were orange.',
      },
    ],
    likedBy: ['farah'],
    comments: [['farah', 'Told you 😄']],
  },
  {
    by: 'chen',
    hoursAgo: 1,
    content: 'Morning! Anyone up for a prompt swap later today? #promptswap',
    likedBy: [],
    comments: [],
  },
];

const FOLLOWS: [Member, Member][] = [
  ['alice', 'dana'],
  ['alice', 'farah'],
  ['alice', 'emil'],
  ['bruno', 'alice'],
  ['bruno', 'dana'],
  ['chen', 'farah'],
  ['chen', 'dana'],
  ['dana', 'alice'],
  ['dana', 'chen'],
  ['emil', 'alice'],
  ['emil', 'dana'],
  ['farah', 'alice'],
  ['farah', 'chen'],
];

/**
 * A few direct conversations, oldest line first: [from, to, minutes ago]. Everything is read but
 * the last lines of a conversation marked `unread`, so each member finds a badge to clear.
 */
const CONVERSATIONS: { between: [Member, Member]; lines: [0 | 1, number, string][]; unread?: number }[] = [
  {
    between: ['dana', 'alice'],
    lines: [
      [0, 2 * 24 * 60, 'Hi Alice! Would you judge the build challenge with me this week?'],
      [1, 2 * 24 * 60 - 12, 'I would love to! Any rules for the judging?'],
      [0, 2 * 24 * 60 - 20, 'Creativity first, then how well the cubes tell a story.'],
      [1, 2 * 24 * 60 - 25, 'Perfect. Count me in 🎲'],
      [0, 9 * 60, 'Entries are in: 14 this week! Shortlist tomorrow?'],
      [1, 8 * 60, 'Yes, the frozen lake cabin is already on mine.'],
    ],
  },
  {
    between: ['bruno', 'alice'],
    lines: [
      [0, 26 * 60, 'Your lighthouse inspired my treehouse, thank you!'],
      [1, 25 * 60, 'Ha, glad to hear it. Post it when it is done!'],
      [0, 40, 'Done! Could you look at the rope bridge before I post?'],
      [0, 38, 'Honest opinion welcome 😅'],
    ],
    unread: 2,
  },
  {
    between: ['farah', 'chen'],
    lines: [
      [0, 15 * 60, 'Your seed-per-bar tip worked, the melody breathes now.'],
      [1, 14 * 60, 'Great! Keep the chords fixed and it stays coherent.'],
      [0, 13 * 60, 'Prompt swap later? I have a new one for ambient loops.'],
      [1, 50, 'Sure, after lunch. Sending mine now: "dusk, glass cubes, slow rain".'],
    ],
    unread: 1,
  },
  {
    between: ['emil', 'dana'],
    lines: [
      [0, 31 * 60, 'Is the cabin entry too dark? I can brighten the window.'],
      [1, 30 * 60, 'Keep it dark, the warm window is the point. It is lovely.'],
    ],
  },
];

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;
// Serialises two instances starting on the same empty database.
const SEED_LOCK = 482_913_517;

/**
 * Loads the demo community into an empty database and returns its accounts; null (and nothing
 * done) when the database has users already. Each member gets a cube avatar rendered to PNG and
 * stored as their own public upload in `storage`.
 */
export async function seedDemoCommunity(
  em: EntityManager,
  storage: StorageDriver,
  now = new Date(),
): Promise<DemoAccount[] | null> {
  return em.transactional(async (tem) => {
    await tem.execute('select pg_advisory_xact_lock(?)', [SEED_LOCK]);
    const [existing] = await tem.execute<{ any: boolean }[]>('select exists (select 1 from users) as any');
    if (existing?.any) return null;

    const at = (ms: number) => new Date(now.getTime() - ms);
    const accounts: DemoAccount[] = [];
    const users = [];
    for (const member of MEMBERS) {
      const password = randomBytes(12).toString('base64url');
      const email = `${member.username}@cubes.demo`;
      const user = tem.create(User, {
        username: member.username,
        displayName: member.displayName,
        email,
        bio: member.bio,
        avatarUrl: null, // set below, once the member's id exists to own the image
        emailVisible: false,
        passwordHash: await hashPassword(password),
        createdAt: at(7 * 24 * HOUR),
      });
      users.push(user);
      accounts.push({ username: member.username, email, password });
    }
    await tem.flush(); // ids are assigned on flush
    const ids = Object.fromEntries(users.map((u) => [u.username, u.id])) as Record<Member, string>;
    for (const user of users) {
      const png = await sharp(Buffer.from(cubeAvatarSvg(hueOf(user.username))))
        .png()
        .toBuffer();
      user.avatarUrl = await createPublicImage(tem, storage, user.id, png, at(7 * 24 * HOUR));
    }
    await tem.flush();

    const as = (member: Member, when: Date): AuthedContext => ({
      ...createContextInner({ em: tem, now: () => when }),
      session: { id: 'demo-seed', user: { id: ids[member], username: member } },
    });

    for (const [i, [follower, followee]] of FOLLOWS.entries()) {
      await follow(as(follower, at(150 * HOUR - i * 17 * MINUTE)), ids[followee]);
    }
    for (const post of POSTS) {
      const postedAt = at(post.hoursAgo * HOUR);
      const images = [];
      for (const image of post.images ?? []) {
        const png = await sharp(Buffer.from(demoMediaSvg('fun', image.seed, ...image.size)))
          .png()
          .toBuffer();
        images.push({
          objectPath: await createPublicImage(tem, storage, ids[post.by], png, postedAt),
          alt: image.alt,
        });
      }
      const { post: created } = await createPost(
        as(post.by, postedAt),
        images.length > 0 ? { content: post.content, images } : { content: post.content, imageUrl: null },
      );
      // Reactions follow the post by minutes, spread so the newest post's land before "now".
      const step = Math.min(
        9 * MINUTE,
        (post.hoursAgo * HOUR) / (post.likedBy.length + post.comments.length + 2),
      );
      let offset = step;
      for (const liker of post.likedBy) {
        await likePost(as(liker, new Date(postedAt.getTime() + offset)), created.id);
        offset += step;
      }
      for (const [author, content] of post.comments) {
        await createComment(as(author, new Date(postedAt.getTime() + offset)), {
          postId: created.id,
          content,
        });
        offset += step;
      }
    }
    // The gallery: items spread over the week, some favourited more than others.
    const mediaIds = await seedDemoGallery(tem, storage, users, at(2 * HOUR));
    for (const [i, mediaId] of mediaIds.entries()) {
      for (const [j, member] of MEMBERS.entries()) {
        if ((i * 7 + j * 3) % 5 < (i % 3 === 0 ? 3 : 1)) {
          await addFavorite(as(member.username, at(HOUR - i * MINUTE)), mediaId);
        }
      }
    }
    // Direct messages are written as rows: a send stamps the database's clock, and these need
    // their own times in the past. Read receipts a minute after each line, unless left unread.
    for (const { between, lines, unread = 0 } of CONVERSATIONS) {
      for (const [i, [from, minutesAgo, content]] of lines.entries()) {
        const sentAt = at(minutesAgo * MINUTE);
        const read = i < lines.length - unread;
        await tem.execute(
          `insert into direct_messages (id, sender_id, receiver_id, content, created_at, read_at)
           values (gen_random_uuid(), ?, ?, ?, ?, ?)`,
          [
            ids[between[from]],
            ids[between[1 - from] as Member],
            content,
            sentAt,
            read ? new Date(Math.min(sentAt.getTime() + MINUTE, now.getTime())) : null,
          ],
        );
      }
    }
    return accounts;
  });
}

/** The start-up log block that shows the demo passwords, once. */
export function formatDemoAccounts(accounts: DemoAccount[]): string {
  const width = Math.max(...accounts.map((a) => a.email.length));
  return [
    'Demo accounts (shown once):',
    ...accounts.map((a) => `  ${a.email.padEnd(width)} / ${a.password}`),
    'These passwords are stored nowhere else. SEED_DEMO=0 on a fresh database starts without demo data.',
  ].join('\n');
}
