import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveSubscriptions, pushLive } from '../../test/fake-socket';
import {
  alice,
  bob,
  deferred,
  fakeTrpc,
  type OutputOf,
  renderApp,
  serverError,
  sessionKnown,
} from '../../test/fake-trpc';
import { wideScreen } from '../../test/screen-width';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const conversations: OutputOf<'messages.conversations'> = [
  {
    userId: bob.id,
    username: bob.username,
    displayName: bob.displayName,
    avatarUrl: null,
    lastMessage: 'see you',
    lastMessageTime: new Date(Date.now() - 60_000),
    lastMessageMine: false,
    unread: 2,
  },
];

function message(
  id: string,
  from: string,
  to: string,
  content: string,
  minutesAgo = 1,
): OutputOf<'messages.send'> {
  return {
    id,
    senderId: from,
    receiverId: to,
    content,
    createdAt: new Date(Date.now() - minutesAgo * 60_000),
    readAt: null,
    clientId: null,
  };
}

const bobPeer: OutputOf<'messages.peer'> = {
  userId: bob.id,
  username: bob.username,
  displayName: bob.displayName,
  avatarUrl: null,
  canMessage: true,
};

function server(overrides: Parameters<typeof fakeTrpc>[0] = {}) {
  return fakeTrpc({
    'auth.session': { data: { user: alice, isModerator: false } },
    'notifications.unreadCount': { data: { count: 0 } },
    'messages.unreadCount': { data: { count: 2 } },
    'messages.conversations': { data: conversations },
    'messages.peer': { data: bobPeer },
    'messages.thread': {
      data: {
        items: [
          message('m1', bob.id, alice.id, 'hello alice', 3),
          message('m2', alice.id, bob.id, 'hi bob', 2),
        ],
        nextCursor: null,
      },
    },
    'messages.markRead': { data: { ok: true, updated: 0 } },
    'messages.typing': { data: { ok: true } },
    ...overrides,
  });
}

