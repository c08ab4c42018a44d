/**
 * What planning costs: one of the app's hot statements (the notifications list, as
 * notification.service.ts writes it) sent three ways by 4 connections, 3,000 times each:
 * as text with its values written in (what MikroORM's `em.execute` sends), as text with
 * parameters (unnamed), and as a named prepared statement (prepared.ts). Prints calls a second and
 * the CPU each call cost the client (process.cpuUsage) and PostgreSQL (its backends' /proc stat).
 *   pnpm --filter @cubes/bench bench:prepared   (uses the feed benchmark's data set, bench/.data)
 */
import pg from 'pg';
import { cpuMs } from './cpu.js';
import { benchDatabase } from './database.js';

const CONNECTIONS = 4;
const CALLS = 3_000;
const { pgServer, url } = await benchDatabase('cubes_bench', { fresh: false });
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const viewer = (await admin.query<{ id: string }>(`select id from users where email = 'bench42@bench.local'`))
  .rows[0];
if (!viewer) throw new Error('no data set: run `pnpm --filter @cubes/bench bench` once first');

const text = `select n.id, n.type, u.username, u.avatar_url,
         to_char(n.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
         n.read_at is not null as is_read, n.post_id, n.note
    from notifications n join users u on u.id = n.actor_id
   where n.recipient_id = $1
     and not exists (select 1 from mutes m where m.muter_id = n.recipient_id and m.muted_id = n.actor_id)
     and not exists (select 1 from blocks b where (b.blocker_id = n.recipient_id and b.blocked_id = n.actor_id)
                                             or (b.blocker_id = n.actor_id and b.blocked_id = n.recipient_id))
   order by n.created_at desc, n.id desc limit $2`;
const inlined = text.replace('$1', `'${viewer.id}'`).replace('$2', '50');

async function measure(label: string, call: (client: pg.Client) => Promise<unknown>) {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new pg.Client({ connectionString: url, application_name: 'bench-prepared' });
      await client.connect();
      return client;
    }),
  );
  for (const client of clients) for (let i = 0; i < 50; i++) await call(client); // warm up
  const pids = (
    await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where application_name = 'bench-prepared'`,
    )
  ).rows.map((r) => r.pid);
  const pgBefore = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < CALLS; i++) await call(client);
    }),
  );
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const pgMs = pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - pgBefore;
  const calls = CONNECTIONS * CALLS;
  console.log(
    `| ${label} | ${Math.round((calls / ms) * 1000)} | ${Math.round((cpu.user + cpu.system) / calls)} µs | ${Math.round((pgMs * 1000) / calls)} µs |`,
  );
  await Promise.all(clients.map((client) => client.end()));
}

console.log(
  '| how the statement is sent | calls/s | client CPU per call | PostgreSQL CPU per call |\n|---|---|---|---|',
);
for (let round = 0; round < 2; round++) {
  await measure('text, values written in (MikroORM)', (client) => client.query(inlined));
  await measure('text with parameters (unnamed)', (client) => client.query(text, [viewer.id, 50]));
  await measure('named prepared statement', (client) =>
    client.query({ name: 'bench_notifications', text, values: [viewer.id, 50] }),
  );
}
await admin.end();
await pgServer.stop();
