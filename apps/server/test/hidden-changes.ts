/**
 * posts.onChange tells a listener only of posts it may see (issue #45): never of a post whose
 * author is blocked either way with them, nor of one out of everyone's sight already (removed by a
 * moderator, or its author suspended), whatever the change. Every write goes through `writer`, the
 * listeners (a member and a visitor) are on `reader`: the same server (safety.rest.test.ts), or
 * another process on the same database, where the change travels on the bus
 * (social-tools.instances.test.ts).
 */
import { expect } from 'vitest';
import { connectLive, type LiveClient, waitFor } from './live-client.js';
import { api, registerOver } from './over-http.js';

export interface HiddenChangesSetup {
  writer: string;
  reader: string;
  /** Makes the member named `username` a moderator. */
  makeModerator: (username: string) => Promise<unknown>;
  /** Sockets the test closes after it. */
  clients: LiveClient[];
}

type Change = { postId: string; kind: string };

let n = 0;
async function member(base: string) {
  n += 1;
  const username = `hid${n}${Math.random().toString(36).slice(2, 7)}`;
  return { ...(await registerOver(base, username)), username };
}

async function trpc(base: string, cookie: string, path: string, input: unknown) {
  const res = await fetch(`${base}/trpc/${path}`, {
    method: 'POST',
    headers: { origin: base, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ json: input }),
  });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
}

export async function hiddenChangesScenario({ writer, reader, makeModerator, clients }: HiddenChangesSetup) {
  const [listener, blocker, blocked, suspended, removedAuthor, plain, commenter, mod] = await Promise.all(
    Array.from({ length: 8 }, () => member(writer)),
  );
  await makeModerator(mod!.username);
  const post = async (author: { cookie: string }, content: string) => {
    const made = await api(writer, 'POST', '/api/posts', author.cookie, { content });
    expect(made.status).toBe(201);
    return made.body.post.id as string;
  };
  const edit = async (author: { cookie: string }, postId: string, content: string) =>
    expect((await api(writer, 'PATCH', `/api/posts/${postId}`, author.cookie, { content })).status).toBe(200);
  const comment = async (postId: string) => {
    const made = await api(writer, 'POST', `/api/posts/${postId}/comments`, commenter!.cookie, {
      content: 'hi',
    });
    expect(made.status).toBe(201);
    return made.body.id as string;
  };
  const byBlocker = await post(blocker!, 'by the blocker');
  const byBlocked = await post(blocked!, 'by the blocked');
  const bySuspended = await post(suspended!, 'by the suspended');
  const toRemove = await post(removedAuthor!, 'to be removed');
  const sentinel = await post(plain!, 'sentinel');
  const onSuspended = await comment(bySuspended);
  const onRemoved = await comment(toRemove);
  expect((await api(writer, 'POST', `/api/users/${listener!.id}/block`, blocker!.cookie)).status).toBe(200);
  expect((await api(writer, 'POST', `/api/users/${blocked!.id}/block`, listener!.cookie)).status).toBe(200);
  await trpc(writer, mod!.cookie, 'moderation.suspend', { userId: suspended!.id, days: 3, reason: 'Spam' });

  // A member and a visitor listen on the reader; an edit of a plain post until both heard one
  // says their subscriptions are up.
  const heard = { member: [] as Change[], visitor: [] as Change[] };
  const errors: unknown[] = [];
  for (const [who, cookie] of [
    ['member', listener!.cookie],
    ['visitor', undefined],
  ] as const) {
    const socket = connectLive(reader, cookie ? { cookie } : {});
    clients.push(socket);
    socket.client.posts.onChange.subscribe(undefined, {
      onData: (change) => heard[who].push(change),
      onError: (error) => errors.push(error),
    });
  }
  const both = (check: (changes: Change[]) => boolean) => {
    expect(errors).toEqual([]);
    return check(heard.member) && check(heard.visitor);
  };
  for (let i = 0; !both((c) => c.some((x) => x.postId === sentinel)); i++) {
    expect(i, 'the subscriptions never came up').toBeLessThan(60);
    await edit(plain!, sentinel, `sentinel ${i}`);
    await waitFor(() => both((c) => c.some((x) => x.postId === sentinel)), 500).catch(() => null);
  }

  // The removal itself is told: the post was in sight until then.
  const report = await api(writer, 'POST', '/api/reports', commenter!.cookie, {
    targetType: 'post',
    targetId: toRemove,
    reason: 'Spam',
  });
  expect(report.status).toBe(201);
  await trpc(writer, mod!.cookie, 'moderation.remove', { reportId: report.body.id, reason: 'Spam' });
  // Then changes to posts out of the member's sight, or out of everyone's.
  await edit(blocker!, byBlocker, 'by the blocker, edited');
  await edit(blocked!, byBlocked, 'by the blocked, edited');
  for (const commentId of [onSuspended, onRemoved]) {
    expect((await api(writer, 'DELETE', `/api/comments/${commentId}`, commenter!.cookie)).status).toBe(200);
  }
  expect((await api(writer, 'DELETE', `/api/posts/${toRemove}`, removedAuthor!.cookie)).status).toBe(200);
  // Last, a change everyone may hear: once it arrived, anything before it from the writer has too.
  const last = await post(plain!, 'last');
  await edit(plain!, last, 'last, edited');

  const lastHeard = (c: Change[]) => c.some((x) => x.postId === last);
  const removalHeard = (c: Change[]) => c.some((x) => x.postId === toRemove);
  await waitFor(() => both(lastHeard) && both(removalHeard), 15_000, 'the last change and the removal');
  const after = (changes: Change[]) => changes.filter((x) => x.postId !== sentinel);
  expect(after(heard.member)).toEqual(
    expect.arrayContaining([
      { postId: toRemove, kind: 'deleted' },
      { postId: last, kind: 'edited' },
    ]),
  );
  expect(after(heard.member)).toHaveLength(2);
  // A visitor is blocked by no one: the edits of the pair's posts, and nothing else.
  expect(after(heard.visitor)).toEqual(
    expect.arrayContaining([
      { postId: toRemove, kind: 'deleted' },
      { postId: byBlocker, kind: 'edited' },
      { postId: byBlocked, kind: 'edited' },
      { postId: last, kind: 'edited' },
    ]),
  );
  expect(after(heard.visitor)).toHaveLength(4);
}
