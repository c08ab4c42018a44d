/**
 * Cubey's tools and fair use with a model: a real HTTP server on 127.0.0.1 that this test starts
 * speaks the streamed chat-completions protocol and asks for tool calls (streamed `tool_calls`
 * pieces, as OpenAI sends them). Its answer repeats every tool result it was given, so whatever a
 * look-up returned would show in the answer: a blocked, muted or suspended member must not.
 * Also: the look-ups saved with the answer (a reload shows them) and sent live as they are made,
 * the 5-round cap, a model that
 * refuses tools (asked again without, and remembered), the daily token limit (429 with the reset
 * time; the answer in progress finishes) and the cap of 2 running answers across two instances.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as readBody } from 'node:stream/consumers';
import { type AnswerEvent, setRole } from '@cubes/api';
import type { FastifyInstance } from 'fastify';
import { register } from 'prom-client';
import { afterAll, describe, expect } from 'vitest';
import { buildApp } from '../src/app.js';
import { it as withApp } from './fixtures.js';
import { createPost, registerUser, type TestApp } from './harness.js';
import { connectLive, Events, type LiveClient, waitFor } from './live-client.js';

interface WireMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}
interface ChatBody {
  model: string;
  stream: boolean;
  messages: WireMessage[];
  tools?: { function: { name: string } }[];
}

const requests: ChatBody[] = [];
/** Released by a test to let the held answers ("hold") finish. */
let release: () => void = () => {};
let held = new Promise<void>((resolve) => {
  release = resolve;
});

const send = (res: ServerResponse, json: unknown) => res.write(`data: ${JSON.stringify(json)}\n\n`);

/** Streams tool calls as OpenAI does: the name first, the arguments in two pieces. */
function streamCalls(res: ServerResponse, calls: { name: string; args: unknown }[]) {
  calls.forEach((call, index) => {
    const args = JSON.stringify(call.args);
    const half = Math.floor(args.length / 2);
    send(res, {
      choices: [
        {
          delta: {
            role: 'assistant',
            tool_calls: [
              {
                index,
                id: `call_${index}_${randomUUID().slice(0, 8)}`,
                type: 'function',
                function: { name: call.name, arguments: '' },
              },
            ],
          },
        },
      ],
    });
    send(res, {
      choices: [{ delta: { tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] } }],
    });
    send(res, {
      choices: [{ delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] } }],
    });
  });
  send(res, { choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
}

/**
 * The question says what to do: `CALL <name> <json args>` (one call, then answer), `LOOP` (a call
 * whenever tools are offered), `hold` (wait for release()), `usage <n>` (report n tokens).
 */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
const withModel = withApp.extend('modelUrl', { scope: 'file' }, async ({}, { onCleanup }) => {
  const model = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as ChatBody;
    requests.push(body);
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'A title' } }] }));
      return;
    }
    const question = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    if (body.model === 'no-tools' && body.tools) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: 'registry.ollama.ai/library/tiny:1b does not support tools' } }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const results = body.messages.filter((m) => m.role === 'tool');
    const call = /^CALL (\w+) (\{[^}]*\})/s.exec(question);
    if (body.tools && question.startsWith('HOSTILE') && results.length === 0) {
      streamCalls(res, [
        { name: 'search_posts', args: { query: 'x'.repeat(70_000) } },
        { name: 'member_profile', args: { username: 5 } },
        { name: 'gallery_items', args: { query: ['wrong'], type: 'nonsense' } },
        { name: 'search_posts', args: { query: '\u0000\u0007 🧊🧊' } },
        { name: 'trending_posts', args: {} },
      ]);
    } else if (body.tools && ((call && results.length === 0) || question.startsWith('LOOP'))) {
      streamCalls(
        res,
        call ? [{ name: call[1]!, args: JSON.parse(call[2]!) }] : [{ name: 'trending_posts', args: {} }],
      );
    } else {
      if (question.includes('hold')) await held;
      const text = results.length
        ? `I looked it up. ${results.map((r) => r.content).join(' | ')}`
        : 'Hello from the model.';
      for (const piece of text.match(/.{1,40}/gs) ?? [])
        send(res, { choices: [{ delta: { content: piece } }] });
    }
    const usage = /usage (\d+)/.exec(question);
    if (usage)
      send(res, {
        choices: [],
        usage: { prompt_tokens: 1, completion_tokens: Number(usage[1]) - 1, total_tokens: Number(usage[1]) },
      });
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  onCleanup(async () => {
    release();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
  });
  return `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});

/** Beside the file's app (below): a model that refuses tools, and the daily limit's app (100 tokens a day). */
const it = withModel
  .extend('noTools', { scope: 'file' }, ({ appWith, modelUrl }) =>
    appWith({ config: { cubey: { baseUrl: modelUrl, model: 'no-tools', timeoutMs: 5_000 } } }),
  )
  .extend('fair', { scope: 'file' }, ({ appWith, modelUrl }) =>
    appWith({ config: { cubey: { baseUrl: modelUrl, model: 'fair', timeoutMs: 10_000, dailyTokens: 100 } } }),
  );
it.override('appOptions', ({ modelUrl }) => ({
  config: { cubey: { baseUrl: modelUrl, model: 'tools-model', timeoutMs: 5_000 } },
}));

const chat = (app: FastifyInstance, cookie: string, message: string) =>
  app.inject({ method: 'POST', url: '/api/cubey/chat', headers: { cookie }, payload: { message } });

async function messagesOf(t: TestApp, cookie: string, sessionId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/cubey/sessions/${sessionId}/messages`,
    headers: { cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    role: string;
    content: string;
    status: string;
    lookups: {
      tool: string;
      label: string;
      sources: { kind: string; username?: string; id?: string; tag?: string; label: string }[];
    }[];
  }[];
}

