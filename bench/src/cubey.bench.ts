/**
 * Cubey's streaming, measured end to end: the real app in this process, a real WebSocket client
 * (tRPC's, as the browser uses) sending a message and following the answer.
 *   pnpm --filter @cubes/bench bench:cubey      (BENCH_RUNS=20, BENCH_TOKENS=200, BENCH_PACE_MS=5)
 * Prints, as medians over the runs:
 * - the offline assistant: time to the first token (from the send) and tokens a second, at its
 *   default pace (CUBEY_OFFLINE_DELAY_MS, 12 ms a word);
 * - a model's stream (a local SSE server in a child process sending BENCH_TOKENS chunks, one
 *   every BENCH_PACE_MS), read
 *   directly and through our server: the difference is the overhead we add (save in batches,
 *   bus, socket);
 * - BENCH_CONCURRENT (20) answers at once from that model, through the app on a PostgreSQL bus:
 *   pieces a second, NOTIFYs a second and the p50/p99 latency of a piece from the model to the
 *   socket client. Writes bench/results/cubey.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppRouter } from '@cubes/api';
import { createPgEventBus, type EventBus } from '@cubes/api';
import { initOrm } from '@cubes/db';
import { buildApp } from '@cubes/server';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import superjson from 'superjson';
import WebSocket from 'ws';
import { benchDatabase } from './database.js';
import { median } from './stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const runs = Number(process.env.BENCH_RUNS ?? 20);
const tokens = Number(process.env.BENCH_TOKENS ?? 200);
const log = (s: string) => console.log(s);
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

// --- a model in a process of its own: SSE chunks at a steady pace --------------------------------
const pace = Number(process.env.BENCH_PACE_MS ?? 5);
const modelScript = `
const http = require('node:http');
const server = http.createServer(async (req, res) => {
  for await (const _ of req) {}
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (let i = 0; i < ${tokens}; i += 1) {
    // Each token carries the time it left the model, so a reader can measure each piece's latency.
    res.write('data: ' + JSON.stringify({ choices: [{ delta: { content: 'tok' + i + '@' + Date.now() + ' ' } }] }) + '\\n\\n');
    await new Promise((r) => setTimeout(r, ${pace}));
  }
  res.end('data: [DONE]\\n\\n');
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;
const modelProcess = spawn(process.execPath, ['-e', modelScript], { stdio: ['ignore', 'pipe', 'inherit'] });
// Never left behind, whatever happens to the benchmark.
process.on('exit', () => modelProcess.kill());
const modelPort = await new Promise<number>((resolve) => {
  modelProcess.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
});
const modelUrl = `http://127.0.0.1:${modelPort}/v1`;

async function direct(): Promise<{ first: number; total: number }> {
  const t0 = performance.now();
  const res = await fetch(`${modelUrl}/chat/completions`, { method: 'POST', body: '{}' });
  let first = 0;
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (!first && decoder.decode(chunk).includes('tok')) first = performance.now() - t0;
  }
  return { first, total: performance.now() - t0 };
}

// --- the database ------------------------------------------------------------------------------
const { pgServer, url: dbUrl } = await benchDatabase('cubes_cubey_bench', { fresh: true });
const orm = await initOrm({ clientUrl: dbUrl, poolMax: 10 });

type Cubey = { baseUrl?: string; offlineDelayMs?: number };
const concurrency = Number(process.env.BENCH_CONCURRENT ?? 20);
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))]!;
};

/** A PostgreSQL bus that counts what it publishes, by topic. */
async function countingBus(): Promise<{ bus: EventBus; published: Map<string, number> }> {
  const inner = await createPgEventBus({ connectionString: dbUrl });
  const published = new Map<string, number>();
  const bus: EventBus = {
    ...inner,
    publish(topic, payload, tx) {
      published.set(topic, (published.get(topic) ?? 0) + 1);
      return inner.publish(topic, payload, tx);
    },
  };
  return { bus, published };
}

