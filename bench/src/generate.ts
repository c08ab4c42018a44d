/**
 * The benchmark's data set, written with set-based SQL (seconds, not minutes): 10,000 users,
 * 200,000 posts over ~30 days, 1,000,000 likes (100 distinct posts per user), 50,000 follows
 * (5 per user), a few notifications per user, and counters consistent with the rows; ten times
 * that with BENCH_SCALE=10.
 */
import type { EntityManager } from '@cubes/db';

/**
 * `BENCH_SCALE=10` multiplies users, posts and so likes and follows by ten (100,000 users,
 * 2,000,000 posts, 10,000,000 likes): the same scenarios at ten times the data, generated into
 * a data directory of its own (benchDataDir).
 */
export const SCALE = Math.max(1, Number(process.env.BENCH_SCALE ?? 1));
export const SIZES = {
  users: 10_000 * SCALE,
  posts: 200_000 * SCALE,
  likesPerUser: 100,
  followsPerUser: 5,
} as const;
/** bench/.data, or bench/.data-x10 for BENCH_SCALE=10. */
export const benchDataDir = SCALE === 1 ? '.data' : `.data-x${SCALE}`;
export const BENCH_PASSWORD = 'bench-password';

export async function generate(
  em: EntityManager,
  passwordHash: string,
  log: (s: string) => void,
): Promise<void> {
  const run = async (label: string, sql: string, params: unknown[] = []) => {
    const t0 = performance.now();
    await em.execute(sql, params);
    log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  await run(
    'users',
    `insert into users (id, username, display_name, email, password_hash, bio, email_visible, created_at)
     select gen_random_uuid(), 'bench_' || i, 'Bench User ' || i, 'bench' || i || '@bench.local', ?,
            'Benchmark member number ' || i, false, now() - interval '60 days' + i * interval '1 second'
       from generate_series(1, ${SIZES.users}) i`,
    [passwordHash],
  );
  await run(
    'ranked users',
    `create unlogged table bench_users as select id, row_number() over (order by created_at, id) - 1 as rn from users where email like '%@bench.local'`,
  );
  await run('index ranked users', 'create unique index on bench_users (rn)');
  await run(
    'posts',
    `insert into posts (id, author_id, content, likes_count, comments_count, created_at)
     select gen_random_uuid(), u.id,
            'Post ' || i || ' about cubes, pixels and the community. ' || repeat('Lorem ipsum dolor sit amet. ', 1 + i % 5),
            0, 0, now() - (${SIZES.posts} - i) * interval '13 seconds'
       from generate_series(1, ${SIZES.posts}) i
       join bench_users u on u.rn = (i * 7) % ${SIZES.users}`,
  );
  await run(
    'ranked posts',
    `create unlogged table bench_posts as select id, row_number() over (order by created_at, id) - 1 as rn from posts`,
  );
  await run('index ranked posts', 'create unique index on bench_posts (rn)');
  // User u likes posts (u*7919 + k*2003) mod N for k = 1..100: distinct, since gcd(2003, N) = 1.
  await run(
    'likes',
    `insert into likes (user_id, post_id, created_at)
     select u.id, p.id, now() - k * interval '1 minute'
       from bench_users u
       cross join generate_series(1, ${SIZES.likesPerUser}) k
       join bench_posts p on p.rn = (u.rn * 7919 + k * 2003) % ${SIZES.posts}`,
  );
  await run(
    'follows',
    `insert into follows (follower_id, followee_id, created_at)
     select a.id, b.id, now()
       from bench_users a
       cross join generate_series(1, ${SIZES.followsPerUser}) k
       join bench_users b on b.rn = (a.rn + k * 37) % ${SIZES.users}`,
  );
  await run(
    'notifications',
    // With the group key the app writes (notification.groups.ts): likes of a post on one UTC day.
    `insert into notifications (id, recipient_id, actor_id, type, post_id, created_at, group_key)
     select gen_random_uuid(), p.author_id, l.user_id, 'like', l.post_id, l.created_at,
            'like:' || l.post_id || ':' || to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD')
       from likes l join posts p on p.id = l.post_id
      where p.author_id <> l.user_id and (hashtext(l.user_id::text || l.post_id::text) % 20) = 0`,
  );
  await run(
    'like counters',
    `update posts p set likes_count = c.n from (select post_id, count(*) n from likes group by post_id) c where c.post_id = p.id`,
  );
  await run('drop helpers', 'drop table bench_users, bench_posts');
  // The bulk load leaves every row of the GIN indexes in their pending lists (which each search
  // then reads through: 30-45 ms for a users search instead of 0.2 ms) and a dead row per post
  // from the counters' update. Autovacuum clears both, but only a minute or more later: clear
  // them now, so the figures are those of a database autovacuum has caught up with.
  await run('vacuum and analyze', 'vacuum (analyze)');
}