async function trpc(app: FastifyInstance, cookie: string, path: string, input: unknown) {
  return app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { cookie }, payload: { json: input } });
}

/** The cast of a visibility test: an asker, a visible author, and one hidden each way. */
async function cast(t: TestApp, word: string) {
  const asker = await registerUser(t.app);
  const shown = await registerUser(t.app);
  const blocked = await registerUser(t.app);
  const blocker = await registerUser(t.app);
  const muted = await registerUser(t.app);
  const suspended = await registerUser(t.app);
  const posts: Record<string, string> = {};
  for (const [name, member] of Object.entries({ shown, blocked, blocker, muted, suspended })) {
    posts[name] = (await createPost(t.app, member.cookie, `${name} writes about ${word} and pixel art`)).id;
  }
  const act = async (cookie: string, id: string, what: 'block' | 'mute') => {
    const res = await t.app.inject({ method: 'POST', url: `/api/users/${id}/${what}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
  };
  await act(asker.cookie, blocked.user.id, 'block');
  await act(blocker.cookie, asker.user.id, 'block');
  await act(asker.cookie, muted.user.id, 'mute');
  const mod = await registerUser(t.app);
  await setRole(t.orm.em.fork(), mod.user.username, 'moderator');
  const suspend = await trpc(t.app, mod.cookie, 'moderation.suspend', {
    userId: suspended.user.id,
    days: 3,
    reason: 'Spam',
  });
  expect(suspend.statusCode, suspend.body).toBe(200);
  const hidden = [blocked, blocker, suspended].map((m) => m.user.username);
  return { asker, shown, blocked, blocker, muted, suspended, posts, hidden };
}

describe('Cubey tools with a model', () => {
  it('searches posts as the asker: the answer and its sources leave out blocked and suspended members, and a reload shows the same', async ({
    t,
  }) => {
    const word = `qx${Date.now().toString(36)}`;
    const c = await cast(t, word);
    requests.length = 0;
    const res = await chat(t.app, c.asker.cookie, `CALL search_posts {"query":"${word}"}`);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().reply.content as string;
    expect(answer).toContain('I looked it up.');
    expect(answer).toContain(`@${c.shown.user.username}`);
    expect(answer).toContain(c.posts.shown);
    for (const name of c.hidden) expect(answer).not.toContain(name);

    // The model was offered the tools, asked, and got the result back with its call's id.
    const [first, second] = requests.filter((r) => r.stream);
    expect(first!.tools!.map((tool) => tool.function.name).sort()).toEqual([
      'gallery_items',
      'member_profile',
      'search_posts',
      'trending_posts',
      'trending_tags',
    ]);
    const asked = second!.messages.find((m) => m.tool_calls)!;
    const result = second!.messages.find((m) => m.role === 'tool')!;
    expect(asked.tool_calls![0]!.function).toEqual({
      name: 'search_posts',
      arguments: `{"query":"${word}"}`,
    });
    expect(result.tool_call_id).toBe(asked.tool_calls![0]!.id);

    // As the search screen shows it to the asker: the same authors.
    const screen = await t.app.inject({
      method: 'GET',
      url: `/api/search?q=${word}`,
      headers: { cookie: c.asker.cookie },
    });
    const screenAuthors = new Set((screen.json().posts as { username: string }[]).map((p) => p.username));
    const [message] = (await messagesOf(t, c.asker.cookie, res.json().sessionId)).slice(1);
    expect(message!.lookups).toHaveLength(1);
    const lookup = message!.lookups[0]!;
    expect(lookup.label).toBe(`Searched posts for '${word}'`);
    const authors = new Set(lookup.sources.filter((s) => s.kind === 'member').map((s) => s.username));
    expect(authors).toEqual(screenAuthors);
    expect(authors.has(c.shown.user.username)).toBe(true);
    for (const name of c.hidden) expect(authors.has(name)).toBe(false);
    expect(lookup.sources).toContainEqual(
      expect.objectContaining({ kind: 'post', id: c.posts.shown, username: c.shown.user.username }),
    );
    // A reload gives the same answer and sources.
    const again = (await messagesOf(t, c.asker.cookie, res.json().sessionId))[1]!;
    expect(again).toMatchObject({ content: answer, status: 'done', lookups: message!.lookups });
  });

  it('looks up a profile with recent posts; a blocked or suspended member is "not found"', async ({ t }) => {
    const c = await cast(t, `pr${Date.now().toString(36)}`);
    const ok = await chat(
      t.app,
      c.asker.cookie,
      `CALL member_profile {"username":"@${c.shown.user.username}"}`,
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().reply.content).toContain(`"username":"@${c.shown.user.username}"`);
    expect(ok.json().reply.content).toContain(c.posts.shown);
    const [, saved] = await messagesOf(t, c.asker.cookie, ok.json().sessionId);
    expect(saved!.lookups[0]).toMatchObject({
      tool: 'member_profile',
      label: `Looked up @${c.shown.user.username}`,
    });
    expect(saved!.lookups[0]!.sources[0]).toMatchObject({ kind: 'member', username: c.shown.user.username });

    for (const member of [c.blocked, c.blocker, c.suspended]) {
      const res = await chat(
        t.app,
        c.asker.cookie,
        `CALL member_profile {"username":"${member.user.username}"}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const content = res.json().reply.content as string;
      expect(content).toContain(`No member called @${member.user.username}`);
      expect(content).not.toContain(member.user.id);
      expect(content).not.toContain('writes about');
      const [, m] = await messagesOf(t, c.asker.cookie, res.json().sessionId);
      expect(m!.lookups[0]!.sources).toEqual([]);
    }
  });

  it('lists trending posts without blocked, muted or suspended members', async ({ t }) => {
    const c = await cast(t, `tr${Date.now().toString(36)}`);
    // Liked, so it is among the first whatever else the database holds.
    const like = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${c.posts.shown}/like`,
      headers: { cookie: c.asker.cookie },
    });
    expect(like.statusCode, like.body).toBe(200);
    const res = await chat(t.app, c.asker.cookie, 'CALL trending_posts {}');
    expect(res.statusCode, res.body).toBe(200);
    const content = res.json().reply.content as string;
    for (const name of [...c.hidden, c.muted.user.username]) expect(content).not.toContain(name);
    const [, m] = await messagesOf(t, c.asker.cookie, res.json().sessionId);
    expect(m!.lookups[0]!.label).toBe('Looked at trending posts');
    const usernames = m!.lookups[0]!.sources.map((s) => s.username);
    expect(usernames).toContain(c.shown.user.username);
    for (const name of [...c.hidden, c.muted.user.username]) expect(usernames).not.toContain(name);
  });

  it('lists trending tags, as the Trending tags list shows them, linked to their pages', async ({ t }) => {
    const c = await cast(t, `tt${Date.now().toString(36)}`);
    const tag = `cubeytag${Date.now().toString(36)}`;
    await createPost(t.app, c.shown.cookie, `Trying #${tag} today`);
    // A tag only the member the asker blocked used trends for others, never for the asker.
    const blockedTag = `blockedtag${Date.now().toString(36)}`;
    await createPost(t.app, c.blocked.cookie, `#${blockedTag}`);
    const res = await chat(t.app, c.asker.cookie, 'CALL trending_tags {}');
    expect(res.statusCode, res.body).toBe(200);
    const [, m] = await messagesOf(t, c.asker.cookie, res.json().sessionId);
    expect(m!.lookups[0]!.label).toBe('Looked at trending tags');
    expect(m!.lookups[0]!.sources).toContainEqual({ kind: 'tag', tag, label: `#${tag}` });
    expect(m!.lookups[0]!.sources.map((s) => s.tag)).not.toContain(blockedTag);
    const everyone = await t.app.inject({ method: 'GET', url: '/api/tags/trending' });
    expect(everyone.json().map((x: { tag: string }) => x.tag)).toContain(blockedTag);
    // What the model read is the same list the screen shows.
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/tags/trending',
      headers: { cookie: c.asker.cookie },
    });
    expect(m!.lookups[0]!.sources.map((s) => s.tag)).toEqual(
      listed.json().map((x: { tag: string }) => x.tag),
    );
  });

  it('finds gallery items, none by a blocked creator', async ({ t }) => {
    const c = await cast(t, `ga${Date.now().toString(36)}`);
    const title = `Nebula${Date.now().toString(36)}`;
    const ids: Record<string, string> = {};
    for (const [name, member] of Object.entries({ shown: c.shown, blocked: c.blocked, blocker: c.blocker })) {
      ids[name] = randomUUID();
      await t.orm.em
        .fork()
        .execute(
          `insert into ai_media (id, type, title, image_url, width, height, creator_id) values (?, 'art', ?, '/objects/demo/x.png', 640, 480, ?)`,
          [ids[name], `${title} by ${name}`, member.user.id],
        );
    }
    const res = await chat(t.app, c.asker.cookie, `CALL gallery_items {"query":"${title}","type":"art"}`);
    expect(res.statusCode, res.body).toBe(200);
    const content = res.json().reply.content as string;
    expect(content).toContain(ids.shown);
    expect(content).not.toContain(ids.blocked);
    expect(content).not.toContain(ids.blocker);
    for (const name of c.hidden) expect(content).not.toContain(name);
    const [, m] = await messagesOf(t, c.asker.cookie, res.json().sessionId);
    expect(m!.lookups[0]).toMatchObject({
      tool: 'gallery_items',
      label: `Searched the gallery for '${title}'`,
    });
    expect(m!.lookups[0]!.sources.map((s) => s.id)).toEqual([ids.shown]);
    // Browsing without words lists the newest, still without them.
    const browse = await chat(t.app, c.asker.cookie, 'CALL gallery_items {}');
    expect(browse.json().reply.content).not.toContain(ids.blocked);
  });

  it('answers a malformed or unknown call with an error to the model, and shows no look-up for it', async ({
    t,
  }) => {
    const { cookie } = await registerUser(t.app);
    for (const message of [
      'CALL no_such_tool {}',
      'CALL member_profile {"username":"\\u0000 bad name 🧊"}',
    ]) {
      const res = await chat(t.app, cookie, message);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().reply.content).toContain('"error"');
      const [, m] = await messagesOf(t, cookie, res.json().sessionId);
      expect(m!.lookups).toEqual([]);
    }
  });

  it('answers hostile arguments with errors, and calls past 4 a round with an error, never a 5xx', async ({
    t,
  }) => {
    const { cookie } = await registerUser(t.app);
    requests.length = 0;
    const res = await chat(t.app, cookie, 'HOSTILE arguments');
    expect(res.statusCode, res.body).toBe(200);
    const results = requests.filter((r) => r.stream)[1]!.messages.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(5);
    const [long, wrongType, wrongArray, control, fifth] = results.map((r) => JSON.parse(r.content!));
    expect(long.error).toMatch(/^Invalid arguments/);
    expect(wrongType.error).toMatch(/^Invalid arguments/);
    expect(wrongArray.error).toMatch(/^Invalid arguments/);
    // Control characters are refused as the search page refuses them.
    expect(control.error).toBe('Invalid arguments: Query contains characters that are not allowed');
    expect(fifth).toEqual({ error: 'At most 4 calls a round' });
    const [, m] = await messagesOf(t, cookie, res.json().sessionId);
    expect(m!.lookups).toEqual([]);
  });

  it('stops offering tools after 5 rounds, and the model answers', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    requests.length = 0;
    const res = await chat(t.app, cookie, 'LOOP for ever');
    expect(res.statusCode, res.body).toBe(200);
    const streamed = requests.filter((r) => r.stream);
    expect(streamed).toHaveLength(6);
    expect(streamed.slice(0, 5).every((r) => r.tools && r.tools.length > 0)).toBe(true);
    expect(streamed[5]!.tools).toBeUndefined();
    expect(streamed[5]!.messages.filter((m) => m.role === 'tool')).toHaveLength(5);
    expect(res.json().reply.content).toContain('I looked it up.');
    const [, m] = await messagesOf(t, cookie, res.json().sessionId);
    expect(m!.lookups).toHaveLength(5);
  });
});