/** `concurrency` answers from the model at once: pieces/s, NOTIFYs/s, piece latency p50/p99. */
async function concurrent() {
  const { bus, published } = await countingBus();
  const app = await buildApp({
    orm,
    bus,
    config: {
      allowedOrigins: [],
      cookieSecure: false,
      trustProxy: false,
      rateLimitScale: 1_000_000,
      logLevel: 'silent',
      webDist: null,
      // One member's 20 answers at once: the fair-use cap of 2 running answers is lifted here.
      cubey: { baseUrl: modelUrl, model: 'bench', maxRunning: 0 },
    },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const register = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'benchconcurrent',
      email: 'concurrent@bench.local',
      password: 'bench-password',
      displayName: 'Bench',
    }),
  });
  const cookie = register.headers.get('set-cookie')!.split(';')[0]!;
  class CookieSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, origin: base } });
    }
  }
  const ws = createWSClient({ url: `${base.replace(/^http/, 'ws')}/trpc`, WebSocket: CookieSocket as never });
  const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: ws, transformer: superjson })] });
  const latencies: number[] = [];
  let events = 0;
  published.clear();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const started = await client.cubey.send.mutate({ message: 'hello' });
      await new Promise<void>((resolve, reject) => {
        const sub = client.cubey.onAnswer.subscribe(
          { messageId: started.reply.id },
          {
            onData: ({ data }) => {
              const now = Date.now();
              events += 1;
              for (const match of data.delta.matchAll(/@(\d{13}) /g)) latencies.push(now - Number(match[1]));
              if (data.status !== 'streaming') {
                sub.unsubscribe();
                resolve();
              }
            },
            onError: reject,
          },
        );
      });
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  ws.close();
  await app.close();
  await bus.close();
  return {
    answers: concurrency,
    seconds,
    piecesPerSecond: latencies.length / seconds,
    socketEventsPerSecond: events / seconds,
    notifiesPerSecond: [...published.values()].reduce((a, b) => a + b, 0) / seconds,
    cubeyNotifies: published.get('cubey') ?? 0,
    pieces: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Median time to the first token, time to the end, and pieces received, through the app. */
async function throughServer(name: string, cubey: Cubey, question: string) {
  const app = await buildApp({
    orm,
    config: {
      allowedOrigins: [],
      cookieSecure: false,
      trustProxy: false,
      rateLimitScale: 1_000_000,
      logLevel: 'silent',
      webDist: null,
      cubey: { ...cubey, model: 'bench' },
    },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const register = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `bench${name.replace(/\W/g, '')}`.slice(0, 30),
      email: `${name.replace(/\W/g, '')}@bench.local`,
      password: 'bench-password',
      displayName: 'Bench',
    }),
  });
  const cookie = register.headers.get('set-cookie')!.split(';')[0]!;
  class CookieSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, origin: base } });
    }
  }
  const ws = createWSClient({ url: `${base.replace(/^http/, 'ws')}/trpc`, WebSocket: CookieSocket as never });
  const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: ws, transformer: superjson })] });

  const firsts: number[] = [];
  const totals: number[] = [];
  let pieces = 0;
  let chars = 0;
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    const started = await client.cubey.send.mutate({ message: question });
    const result = await new Promise<{ first: number; total: number; pieces: number; chars: number }>(
      (resolve, reject) => {
        let first = 0;
        let n = 0;
        let c = 0;
        const sub = client.cubey.onAnswer.subscribe(
          { messageId: started.reply.id },
          {
            onData: ({ data }) => {
              if (data.delta && !first) first = performance.now() - t0;
              if (data.delta) n += 1;
              c += data.delta.length;
              if (data.status !== 'streaming') {
                sub.unsubscribe();
                resolve({ first, total: performance.now() - t0, pieces: n, chars: c });
              }
            },
            onError: reject,
          },
        );
      },
    );
    firsts.push(result.first);
    totals.push(result.total);
    pieces = result.pieces;
    chars = result.chars;
  }
  ws.close();
  await app.close();
  return { first: median(firsts), total: median(totals), pieces, chars };
}

log(`Cubey streaming: ${runs} runs each, medians`);
const question = 'Who are you?';
const offline = await throughServer('offline', { offlineDelayMs: 12 }, question);
// The offline assistant streams a word (with the spaces after it) at a time.
const [last] = await orm.em
  .fork()
  .execute<{ content: string }[]>(
    `select content from chat_messages where role = 'assistant' order by created_at desc limit 1`,
  );
const words = (last!.content.match(/\S+\s*|\s+/g) ?? []).length;
const offlineRate = words / ((offline.total - offline.first) / 1000);
log(
  `offline assistant (12 ms pace): first token ${round(offline.first)} ms, ${words} words in ${round(offline.total)} ms, ${round(offlineRate, 0)} tokens/s`,
);
const directs: { first: number; total: number }[] = [];
for (let i = 0; i < runs; i += 1) directs.push(await direct());
const directFirst = median(directs.map((d) => d.first));
const directTotal = median(directs.map((d) => d.total));
const viaServer = await throughServer('model', { baseUrl: modelUrl }, 'hello');
log(
  `model stream read directly: first token ${round(directFirst)} ms, ${tokens} tokens in ${round(directTotal)} ms`,
);
log(
  `model stream through Cubes: first token ${round(viaServer.first)} ms, ${tokens} tokens in ${round(viaServer.total)} ms (${viaServer.pieces} socket events)`,
);
log(
  `overhead we add: +${round(viaServer.first - directFirst)} ms to the first token, +${round(viaServer.total - directTotal)} ms over the whole stream (${round((viaServer.total - directTotal) / tokens, 2)} ms a token)`,
);

const load = await concurrent();
log(
  `${load.answers} answers at once (PostgreSQL bus): ${load.pieces} pieces in ${round(load.seconds, 2)} s, ${round(load.piecesPerSecond, 0)} pieces/s, ${round(load.notifiesPerSecond, 0)} NOTIFYs/s (${load.cubeyNotifies} for answer text), ${round(load.socketEventsPerSecond, 0)} socket events/s; piece latency model → client p50 ${load.p50} ms, p99 ${load.p99} ms`,
);

mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(
  path.join(benchDir, 'results', 'cubey.json'),
  `${JSON.stringify(
    {
      runs,
      offline: {
        paceMs: 12,
        firstTokenMs: offline.first,
        totalMs: offline.total,
        words,
        tokensPerSecond: offlineRate,
      },
      model: {
        tokens,
        paceMs: pace,
        direct: { firstTokenMs: directFirst, totalMs: directTotal },
        throughServer: {
          firstTokenMs: viaServer.first,
          totalMs: viaServer.total,
          socketEvents: viaServer.pieces,
        },
      },
      concurrent: load,
    },
    null,
    2,
  )}\n`,
);
await orm.close();
await pgServer.stop();
modelProcess.kill();
