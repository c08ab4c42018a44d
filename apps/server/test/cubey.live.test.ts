/**
 * Cubey's answers, live over real WebSockets: the generation is the server's, so a subscriber
 * that joins mid-answer (a reload, a second tab) gets the text so far and then the rest, every
 * character exactly once; a reconnect with lastEventId gets only what it lacks; Stop works from
 * another connection and keeps the partial answer; regenerate replaces the last answer.
 */
import type { AnswerEvent, SessionEvent } from '@cubes/api';
import { describe, expect } from 'vitest';
import { itWith } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';
import { Events, type LiveClient, waitFor } from './live-client.js';

// A slow offline assistant and small batches, so answers are saved several times mid-stream.
const it = itWith({ config: { cubey: { offlineDelayMs: 15, flushMs: 40, flushBytes: 64 } } });

interface Collected {
  events: Events<{ id: string; data: AnswerEvent }>;
  text: () => string;
  final: () => AnswerEvent | undefined;
  stop: () => void;
}

function follow(client: LiveClient, messageId: string, lastEventId?: string): Collected {
  const events = new Events<{ id: string; data: AnswerEvent }>();
  const sub = client.client.cubey.onAnswer.subscribe(
    { messageId, ...(lastEventId ? { lastEventId } : {}) },
    {
      onStarted: events.start,
      onStopped: events.end,
      onData: (e) => events.push(e as { id: string; data: AnswerEvent }),
      onError: events.fail,
    },
  );
  return {
    events,
    text: () => events.items.map((e) => e.data.delta).join(''),
    final: () => events.items.map((e) => e.data).find((d) => d.status !== 'streaming'),
    stop: () => sub.unsubscribe(),
  };
}

