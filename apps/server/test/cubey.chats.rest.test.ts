/**
 * Managing Cubey chats over REST and tRPC: rename (hostile titles refused), the title proposed
 * after the first answer, delete and Undo (and the purge after), search by words in titles and
 * messages, edit the last message and resend it with its earlier version kept to switch back to.
 * Another member's chats and messages are 404 everywhere; a suspended member is logged out.
 */
import { purgeDeletedChats, setRole } from '@cubes/api';
import { describe, expect, vi } from 'vitest';
import { itWith } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';
import { MIN_WAIT_MS } from './live-client.js';

const it = itWith({ config: { cubey: { offlineDelayMs: 0 } } });

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const call = (t: TestApp, cookie: string, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

async function chat(t: TestApp, cookie: string, message: string, sessionId?: string) {
  const res = await call(t, cookie, 'POST', '/api/cubey/chat', {
    message,
    ...(sessionId ? { sessionId } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { sessionId: string; reply: { id: string; content: string } };
}

interface Message {
  id: string;
  role: string;
  content: string;
  status: string;
  versions?: string[];
}

async function messages(t: TestApp, cookie: string, sessionId: string): Promise<Message[]> {
  const res = await call(t, cookie, 'GET', `/api/cubey/sessions/${sessionId}/messages`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The messages once no answer is streaming. */
async function settled(t: TestApp, cookie: string, sessionId: string): Promise<Message[]> {
  return vi.waitFor(
    async () => {
      const list = await messages(t, cookie, sessionId);
      if (list.some((m) => m.status === 'streaming')) throw new Error('an answer is streaming');
      return list;
    },
    { timeout: MIN_WAIT_MS, interval: 20 },
  );
}

async function titles(t: TestApp, cookie: string): Promise<string[]> {
  return ((await call(t, cookie, 'GET', '/api/cubey/sessions')).json() as { title: string }[]).map(
    (s) => s.title,
  );
}

describe('renaming a chat', () => {
  it('renames, keeps hostile text as text, refuses bad titles, 404 for others and unknown ids', async ({
    t,
  }) => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const { sessionId } = await chat(t, owner.cookie, 'hello');
    const renamed = await call(t, owner.cookie, 'PATCH', `/api/cubey/sessions/${sessionId}`, {
      title: '  My   <script>alert(1)</script>\n🧊 plans  ',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().session).toMatchObject({
      id: sessionId,
      title: 'My <script>alert(1)</script> 🧊 plans',
    });
    expect(await titles(t, owner.cookie)).toEqual(['My <script>alert(1)</script> 🧊 plans']);

    for (const title of ['', '   ', 'x'.repeat(121), 'a\u0000b', 'a\u0007b', 42, null]) {
      const res = await call(t, owner.cookie, 'PATCH', `/api/cubey/sessions/${sessionId}`, { title });
      expect(res.statusCode, String(title).slice(0, 20)).toBe(400);
    }
    // 70,000 characters: refused by the body limit or the schema, never stored.
    const huge = await call(t, owner.cookie, 'PATCH', `/api/cubey/sessions/${sessionId}`, {
      title: 'x'.repeat(70_000),
    });
    expect([400, 413]).toContain(huge.statusCode);
    expect(
      (await call(t, other.cookie, 'PATCH', `/api/cubey/sessions/${sessionId}`, { title: 'Mine now' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(t, owner.cookie, 'PATCH', `/api/cubey/sessions/${crypto.randomUUID()}`, { title: 'x' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(t, owner.cookie, 'PATCH', '/api/cubey/sessions/not-a-uuid', { title: 'x' })).statusCode,
    ).toBe(404);
    expect((await call(t, '', 'PATCH', `/api/cubey/sessions/${sessionId}`, { title: 'x' })).statusCode).toBe(
      401,
    );
    expect(await titles(t, owner.cookie)).toEqual(['My <script>alert(1)</script> 🧊 plans']);
  });

  it('proposes a title from the exchange after the first answer (a local summary offline), not over a rename', async ({
    t,
  }) => {
    const { cookie } = await registerUser(t.app);
    await chat(t, cookie, 'What is trending today in the cube world?');
    await vi.waitFor(async () => expect(await titles(t, cookie)).toEqual(['Trending today cube world']), {
      timeout: MIN_WAIT_MS,
      interval: 20,
    });
    // A second answer proposes nothing: the title stays.
    const { id: sessionId } = (await call(t, cookie, 'GET', '/api/cubey/sessions')).json()[0];
    await call(t, cookie, 'PATCH', `/api/cubey/sessions/${sessionId}`, { title: 'Mine' });
    await chat(t, cookie, 'How do I post?', sessionId);
    await settled(t, cookie, sessionId); // a title would be proposed as the answer ends
    expect(await titles(t, cookie)).toEqual(['Mine']);
  });
});

describe('deleting a chat', () => {
  it('hides it everywhere, Undo restores it with its messages, the purge ends it; 404 for others', async ({
    t,
  }) => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const kept = await chat(t, owner.cookie, 'first chat');
    const { sessionId } = await chat(t, owner.cookie, 'gone soon');
    const before = await settled(t, owner.cookie, sessionId);

    expect((await call(t, other.cookie, 'DELETE', `/api/cubey/sessions/${sessionId}`)).statusCode).toBe(404);
    expect((await call(t, owner.cookie, 'DELETE', '/api/cubey/sessions/nope')).statusCode).toBe(404);
    const deleted = await call(t, owner.cookie, 'DELETE', `/api/cubey/sessions/${sessionId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ deleted: true });
    expect((await call(t, owner.cookie, 'DELETE', `/api/cubey/sessions/${sessionId}`)).statusCode).toBe(404);

    const list = (await call(t, owner.cookie, 'GET', '/api/cubey/sessions')).json() as { id: string }[];
    expect(list.map((s) => s.id)).toEqual([kept.sessionId]);
    expect((await call(t, owner.cookie, 'GET', `/api/cubey/sessions/${sessionId}/messages`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(t, owner.cookie, 'POST', '/api/cubey/chat', { message: 'still there?', sessionId }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(t, owner.cookie, 'PATCH', `/api/cubey/sessions/${sessionId}`, { title: 'x' })).statusCode,
    ).toBe(404);

    // Undo: only the owner, once.
    expect((await call(t, other.cookie, 'POST', `/api/cubey/sessions/${sessionId}/restore`)).statusCode).toBe(
      404,
    );
    const restored = await call(t, owner.cookie, 'POST', `/api/cubey/sessions/${sessionId}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().session.id).toBe(sessionId);
    expect((await call(t, owner.cookie, 'POST', `/api/cubey/sessions/${sessionId}/restore`)).statusCode).toBe(
      404,
    );
    expect(await messages(t, owner.cookie, sessionId)).toEqual(before);

    // Deleted, then purged: Undo no longer reaches it, and its rows are gone.
    await call(t, owner.cookie, 'DELETE', `/api/cubey/sessions/${sessionId}`);
    expect(await purgeDeletedChats(t.orm.em.fork(), 0)).toBeGreaterThanOrEqual(1);
    expect((await call(t, owner.cookie, 'POST', `/api/cubey/sessions/${sessionId}/restore`)).statusCode).toBe(
      404,
    );
    const rows = await t.orm.em
      .fork()
      .execute('select count(*)::int as n from chat_messages where session_id = ?', [sessionId]);
    expect(rows[0]?.n).toBe(0);
  });
});

describe('searching chats', () => {
  it('finds words in titles and messages (by prefix), only the caller’s live chats; hostile queries are safe', async ({
    t,
  }) => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    // Letters only, and ends the stemmer leaves alone ("zq", "zx"): a time in base 36 made words
    // the parser split at digits or the stemmer cut short, and the prefix missed now and then.
    const letters = Date.now()
      .toString(36)
      .replace(/[0-9]/g, (d) => 'abcdfghjkm'[Number(d)]!);
    const word = `quasar${letters}zqzx`;
    const inMessage = await chat(t, owner.cookie, `Tell me about ${word} lighthouses please`);
    const inTitle = await chat(t, owner.cookie, 'hello');
    await call(t, owner.cookie, 'PATCH', `/api/cubey/sessions/${inTitle.sessionId}`, {
      title: `Notes on ${word}`,
    });
    const gone = await chat(t, owner.cookie, `${word} to delete`);
    await call(t, owner.cookie, 'DELETE', `/api/cubey/sessions/${gone.sessionId}`);
    await chat(t, other.cookie, `Tell me about ${word} too`);
    await chat(t, owner.cookie, 'nothing related');

    const search = (cookie: string, query: string) =>
      call(t, cookie, 'GET', `/api/cubey/search?query=${encodeURIComponent(query)}`);
    const found = await search(owner.cookie, word.slice(0, -2));
    expect(found.statusCode, found.body).toBe(200);
    const hits = found.json() as { id: string; title: string; snippet: string | null }[];
    expect(hits.map((h) => h.id).sort()).toEqual([inMessage.sessionId, inTitle.sessionId].sort());
    expect(hits.find((h) => h.id === inMessage.sessionId)!.snippet).toContain(word);
    expect(
      (await search(owner.cookie, `"${word} lighthouses"`)).json().map((h: { id: string }) => h.id),
    ).toEqual([inMessage.sessionId]);
    expect(
      (await search(owner.cookie, `${word} -lighthouses`)).json().map((h: { id: string }) => h.id),
    ).toEqual([inTitle.sessionId]);
    expect((await search(other.cookie, 'nothing related')).json()).toEqual([]);

    for (const query of ["'&|!:*\\%_", '', '   ', '🧊🧊', `${word}'):* | !`]) {
      const res = await search(owner.cookie, query);
      expect(res.statusCode, query).toBe(200);
    }
    expect((await search(owner.cookie, 'a\u0000b')).statusCode).toBe(400);
    expect((await search(owner.cookie, 'x'.repeat(70_000))).statusCode).toBe(400);
    expect((await call(t, '', 'GET', '/api/cubey/search?query=x')).statusCode).toBe(401);
  });
});

describe('editing the last message', () => {
  it('replaces the answer after it, keeps the earlier version to switch back to; 404/409 where it must', async ({
    t,
  }) => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const first = await chat(t, owner.cookie, 'How do I post?');
    const { sessionId } = first;
    await chat(t, owner.cookie, 'What is trending?', sessionId);
    const before = await settled(t, owner.cookie, sessionId);
    expect(before.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const [q1, , q2, a2] = before as [Message, Message, Message, Message];

    expect(
      (await call(t, other.cookie, 'PUT', `/api/cubey/messages/${q2.id}`, { message: 'mine' })).statusCode,
    ).toBe(404);
    expect(
      (await call(t, owner.cookie, 'PUT', `/api/cubey/messages/${a2.id}`, { message: 'x' })).statusCode,
    ).toBe(404);
    expect(
      (await call(t, owner.cookie, 'PUT', `/api/cubey/messages/${crypto.randomUUID()}`, { message: 'x' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(t, owner.cookie, 'PUT', `/api/cubey/messages/${q1.id}`, { message: 'x' })).statusCode,
    ).toBe(409);
    for (const message of ['', 'x'.repeat(4001), 'a\u0000b', 42])
      expect(
        (await call(t, owner.cookie, 'PUT', `/api/cubey/messages/${q2.id}`, { message })).statusCode,
      ).toBe(400);

    const edited = await call(t, owner.cookie, 'PUT', `/api/cubey/messages/${q2.id}`, {
      message: 'How do I upload an image?',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().message.content).toBe('How do I upload an image?');
    const after = await settled(t, owner.cookie, sessionId);
    expect(after.map((m) => m.content.slice(0, 40))).toEqual([
      before[0]!.content.slice(0, 40),
      before[1]!.content.slice(0, 40),
      'How do I upload an image?',
      expect.any(String),
    ]);
    expect(after[3]!.content).toContain('Media');
    expect(after[3]!.id).not.toBe(a2.id);
    expect(after[2]!.versions).toEqual([q2.id, after[2]!.id]);
    expect(after[0]!.versions).toBeUndefined();
    // The model is given the edited question only, not the version it replaced.
    const again = await chat(t, owner.cookie, 'thanks', sessionId);
    expect(again.reply.content).toBeTruthy();
    const withThanks = await settled(t, owner.cookie, sessionId);
    expect(withThanks).toHaveLength(6);
    // Not the last message any more: its versions cannot be switched, nor can it be edited.
    expect((await call(t, owner.cookie, 'POST', `/api/cubey/messages/${q2.id}/show`)).statusCode).toBe(409);

    // A fresh chat: edit, switch back, switch forward.
    const chat2 = await chat(t, owner.cookie, 'Who are you?');
    const [p1, b1] = (await settled(t, owner.cookie, chat2.sessionId)) as [Message, Message];
    const e = (
      await call(t, owner.cookie, 'PUT', `/api/cubey/messages/${p1.id}`, { message: 'How do I post?' })
    ).json();
    await settled(t, owner.cookie, chat2.sessionId);
    expect((await call(t, other.cookie, 'POST', `/api/cubey/messages/${p1.id}/show`)).statusCode).toBe(404);
    const back = await call(t, owner.cookie, 'POST', `/api/cubey/messages/${p1.id}/show`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().messages.map((m: Message) => m.id)).toEqual([p1.id, b1.id]);
    expect(back.json().messages[0].versions).toEqual([p1.id, e.message.id]);
    expect((await messages(t, owner.cookie, chat2.sessionId)).map((m) => m.id)).toEqual([p1.id, b1.id]);
    const forward = await call(t, owner.cookie, 'POST', `/api/cubey/messages/${e.message.id}/show`);
    expect(forward.json().messages.map((m: Message) => m.id)).toEqual([e.message.id, e.reply.id]);
  });

  it('works over tRPC, and a suspended member is logged out of every chat procedure', async ({ t }) => {
    const member = await registerUser(t.app);
    const mod = await registerUser(t.app);
    await setRole(t.orm.em.fork(), mod.user.username, 'moderator');
    const { sessionId } = await chat(t, member.cookie, 'hello');
    const [q] = await settled(t, member.cookie, sessionId);
    const trpc = (cookie: string, path: string, input: unknown) =>
      t.app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { cookie }, payload: { json: input } });
    const edit = await trpc(member.cookie, 'cubey.edit', { messageId: q!.id, message: 'Who are you?' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().result.data.json.message.content).toBe('Who are you?');
    await settled(t, member.cookie, sessionId);
    const rename = await trpc(member.cookie, 'cubey.rename', { sessionId, title: 'Via tRPC' });
    expect(rename.statusCode).toBe(200);

    const suspend = await trpc(mod.cookie, 'moderation.suspend', {
      userId: member.user.id,
      days: 1,
      reason: 'Spam',
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    expect((await trpc(member.cookie, 'cubey.rename', { sessionId, title: 'x' })).statusCode).toBe(401);
    expect((await call(t, member.cookie, 'DELETE', `/api/cubey/sessions/${sessionId}`)).statusCode).toBe(401);
    expect((await call(t, member.cookie, 'GET', '/api/cubey/search?query=who')).statusCode).toBe(401);
  });
});
