/**
 * Issue #46, bug 10: text in the composer, a comment box or Cubey's input survives leaving the
 * page and coming back, per place, until it is sent; logout drops every draft; closing the tab
 * with an unsent post asks first.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, makePost, renderApp, sessionKnown } from '../test/fake-trpc';

const member = { data: { user: alice, isModerator: false } };
const first = makePost({ id: '9a1b0c8e-0000-4000-8000-000000000011', content: 'First post' });
const second = makePost({ id: '9a1b0c8e-0000-4000-8000-000000000012', content: 'Second post' });
const feed = { data: { items: [first, second], nextCursor: null } };
const noComments = { data: { items: [], nextCursor: null } };

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const nav = () => within(screen.getByRole('navigation', { name: 'Main navigation' }));
const composerField = () =>
  screen.findByPlaceholderText("What's on your mind?") as Promise<HTMLTextAreaElement>;

async function goAwayAndBack(back: 'Home' | 'Cubes') {
  fireEvent.click(nav().getByRole('link', { name: 'Gallery' }));
  await screen.findByRole('heading', { name: /gallery/i, level: 1 });
  fireEvent.click(nav().getByRole('link', { name: back }));
}

function unloadIsStopped(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('drafts', () => {
  it("the composer's text comes back after another page, and goes once posted", async () => {
    const server = fakeTrpc({
      'auth.session': member,
      'posts.feed': feed,
      'posts.create': (input) => ({ data: { post: makePost({ content: input.content, userId: alice.id }) } }),
    });
    renderApp('/');
    await sessionKnown();
    fireEvent.change(await composerField(), { target: { value: 'half a thought' } });
    expect(unloadIsStopped()).toBe(true);
    await goAwayAndBack('Home');
    const field = await composerField();
    expect(field.value).toBe('half a thought');

    const post = screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement;
    await waitFor(() => expect(post.disabled).toBe(false));
    fireEvent.click(post);
    await waitFor(() => expect(server.called('posts.create')).toHaveLength(1));
    await waitFor(() => expect(field.value).toBe(''));
    expect(unloadIsStopped()).toBe(false);
    await goAwayAndBack('Home');
    expect((await composerField()).value).toBe('');
  });

  it("a comment box keeps its own post's draft", async () => {
    fakeTrpc({ 'auth.session': member, 'posts.feed': feed, 'comments.list': noComments });
    renderApp('/');
    await sessionKnown();
    const card = async (text: string) => (await screen.findByText(text)).closest('article') as HTMLElement;
    fireEvent.click(within(await card('First post')).getByRole('button', { name: /^Comments,/ }));
    fireEvent.change(await within(await card('First post')).findByPlaceholderText(/comment/i), {
      target: { value: 'nice one' },
    });
    // Comments alone never hold the tab: only a post does.
    expect(unloadIsStopped()).toBe(false);
    await goAwayAndBack('Home');
    fireEvent.click(within(await card('First post')).getByRole('button', { name: /^Comments,/ }));
    fireEvent.click(within(await card('Second post')).getByRole('button', { name: /^Comments,/ }));
    const firstBox = (await within(await card('First post')).findByPlaceholderText(
      /comment/i,
    )) as HTMLTextAreaElement;
    const secondBox = (await within(await card('Second post')).findByPlaceholderText(
      /comment/i,
    )) as HTMLTextAreaElement;
    expect(firstBox.value).toBe('nice one');
    expect(secondBox.value).toBe('');
  });

  it('a half-typed Cubey question comes back; logout drops every draft', async () => {
    fakeTrpc({
      'auth.session': member,
      'posts.feed': feed,
      'cubey.sessions': { data: [] },
      'auth.logout': { data: { ok: true } },
    });
    renderApp('/cubes');
    await sessionKnown();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Message Cubey' }), {
      target: { value: 'What is trend' },
    });
    await goAwayAndBack('Cubes');
    const box = (await screen.findByRole('textbox', { name: 'Message Cubey' })) as HTMLTextAreaElement;
    expect(box.value).toBe('What is trend');

    fireEvent.keyDown(screen.getByRole('button', { name: 'Account menu' }), { key: 'Enter' });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await screen.findByRole('link', { name: 'Login' });
    expect(Object.keys(window.sessionStorage).filter((key) => key.startsWith('cubes.draft.'))).toEqual([]);
  });

  it('with session storage blocked, the composer still takes text and still asks before the tab closes', async () => {
    vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    fakeTrpc({ 'auth.session': member, 'posts.feed': feed });
    renderApp('/');
    await sessionKnown();
    const field = await composerField();
    fireEvent.change(field, { target: { value: 'kept in the page' } });
    expect(field.value).toBe('kept in the page');
    expect(unloadIsStopped()).toBe(true);
  });
});