async function messages(t: TestApp, cookie: string, sessionId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/cubey/sessions/${sessionId}/messages`,
    headers: { cookie },
  });
  return res.json() as { id: string; role: string; content: string; status: string }[];
}

describe('Cubey answers, live', () => {
  it('streams an answer; a subscriber that joins mid-answer gets the whole text exactly once', async ({
    t,
    live,
  }) => {
    const { cookie } = await registerUser(t.app);
    const tab1 = live({ cookie });
    const started = await tab1.client.cubey.send.mutate({ message: 'Who are you?' });
    expect(started.reply.status).toBe('streaming');
    const first = follow(tab1, started.reply.id);
    await waitFor(() => first.text().length > 80, 5000, 'the first words');

    // A second tab (or a reload) joins while the answer is being written.
    const tab2 = live({ cookie });
    const second = follow(tab2, started.reply.id);
    await waitFor(() => first.final() !== undefined && second.final() !== undefined, 15_000, 'the end');

    const [, answer] = await messages(t, cookie, started.sessionId);
    expect(answer!.status).toBe('done');
    expect(answer!.content).toContain('offline assistant');
    expect(first.text()).toBe(answer!.content);
    expect(second.text()).toBe(answer!.content);
    // Offsets chain: each delta starts where the previous ended, so nothing came twice.
    for (const c of [first, second]) {
      let at = 0;
      for (const { data } of c.events.items) {
        expect(data.offset).toBe(at);
        at += data.delta.length;
      }
    }
    expect(second.events.items[0]!.data.delta.length).toBeGreaterThan(0);
  });

  it('a reconnect with lastEventId gets only what it lacks; a finished answer sends nothing more', async ({
    t,
    live,
  }) => {
    const { cookie } = await registerUser(t.app);
    const tab = live({ cookie });
    const started = await tab.client.cubey.send.mutate({ message: 'How do I post?' });
    const before = follow(tab, started.reply.id);
    await waitFor(() => before.events.items.length >= 3, 5000, 'some pieces');
    before.stop();
    const had = before.text();
    const lastId = before.events.items.at(-1)!.id;
    const after = follow(live({ cookie }), started.reply.id, lastId);
    await waitFor(() => after.final() !== undefined, 15_000, 'the end');
    const [, answer] = await messages(t, cookie, started.sessionId);
    expect(had + after.text()).toBe(answer!.content);
    expect(after.events.items[0]!.data.offset).toBe(had.length);

    const done = follow(live({ cookie }), started.reply.id, after.events.items.at(-1)!.id);
    await done.events.ended;
    expect(done.events.items).toEqual([]);
  });

  it('stops from another connection, keeping the partial answer marked stopped', async ({ t, live }) => {
    const { cookie } = await registerUser(t.app);
    const tab1 = live({ cookie });
    const started = await tab1.client.cubey.send.mutate({ message: 'What can you do? hello' });
    const watching = follow(tab1, started.reply.id);
    await waitFor(() => watching.text().length > 20, 5000, 'the first words');

    // Another tab, another socket: a send meanwhile is refused, Stop is not.
    const tab2 = live({ cookie });
    await expect(
      tab2.client.cubey.send.mutate({ message: 'again', sessionId: started.sessionId }),
    ).rejects.toMatchObject({ data: { code: 'CONFLICT' } });
    const result = await tab2.client.cubey.stop.mutate({ messageId: started.reply.id });
    expect(result).toEqual({ stopped: true });
    await waitFor(() => watching.final() !== undefined, 5000, 'the stop');
    expect(watching.final()!.status).toBe('stopped');

    const [, answer] = await messages(t, cookie, started.sessionId);
    expect(answer!.status).toBe('stopped');
    expect(answer!.content).toBe(watching.text());
    expect(answer!.content.length).toBeGreaterThan(20);
    expect(answer!.content).not.toContain('CUBEY_MODEL');

    // Stopping again changes nothing; someone else's message is 404.
    expect(await tab2.client.cubey.stop.mutate({ messageId: started.reply.id })).toEqual({ stopped: false });
    const stranger = live({ cookie: (await registerUser(t.app)).cookie });
    await expect(stranger.client.cubey.stop.mutate({ messageId: started.reply.id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    const peek = follow(stranger, started.reply.id);
    await waitFor(() => peek.events.errors.length > 0, 2000, 'the refusal');
  });

  it('regenerate replaces the last answer', async ({ t, live }) => {
    const { cookie } = await registerUser(t.app);
    const tab = live({ cookie });
    const started = await tab.client.cubey.send.mutate({ message: 'What is trending?' });
    const firstAnswer = follow(tab, started.reply.id);
    await waitFor(() => firstAnswer.final() !== undefined, 15_000, 'the first answer');
    const again = await tab.client.cubey.regenerate.mutate({ sessionId: started.sessionId });
    expect(again.reply.id).not.toBe(started.reply.id);
    const second = follow(tab, again.reply.id);
    await waitFor(() => second.final() !== undefined, 15_000, 'the new answer');
    const list = await messages(t, cookie, started.sessionId);
    expect(list.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(list[1]!.id).toBe(again.reply.id);
    expect(list[1]!.content).toBe(second.text());
  });

  it('a tab already open hears of a chat started in another tab, follows its answer and stops it', async ({
    t,
    live,
  }) => {
    const { cookie } = await registerUser(t.app);
    const open = live({ cookie });
    const chats = new Events<{ id: string; data: SessionEvent }>();
    const sub = open.client.cubey.onSessions.subscribe(
      {},
      {
        onStarted: chats.start,
        onData: (e) => chats.push(e as { id: string; data: SessionEvent }),
        onError: chats.fail,
      },
    );
    // Nothing yet to announce: a member with no chats gets no first event (the first is the chat below).
    await chats.started;

    // Another tab (another socket) starts a chat.
    const other = live({ cookie });
    const started = await other.client.cubey.send.mutate({ message: 'Who are you? tell me everything' });
    const created = await chats.next(3000);
    expect(created.data).toMatchObject({ sessionId: started.sessionId, streamingId: started.reply.id });
    expect(created.id).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

    // The open tab follows the answer it was told of, and stops it.
    const watching = follow(open, created.data.streamingId!);
    await waitFor(() => watching.text().length > 20, 5000, 'the first words');
    expect(await open.client.cubey.stop.mutate({ messageId: started.reply.id })).toEqual({ stopped: true });
    await waitFor(() => watching.final() !== undefined, 5000, 'the stop');
    const ended = await chats.next(3000);
    expect(ended.data).toMatchObject({ sessionId: started.sessionId, streamingId: null });
    expect(ended.id >= created.id).toBe(true);
    sub.unsubscribe();

    // Back after missing a new answer in that chat: the catch-up from lastEventId tells of it.
    const again = await other.client.cubey.send.mutate({ message: 'hello', sessionId: started.sessionId });
    const back = new Events<{ id: string; data: SessionEvent }>();
    open.client.cubey.onSessions.subscribe(
      { lastEventId: ended.id },
      { onData: (e) => back.push(e as { id: string; data: SessionEvent }), onError: back.fail },
    );
    const caught = await back.next(3000);
    expect(caught.data.sessionId).toBe(started.sessionId);
    expect([again.reply.id, null]).toContain(caught.data.streamingId);
    expect(caught.id > ended.id).toBe(true);

    // A stranger hears nothing of it; a hostile lastEventId is only ignored.
    const stranger = live({ cookie: (await registerUser(t.app)).cookie });
    const theirs = new Events<unknown>();
    stranger.client.cubey.onSessions.subscribe(
      { lastEventId: "1970-01-01T00:00:00.000000Z' or 1=1 --" },
      { onStarted: theirs.start, onData: theirs.push, onError: theirs.fail },
    );
    await theirs.started;
    await other.client.cubey.stop.mutate({ messageId: again.reply.id });
    // Then the stranger starts a chat of their own: the first event they hear is of it.
    const own = await stranger.client.cubey.send.mutate({ message: 'mine' });
    expect((await theirs.next()) as { data: SessionEvent }).toMatchObject({
      data: { sessionId: own.sessionId },
    });
    expect(theirs.errors).toEqual([]);
  });
});
