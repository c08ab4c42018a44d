/**
 * The OpenAI-compatible provider against a real HTTP server on 127.0.0.1 that this test starts
 * and that speaks the streaming chat-completions protocol (SSE `data:` chunks, then `[DONE]`):
 * the answer streams, the history is trimmed to the token budget with the system prompt kept,
 * the model names the session in a request of its own, and failures and timeouts keep the
 * user's message, mark the answer failed with a readable reason and answer 502, asked once (no
 * retry); Stop ends the request to the model; nothing of the machine goes in the headers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as readBody } from 'node:stream/consumers';
import { describe, expect, vi } from 'vitest';
import { it as withApp } from './fixtures.js';
import { listen, registerUser, type TestApp } from './harness.js';
import { connectLive, MIN_WAIT_MS, waitFor } from './live-client.js';

interface ChatRequest {
  model: string;
  stream: boolean;
  messages: { role: string; content: string }[];
  authorization: string | undefined;
  headers: Record<string, unknown>;
}

const requests: ChatRequest[] = [];
/** Shaped as OpenAI's project keys are. */
const API_KEY = 'sk-proj-Q3x9LmZ2vB7tR4nK8wYc';
/** Resolves when the request of a `hold` question is closed by the app. */
let holdClosed: Promise<void> = new Promise(() => {});