describe('look-ups, live', () => {
  it('reach the open page as they are made, before the words, and a page that joins later', async ({
    t,
    base,
  }) => {
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { cookie } = await registerUser(t.app);
    const tab = connectLive(base, { cookie });
    const reloaded = connectLive(base, { cookie });
    const follow = (client: LiveClient, messageId: string) => {
      const events = new Events<{ id: string; data: AnswerEvent }>();
      client.client.cubey.onAnswer.subscribe(
        { messageId },
        { onData: (e) => events.push(e as { id: string; data: AnswerEvent }), onError: events.fail },
      );
      return events;
    };
    try {
      // The model asks for trending tags, then waits (hold) before it writes a word.
      const started = await tab.client.cubey.send.mutate({ message: 'CALL trending_tags {} hold' });
      const events = follow(tab, started.reply.id);
      await waitFor(() => events.items.some((e) => e.data.lookups), 5_000, 'the look-up');
      const shown = events.items.find((e) => e.data.lookups)!.data;
      expect(shown).toMatchObject({ status: 'streaming', offset: 0, delta: '' });
      expect(shown.lookups).toEqual([
        expect.objectContaining({ tool: 'trending_tags', label: 'Looked at trending tags' }),
      ]);
      // A page opened now (a reload) gets it with the first step.
      const late = follow(reloaded, started.reply.id);
      await waitFor(() => late.items.length > 0, 5_000, 'the first step');
      expect(late.items[0]!.data).toMatchObject({ status: 'streaming', lookups: shown.lookups });

      release();
      const ended = (e: { data: AnswerEvent }) => e.data.status !== 'streaming';
      await waitFor(() => events.items.some(ended) && late.items.some(ended), 5_000, 'the end');
      const [, saved] = await messagesOf(t, cookie, started.sessionId);
      expect(saved).toMatchObject({ status: 'done', lookups: shown.lookups });
      for (const got of [events, late]) {
        expect(got.items.map((e) => e.data.delta).join('')).toBe(saved!.content);
      }
    } finally {
      release();
      await tab.close();
      await reloaded.close();
    }
  });
});