describe('Chat page', () => {
  it('lists conversations, opens the first by itself, and shows own bubbles apart', async () => {
    wideScreen();
    server();
    renderApp('/chat');
    await sessionKnown();
    const list = await screen.findByRole('region', { name: 'Conversations' });
    expect((await within(list).findByText('see you')).textContent).toBe('see you');
    expect(within(list).getByTestId('conversation-unread').textContent).toContain('2');
    const thread = await screen.findByRole('region', { name: 'Thread' });
    const bubbles = await within(thread).findAllByRole('listitem');
    expect(bubbles.map((b) => b.getAttribute('data-mine'))).toEqual(['false', 'true']);
    expect(bubbles[1]!.textContent).toContain('Sent');
    // The receipt is apart from the time for a screen reader: "2 minutes ago, Sent", not "agoSent".
    const meta = within(bubbles[1]!).getByTestId('read-receipt').parentElement!;
    expect(meta.querySelector('time')).toBeTruthy();
    expect(meta.textContent).toMatch(/^\S.*\S, Sent$/);
    // The nav link keeps its name; the count is its description.
    const chatLinks = screen.getAllByRole('link', { name: 'Chat' });
    expect(chatLinks.length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.getAllByText('2 unread messages').length).toBeGreaterThan(0));
  });

  it('sends on Enter (not Shift+Enter), shows it pending, then sent; a failure offers a retry', async () => {
    const answer = deferred<{ data: OutputOf<'messages.send'> }>();
    let attempts = 0;
    const calls = server({
      'messages.send': () => {
        attempts += 1;
        if (attempts === 1)
          return { error: { message: 'boom', code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } };
        return answer.promise;
      },
    });
    renderApp(`/chat?user=${bob.id}`);
    await sessionKnown();
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'line one' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(calls.called('messages.send')).toHaveLength(0);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('Failed to send message')).toBeTruthy();
    expect(screen.getByText('Please try again')).toBeTruthy();
    const retry = await screen.findByRole('button', { name: 'Retry' });
    fireEvent.click(retry);
    expect(await screen.findByText('Sending...')).toBeTruthy();
    // Blocked while in flight.
    fireEvent.change(box, { target: { value: 'second' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(calls.called('messages.send')).toHaveLength(2);
    const [first, second] = calls.called('messages.send');
    expect(second!.input.clientId).toBe(first!.input.clientId);
    // The live event comes first: the echo gives way to it, nothing shows twice.
    await waitFor(() => expect(liveSubscriptions('messages.live')).toHaveLength(1));
    const echoed = {
      ...message('m3', alice.id, bob.id, 'line one', 0),
      clientId: first!.input.clientId ?? null,
    };
    pushLive('messages.live', { type: 'message', message: echoed });
    await waitFor(() => expect(screen.queryByText('Sending...')).toBeNull());
    expect(screen.getAllByText('line one').length).toBe(1);
    answer.resolve({ data: echoed });
    await waitFor(() => expect(screen.queryByText('Sending...')).toBeNull());
    expect(screen.getAllByText('line one').length).toBe(1);
  });

  it('tells the peer the member is typing, and that they stopped when the draft is sent or emptied', async () => {
    const calls = server({
      'messages.send': (input) => ({ data: message('m9', alice.id, bob.id, input.content) }),
    });
    renderApp(`/chat?user=${bob.id}`);
    await sessionKnown();
    const box = await screen.findByRole('textbox', { name: 'Message' });
    const typing = () => calls.called('messages.typing').map((call) => call.input.active);
    fireEvent.change(box, { target: { value: 'h' } });
    await waitFor(() => expect(typing()).toEqual([true]));
    // Within TYPING_REFRESH_MS a second key says nothing new.
    fireEvent.change(box, { target: { value: 'hi' } });
    fireEvent.change(box, { target: { value: '' } });
    await waitFor(() => expect(typing()).toEqual([true, false]));
    fireEvent.change(box, { target: { value: 'hello' } });
    await waitFor(() => expect(typing()).toEqual([true, false, true]));
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(typing()).toEqual([true, false, true, false]));
    expect(calls.called('messages.typing').every((call) => call.input.userId === bob.id)).toBe(true);
    expect(calls.called('messages.send')[0]?.input.content).toBe('hello');
  });

  it("checks the draft with the send's schema: Enter on an empty or too long one says why and sends nothing", async () => {
    const calls = server({
      'messages.send': (input) => ({ data: message('m9', alice.id, bob.id, input.content) }),
    });
    renderApp(`/chat?user=${bob.id}`);
    await sessionKnown();
    const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe('Message cannot be empty');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe(error.id);
    // Checked again while typing.
    fireEvent.change(box, { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByRole('alert').textContent).toBe('Message must be at most 2000 characters');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(calls.called('messages.send')).toHaveLength(0);
    // A valid draft goes, trimmed; the box is empty and quiet after.
    fireEvent.change(box, { target: { value: '  hello  ' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.called('messages.send')).toHaveLength(1));
    expect(calls.called('messages.send')[0]?.input).toMatchObject({ receiverId: bob.id, content: 'hello' });
    expect(box.value).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('takes messages, receipts and typing from the live subscription', async () => {
    server();
    renderApp(`/chat?user=${bob.id}`);
    await sessionKnown();
    const thread = await screen.findByRole('region', { name: 'Thread' });
    await within(thread).findByText('hi bob');
    await waitFor(() => expect(liveSubscriptions('messages.live')).toHaveLength(1));
    pushLive('messages.live', { type: 'typing', userId: bob.id, active: true });
    expect(await within(thread).findByText(`${bob.displayName} is typing...`)).toBeTruthy();
    pushLive('messages.live', { type: 'message', message: message('m9', bob.id, alice.id, 'live hello', 0) });
    expect(await within(thread).findByText('live hello')).toBeTruthy();
    await waitFor(() => expect(within(thread).queryByText(/is typing/)).toBeNull());
    pushLive('messages.live', {
      type: 'read',
      peerId: bob.id,
      lastReadId: 'm2',
      lastReadCreatedAt: new Date(),
    });
    expect(await within(thread).findByText('Seen')).toBeTruthy();
    pushLive('messages.live', { type: 'unread', count: 0 });
    await waitFor(() => expect(screen.queryAllByTestId('chat-unread-badge')).toHaveLength(0));
  });

  it('marks the open thread read (loading it only reads), and live messages while the page is on screen', async () => {
    const calls = server();
    renderApp(`/chat?user=${bob.id}`);
    await sessionKnown();
    const thread = await screen.findByRole('region', { name: 'Thread' });
    await within(thread).findByText('hello alice');
    // bob's 'hello alice' came unread: the open thread marks it read, once.
    await waitFor(() => expect(calls.called('messages.markRead')).toHaveLength(1));
    expect(calls.called('messages.markRead')[0]!.input).toEqual({ userId: bob.id });
    await waitFor(() => expect(liveSubscriptions('messages.live')).toHaveLength(1));
    pushLive('messages.live', { type: 'message', message: message('m8', bob.id, alice.id, 'while here', 0) });
    await within(thread).findByText('while here');
    await waitFor(() => expect(calls.called('messages.markRead')).toHaveLength(2));
  });

  it('marks nothing read while the page is hidden, and does once it is shown again', async () => {
    let visibility: DocumentVisibilityState = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    const calls = server();
    renderApp(`/chat?user=${bob.id}`);
    await sessionKnown();
    const thread = await screen.findByRole('region', { name: 'Thread' });
    await waitFor(() => expect(calls.called('messages.markRead')).toHaveLength(1));
    await waitFor(() => expect(liveSubscriptions('messages.live')).toHaveLength(1));

    visibility = 'hidden';
    fireEvent(document, new Event('visibilitychange'));
    pushLive('messages.live', { type: 'message', message: message('m10', bob.id, alice.id, 'unseen', 0) });
    await within(thread).findByText('unseen');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.called('messages.markRead')).toHaveLength(1);

    visibility = 'visible';
    fireEvent(document, new Event('visibilitychange'));
    await waitFor(() => expect(calls.called('messages.markRead')).toHaveLength(2));
  });

  it('on a phone, shows the list, then the thread with a Back button', async () => {
    server();
    renderApp('/chat');
    await sessionKnown();
    const list = await screen.findByRole('region', { name: 'Conversations' });
    fireEvent.click(await within(list).findByRole('button', { name: /Bob Block/ }));
    const thread = await screen.findByRole('region', { name: 'Thread' });
    expect(screen.queryByRole('region', { name: 'Conversations' })).toBeNull();
    fireEvent.click(within(thread).getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('region', { name: 'Conversations' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Thread' })).toBeNull();
  });

  it("says 'Failed to fetch messages' when the list cannot be loaded", async () => {
    server({ 'messages.conversations': serverError });
    renderApp('/chat');
    await sessionKnown();
    expect(await screen.findByText('Failed to fetch messages')).toBeTruthy();
  });

  describe('following the newest message', () => {
    /** jsdom lays nothing out: give the thread's scroller a height, a content height and a position. */
    function layout(box: HTMLElement, initial: { content: number; view: number }) {
      const state = { content: initial.content, view: initial.view, top: 0 };
      Object.defineProperty(box, 'scrollHeight', { configurable: true, get: () => state.content });
      Object.defineProperty(box, 'clientHeight', { configurable: true, get: () => state.view });
      Object.defineProperty(box, 'scrollTop', {
        configurable: true,
        get: () => state.top,
        set: (value: number) => {
          state.top = Math.max(0, Math.min(value, state.content - state.view));
        },
      });
      return state;
    }

    async function openThread() {
      const calls = server({
        'messages.send': (input) => ({
          data: { ...message('mine1', alice.id, bob.id, input.content, 0), clientId: input.clientId ?? null },
        }),
      });
      renderApp(`/chat?user=${bob.id}`);
      await sessionKnown();
      const thread = await screen.findByRole('region', { name: 'Thread' });
      const box = within(thread).getByTestId('thread-scroller');
      const state = layout(box, { content: 1000, view: 300 });
      await within(thread).findByText('hi bob');
      await waitFor(() => expect(liveSubscriptions('messages.live')).toHaveLength(1));
      return { calls, thread, box, state };
    }

    const scrollTo = (box: HTMLElement, top: number) => {
      box.scrollTop = top;
      fireEvent.scroll(box);
    };

    it('follows a new message while the reader is at the bottom, with no marker', async () => {
      const { thread, box, state } = await openThread();
      scrollTo(box, 700); // the bottom
      state.content = 1100;
      pushLive('messages.live', { type: 'message', message: message('m5', bob.id, alice.id, 'one more', 0) });
      await within(thread).findByText('one more');
      expect(state.top).toBe(800);
      expect(within(thread).queryByRole('button', { name: 'New messages' })).toBeNull();
    });

    it('stays put when the reader scrolled up and shows the marker, which takes them down', async () => {
      const { thread, box, state } = await openThread();
      scrollTo(box, 100);
      state.content = 1100;
      pushLive('messages.live', {
        type: 'message',
        message: message('m6', bob.id, alice.id, 'while away', 0),
      });
      await within(thread).findByText('while away');
      expect(state.top).toBe(100);
      const marker = await within(thread).findByRole('button', { name: 'New messages' });
      fireEvent.click(marker);
      expect(state.top).toBe(800);
      await waitFor(() => expect(within(thread).queryByRole('button', { name: 'New messages' })).toBeNull());

      // Scrolled up again: a second message shows the marker; scrolling down by hand clears it.
      scrollTo(box, 200);
      state.content = 1200;
      pushLive('messages.live', {
        type: 'message',
        message: message('m7', bob.id, alice.id, 'and again', 0),
      });
      await within(thread).findByText('and again');
      expect(await within(thread).findByRole('button', { name: 'New messages' })).toBeTruthy();
      scrollTo(box, 880);
      await waitFor(() => expect(within(thread).queryByRole('button', { name: 'New messages' })).toBeNull());
    });

    it('a message of my own always takes the reader to the bottom', async () => {
      const { thread, box, state } = await openThread();
      scrollTo(box, 50);
      state.content = 1150;
      const input = within(thread).getByRole('textbox', { name: 'Message' });
      fireEvent.change(input, { target: { value: 'my own words' } });
      fireEvent.keyDown(input, { key: 'Enter' });
      await within(thread).findAllByText('my own words');
      await waitFor(() => expect(state.top).toBe(850));
      expect(within(thread).queryByRole('button', { name: 'New messages' })).toBeNull();
    });

    it('a receipt or a typing event does not move the reader nor show the marker', async () => {
      const { thread, box, state } = await openThread();
      scrollTo(box, 100);
      pushLive('messages.live', { type: 'typing', userId: bob.id, active: true });
      expect(await within(thread).findByText(`${bob.displayName} is typing...`)).toBeTruthy();
      pushLive('messages.live', {
        type: 'read',
        peerId: bob.id,
        lastReadId: 'm2',
        lastReadCreatedAt: new Date(),
      });
      expect(await within(thread).findByText('Seen')).toBeTruthy();
      expect(state.top).toBe(100);
      expect(within(thread).queryByRole('button', { name: 'New messages' })).toBeNull();
    });
  });
});