/** What the fake model does is chosen by the last user message. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
const it = withApp.extend('modelUrl', { scope: 'file' }, async ({}, { onCleanup }) => {
  const model = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Omit<ChatRequest, 'authorization' | 'headers'>;
    requests.push({ ...body, authorization: req.headers.authorization, headers: req.headers });
    if (req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ choices: [{ message: { role: 'assistant', content: '"Cubes and Friends."' } }] }),
      );
      return;
    }
    const question = body.messages.at(-1)?.content ?? '';
    // Providers echo the key they were sent: whole, masked, or as the header itself.
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const echo = `Incorrect API key provided: ${key}. Masked: ${key.slice(0, 8)}****${key.slice(-4)}; header: ${req.headers.authorization}`;
    if (question.includes('echo the key')) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: echo } }));
      return;
    }
    if (question.includes('stream the key')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ error: { message: echo } })}\n\n`);
      return;
    }
    if (question.includes('vllm')) {
      // vLLM's error body: the words in `message`, no `error` object.
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'error',
          message: "This model's maximum context length is 4096 tokens",
          type: 'BadRequestError',
          code: 400,
        }),
      );
      return;
    }
    if (question.includes('overload')) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'The model is overloaded' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (question.includes('hold')) {
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Held' } }] })}\n\n`);
      holdClosed = new Promise((resolve) => res.once('close', () => resolve()));
      return; // until the app closes the request
    }
    if (question.includes('hang')) {
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Partial' } }] })}\n\n`);
      return; // never finishes: the idle timeout must end it
    }
    const pieces = ['Hello', ' from', ' the', ' model', '!'];
    for (const piece of pieces) {
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
      // The model's own pace (what is simulated), not a wait for something.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    res.write('data: [DONE]\n\n');
    res.end();
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  onCleanup(async () => {
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
  });
  return `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});
it.override('appOptions', ({ modelUrl }) => ({
  config: {
    cubey: {
      baseUrl: modelUrl,
      apiKey: API_KEY,
      model: 'test-model',
      // Long enough for a loaded CI machine; the idle test waits this long once.
      timeoutMs: 2_000,
      contextTokens: 300,
    },
  },
}));

describe('OpenAI-compatible provider', () => {
  const chat = (t: TestApp, cookie: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/cubey/chat', headers: { cookie }, payload });

  it('streams the answer, sends the system prompt and key, and names the session apart', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    requests.length = 0;
    const res = await chat(t, cookie, { message: 'hello there model' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().reply.content).toBe('Hello from the model!');
    const streamed = requests.find((r) => r.stream)!;
    expect(streamed.model).toBe('test-model');
    expect(streamed.authorization).toBe(`Bearer ${API_KEY}`);
    expect(streamed.messages[0]!.role).toBe('system');
    expect(streamed.messages[0]!.content).toContain('Cubey');
    expect(streamed.messages.at(-1)).toEqual({ role: 'user', content: 'hello there model' });
    // Nothing of this machine (the SDK's OS, architecture and Node version headers).
    expect(Object.keys(streamed.headers).filter((name) => name.startsWith('x-stainless'))).toEqual([]);
    // The title is its own request, not part of the answer's.
    await vi.waitFor(
      async () => {
        const sessions = await t.app.inject({
          method: 'GET',
          url: '/api/cubey/sessions',
          headers: { cookie },
        });
        expect(sessions.json()[0].title).toBe('Cubes and Friends');
      },
      { timeout: MIN_WAIT_MS, interval: 20 },
    );
    expect(requests.some((r) => !r.stream)).toBe(true);
  });

  it('trims the history to the token budget, newest first, keeping the system prompt', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const first = (await chat(t, cookie, { message: `oldest ${'a'.repeat(600)}` })).json();
    await chat(t, cookie, { message: `middle ${'b'.repeat(200)}`, sessionId: first.sessionId });
    requests.length = 0;
    await chat(t, cookie, { message: 'newest question', sessionId: first.sessionId });
    const sent = requests.find((r) => r.stream)!.messages;
    expect(sent[0]!.role).toBe('system');
    expect(sent.at(-1)!.content).toBe('newest question');
    expect(sent.some((m) => m.content.startsWith('middle'))).toBe(true);
    expect(sent.some((m) => m.content.startsWith('oldest'))).toBe(false);
  });

  it('on a provider error keeps the message, marks the answer failed and answers 502', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    requests.length = 0;
    const res = await chat(t, cookie, { message: 'please overload' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      message: 'The AI provider answered 503: The model is overloaded',
      code: 'BAD_GATEWAY',
    });
    // Asked once: the member sees the failure at once and chooses to try again.
    expect(requests.filter((r) => r.stream)).toHaveLength(1);
    const sessions = await t.app.inject({ method: 'GET', url: '/api/cubey/sessions', headers: { cookie } });
    const messages = await t.app.inject({
      method: 'GET',
      url: `/api/cubey/sessions/${sessions.json()[0].id}/messages`,
      headers: { cookie },
    });
    const [question, answer] = messages.json();
    expect(question).toMatchObject({ role: 'user', content: 'please overload', status: 'done' });
    expect(answer).toMatchObject({
      role: 'assistant',
      status: 'failed',
      error: 'The AI provider answered 503: The model is overloaded',
    });
  });

  it('shows the words of an error body written as vLLM writes it', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const res = await chat(t, cookie, { message: 'vllm, answer 400' });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(
      "The AI provider answered 400: This model's maximum context length is 4096 tokens",
    );
  });

  it('never shows any part of the key, whatever the provider writes in its error', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    for (const message of ['please echo the key', 'please stream the key']) {
      const res = await chat(t, cookie, { message });
      expect(res.statusCode, res.body).toBe(502);
      const sessions = await t.app.inject({ method: 'GET', url: '/api/cubey/sessions', headers: { cookie } });
      const stored = await t.app.inject({
        method: 'GET',
        url: `/api/cubey/sessions/${sessions.json()[0].id}/messages`,
        headers: { cookie },
      });
      const error = stored.json()[1].error as string;
      expect(res.json().message).toBe(error);
      // Still says what went wrong.
      expect(error).toMatch(
        /^The AI provider (answered 401|failed): Incorrect API key provided: \[redacted\]/,
      );
      for (const text of [res.body, stored.body]) {
        for (let i = 0; i + 4 <= API_KEY.length; i++) expect(text).not.toContain(API_KEY.slice(i, i + 4));
        expect(text).not.toMatch(/sk-|Bearer (?!\[redacted\])/);
      }
    }
  });

  it('times out a stalled stream, keeping the part that came', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const res = await chat(t, cookie, { message: 'hang please' });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe('The AI provider did not answer within 2 s');
    const sessions = await t.app.inject({ method: 'GET', url: '/api/cubey/sessions', headers: { cookie } });
    const messages = await t.app.inject({
      method: 'GET',
      url: `/api/cubey/sessions/${sessions.json()[0].id}/messages`,
      headers: { cookie },
    });
    expect(messages.json()[1]).toMatchObject({ status: 'failed', content: 'Partial' });
  });

  it('Stop ends the request to the model, keeping what came; no key, no Authorization header', async ({
    appWith,
    modelUrl,
  }) => {
    // A timeout far beyond the test: only Stop can end this answer.
    const keyless = await appWith({
      config: { cubey: { baseUrl: modelUrl, model: 'test-model', timeoutMs: 600_000 } },
    });
    const { cookie } = await registerUser(keyless.app);
    const live = connectLive(await listen(keyless.app), { cookie });
    try {
      requests.length = 0;
      const started = await live.client.cubey.send.mutate({ message: 'hold on' });
      await waitFor(() => requests.some((r) => r.stream), 30_000, 'the request to the model');
      expect(requests[0]!.authorization).toBeUndefined();
      const closed = holdClosed;
      expect(await live.client.cubey.stop.mutate({ messageId: started.reply.id })).toEqual({ stopped: true });
      await closed;
      const answer = await vi.waitFor(
        async () => {
          const res = await keyless.app.inject({
            method: 'GET',
            url: `/api/cubey/sessions/${started.sessionId}/messages`,
            headers: { cookie },
          });
          const reply = res.json()[1] as { status: string; content: string };
          expect(reply.status).toBe('stopped');
          return reply;
        },
        { timeout: 30_000, interval: 50 },
      );
      expect(answer.content).toBe('Held');
    } finally {
      await live.close();
    }
  });

  it('answers 502 when the provider cannot be reached', async ({ appWith }) => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = await appWith({
      config: { cubey: { baseUrl: `http://127.0.0.1:${port}/v1`, timeoutMs: 500 } },
    });
    const { cookie } = await registerUser(down.app);
    const res = await down.app.inject({
      method: 'POST',
      url: '/api/cubey/chat',
      headers: { cookie },
      payload: { message: 'anyone there?' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      message: 'The AI provider could not be reached',
      code: 'BAD_GATEWAY',
      reason: 'AI_PROVIDER_UNREACHABLE',
    });
  });

  it('says on GET /api/cubey/setup that Cubey runs on a model here, and no media generation (issue #46)', async ({
    t,
  }) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cubey/setup' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ assistant: 'model', mediaGeneration: false });
  });
});