describe('a model without tools', () => {
  it('answers without them, and is not offered them again', async ({ noTools: n }) => {
    const { cookie } = await registerUser(n.app);
    requests.length = 0;
    const first = await chat(n.app, cookie, 'CALL search_posts {"query":"x"}');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().reply.content).toBe('Hello from the model.');
    const streamed = requests.filter((r) => r.stream);
    expect(streamed.map((r) => Boolean(r.tools))).toEqual([true, false]);
    requests.length = 0;
    const second = await chat(n.app, cookie, 'hello again');
    expect(second.statusCode, second.body).toBe(200);
    expect(requests.filter((r) => r.stream).map((r) => Boolean(r.tools))).toEqual([false]);
  });
});

describe('fair use', () => {
  // Held answers finish before the app closes with the file.
  afterAll(() => release());

  const usage = async (f: TestApp, cookie: string) =>
    (await f.app.inject({ method: 'GET', url: '/api/cubey/usage', headers: { cookie } })).json();

  it('counts the provider’s usage, lets the answer that crosses the limit finish, then answers 429 until the reset', async ({
    fair: f,
  }) => {
    const { cookie } = await registerUser(f.app);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await usage(f, cookie)).toEqual({
      used: 0,
      limit: 100,
      left: 100,
      resetsAt: `${tomorrow}T00:00:00.000Z`,
    });
    expect((await chat(f.app, cookie, 'usage 70')).statusCode).toBe(200);
    expect(await usage(f, cookie)).toMatchObject({ used: 70, left: 30 });
    // Under the limit when it starts: it finishes even though it goes over.
    const over = await chat(f.app, cookie, 'usage 70');
    expect(over.statusCode, over.body).toBe(200);
    expect(over.json().reply.content).toBe('Hello from the model.');
    expect(await usage(f, cookie)).toMatchObject({ used: 140, left: 0 });
    const refused = await chat(f.app, cookie, 'one more');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: `You have used today's 100 Cubey tokens. They reset at 00:00 UTC (${tomorrow}T00:00:00.000Z).`,
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    // Regenerate is an answer too.
    const sessions = (
      await f.app.inject({ method: 'GET', url: '/api/cubey/sessions', headers: { cookie } })
    ).json();
    const regen = await trpc(f.app, cookie, 'cubey.regenerate', { sessionId: sessions[0].id });
    expect(regen.statusCode).toBe(429);
    // Another member is not affected.
    const other = await registerUser(f.app);
    expect((await chat(f.app, other.cookie, 'hi')).statusCode).toBe(200);
    // Operators see the day's tokens: in total, and by the top spenders' names.
    const member = (await register.getSingleMetricAsString('cubes_cubey_day_member_tokens')).split('\n');
    const username = (
      await (await f.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json()
    ).user.username as string;
    expect(member).toContain(`cubes_cubey_day_member_tokens{member="${username}"} 140`);
    const total = await register.getSingleMetricAsString('cubes_cubey_day_tokens');
    expect(Number(/cubes_cubey_day_tokens (\d+)/.exec(total)?.[1])).toBeGreaterThanOrEqual(140);
  });

  it('estimates the tokens when the provider sends no usage', async ({ fair: f }) => {
    const { cookie } = await registerUser(f.app);
    expect((await chat(f.app, cookie, 'no usage here')).statusCode).toBe(200);
    const { used } = await usage(f, cookie);
    // The system prompt, the question and the answer, at about four characters a token.
    expect(used).toBeGreaterThan(50);
    expect(used).toBeLessThan(400);
  });

  it('runs at most 2 answers of a member at once, across two instances', async ({ fair: f, modelUrl }) => {
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A second instance on the same database (its own process state and bus).
    const second = await buildApp({
      orm: f.orm,
      config: {
        allowedOrigins: [],
        cookieSecure: false,
        trustProxy: false,
        rateLimitScale: 1000,
        logLevel: 'silent',
        webDist: null,
        cubey: { baseUrl: modelUrl, model: 'fair', timeoutMs: 10_000, dailyTokens: 0 },
      },
    });
    try {
      const { cookie } = await registerUser(f.app);
      const a = await trpc(f.app, cookie, 'cubey.send', { message: 'hold one' });
      const b = await trpc(second, cookie, 'cubey.send', { message: 'hold two' });
      expect(a.statusCode, a.body).toBe(200);
      expect(b.statusCode, b.body).toBe(200);
      for (const app of [f.app, second]) {
        const third = await trpc(app, cookie, 'cubey.send', { message: 'hold three' });
        expect(third.statusCode).toBe(429);
        expect(third.json().error.json.message).toBe(
          'Cubey is already writing 2 answers for you: wait for one to finish, or stop it',
        );
      }
      // Someone else is not held back.
      const other = await registerUser(f.app);
      expect((await trpc(second, other.cookie, 'cubey.send', { message: 'hi' })).statusCode).toBe(200);
      // Stopping one makes room.
      const stopped = await trpc(f.app, cookie, 'cubey.stop', {
        messageId: a.json().result.data.json.reply.id,
      });
      expect(stopped.statusCode, stopped.body).toBe(200);
      const now = await trpc(second, cookie, 'cubey.send', { message: 'after the stop' });
      expect(now.statusCode, now.body).toBe(200);
    } finally {
      release();
      await second.close();
    }
  });
});
