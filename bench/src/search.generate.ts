/**
 * The search benchmark's data set, set-based SQL: 10,000 users with varied names, 1,000,000 posts
 * written from a fixed vocabulary (so a common word, a rare word, a phrase and a prefix have known
 * frequencies), and 100,000 gallery items. The posts' vocabulary trigger is paused during the load
 * and the vocabulary filled once from the word list; the GIN index is built after the load.
 */
import type { EntityManager } from '@cubes/db';

export const SEARCH_SIZES = { users: 10_000, posts: 1_000_000, media: 100_000 } as const;

const FIRST = [
  'alice',
  'bruno',
  'chen',
  'dana',
  'emil',
  'farah',
  'gus',
  'hana',
  'ivan',
  'jules',
  'kemal',
  'lena',
  'mika',
  'nora',
  'omar',
  'pia',
  'quinn',
  'rosa',
  'sven',
  'tara',
];
const LAST = [
  'cubeworth',
  'blocksmith',
  'pixel',
  'voxel',
  'okafor',
  'haddad',
  'sorensen',
  'li',
  'moreau',
  'novak',
  'silva',
  'tanaka',
  'weber',
  'young',
  'zhang',
];
// 200 ordinary words; each post takes 8 of them, pseudo-randomly.
export const WORDS =
  `time person year way day thing man world life hand part child eye woman place work week case point
government company number group problem fact garden river mountain ocean forest city village market music
painting sketch render shader texture light shadow colour palette gradient canvas brush pencil marker
camera lens photo video frame scene story chapter poem song melody rhythm guitar piano violin drum
synth bass chord tempo beat loop sample mix track album concert festival stage dance theatre film
cinema screen pixel voxel block brick tower castle bridge road street train station airport harbour
boat ship island beach desert jungle valley canyon glacier volcano storm rain snow wind cloud sun moon
star planet galaxy rocket robot machine engine gear wheel circuit code program script server network
cable signal radio phone laptop keyboard mouse monitor printer paper book library school teacher
student lesson class homework exam science physics chemistry biology history geography language
grammar word letter number symbol shape circle square triangle sphere cube prism pyramid spiral
pattern mosaic quilt fabric thread needle button pocket jacket shoe hat scarf glove coffee tea
bread cheese apple orange banana cherry lemon garlic pepper salt sugar honey cookie cake pie soup
salad pasta rice noodle pizza burger sandwich breakfast lunch dinner picnic party birthday holiday`
    .split(/\s+/)
    .filter(Boolean);

const arrayLiteral = (words: readonly string[]) => `array[${words.map((w) => `'${w}'`).join(',')}]`;

export async function generateSearchData(
  em: EntityManager,
  passwordHash: string,
  log: (s: string) => void,
): Promise<void> {
  const run = async (label: string, sql: string, params: unknown[] = []) => {
    const t0 = performance.now();
    await em.execute(sql, params);
    log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  const { users, posts, media } = SEARCH_SIZES;
  await run(
    'users',
    `insert into users (id, username, display_name, email, password_hash, bio, email_visible, created_at)
     select gen_random_uuid(),
            f[1 + i % ${FIRST.length}] || '_' || l[1 + (i / ${FIRST.length}) % ${LAST.length}] || i,
            initcap(f[1 + i % ${FIRST.length}]) || ' ' || initcap(l[1 + (i / ${FIRST.length}) % ${LAST.length}]),
            'search' || i || '@bench.local', ?, 'Member number ' || i, false,
            now() - interval '90 days' + i * interval '1 second'
       from generate_series(1, ${users}) i,
            (select ${arrayLiteral(FIRST)} f, ${arrayLiteral(LAST)} l) names`,
    [passwordHash],
  );
  await run(
    'ranked users',
    `create unlogged table search_bench_users as
       select id, row_number() over (order by created_at, id) - 1 as rn from users where email like 'search%@bench.local'`,
  );
  await run('index ranked users', 'create unique index on search_bench_users (rn)');
  await run(
    'follows',
    `insert into follows (follower_id, followee_id, created_at)
     select a.id, b.id, now() from search_bench_users a
       cross join generate_series(1, 5) k
       join search_bench_users b on b.rn = (a.rn * 13 + k * k * 101) % ${users}
      where a.id <> b.id on conflict do nothing`,
  );
  await run('pause the vocabulary trigger', 'alter table posts disable trigger posts_search_words');
  await run('drop the posts GIN index for the load', 'drop index posts_search_vector_index');
  const n = WORDS.length;
  // "cubes" in a third of the posts (common), "zebrafish" in 1 of 20,000 (rare),
  // the phrase "pixel art" in 1 of 50, "community" in 1 of 7 (for the prefix "communi").
  await run(
    'posts',
    `insert into posts (id, author_id, content, likes_count, comments_count, created_at)
     select gen_random_uuid(), u.id,
            initcap(w[1 + (i * 31) % ${n}]) || ' ' || w[1 + (i * 17 + 3) % ${n}] || ' ' || w[1 + (i * 7 + 11) % ${n}] || ' ' ||
            w[1 + (i * 13 + 5) % ${n}] || ' ' || w[1 + (i * 29 + 19) % ${n}] || ' ' || w[1 + (i * 37 + 23) % ${n}] || ' ' ||
            w[1 + (i * 41 + 2) % ${n}] || ' ' || w[1 + (i * 43 + 7) % ${n}] ||
            case when i % 3 = 0 then ' with cubes' else '' end ||
            case when i % 50 = 0 then ', made as pixel art' else '' end ||
            case when i % 7 = 0 then ' for the community' else '' end ||
            case when i % 20000 = 7 then ' and a zebrafish' else '' end || '.',
            (i * 7) % 40, (i * 3) % 9, now() - (${posts} - i) * interval '3 seconds'
       from generate_series(1, ${posts}) i
       join search_bench_users u on u.rn = (i * 7) % ${users},
            (select ${arrayLiteral(WORDS)} w) words`,
  );
  await run(
    'posts GIN index',
    `create index "posts_search_vector_index" on "posts" using gin ("search_vector")`,
  );
  await run('resume the vocabulary trigger', 'alter table posts enable trigger posts_search_words');
  await run(
    'vocabulary of the posts',
    `select search_words_add(array_to_string(${arrayLiteral(WORDS)}, ' ') || ' with cubes made as pixel art for the community and a zebrafish')`,
  );
  await run(
    'gallery',
    `insert into ai_media (id, type, title, image_url, width, height, creator_id, favorites_count, created_at)
     select gen_random_uuid(), (array['art','music','fun','video'])[1 + i % 4],
            initcap(w[1 + (i * 31) % ${n}]) || ' ' || w[1 + (i * 17 + 3) % ${n}] || ' ' || i,
            '/objects/bench/' || i, 640, 480 + (i % 5) * 40, u.id, i % 17,
            now() - (${media} - i) * interval '30 seconds'
       from generate_series(1, ${media}) i
       join search_bench_users u on u.rn = (i * 11) % ${users},
            (select ${arrayLiteral(WORDS)} w) words`,
  );
  await run('analyze', 'analyze');
}
