import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveSubscriptions, pushLive } from '../../test/fake-socket';
import { alice, fakeTrpc, type OutputOf, renderApp, sessionKnown } from '../../test/fake-trpc';
import { TOOLS_STORAGE_KEY } from './tools';

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SESSION = '5e1a0c8e-0000-4000-8000-000000000001';
const ASKED = '5e1a0c8e-0000-4000-8000-000000000002';
const ANSWER = '5e1a0c8e-0000-4000-8000-000000000003';
const at = '2026-01-01T10:00:00.000Z';
const sessions: OutputOf<'cubey.sessions'> = [
  { id: SESSION, title: 'Trending today', createdAt: at, updatedAt: at },
];

function message(overrides: Partial<OutputOf<'cubey.messages'>[number]>): OutputOf<'cubey.messages'>[number] {
  return {
    id: ASKED,
    role: 'user',
    content: 'What is trending?',
    status: 'done',
    error: null,
    createdAt: at,
    lookups: [],
    ...overrides,
  };
}

describe('Cubes page', () => {
  it('lists the four categories and their tools; soon tools are disabled with a badge', async () => {
    fakeTrpc({ 'auth.session': { data: null } });
    renderApp('/cubes');
    await sessionKnown();
    // The file's first render of /cubes transforms and imports the page's lazy modules (the chat's
    // Markdown among them): seconds when the whole suite runs at once (setup.ts's bound covers it).
    const categories = await screen.findByRole('group', { name: 'Category' });
    expect(
      within(categories)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['CUBES', 'SOCIAL AI', 'VIP', 'CUBE3']);
    const tools = screen.getByRole('list', { name: 'CUBES tools' });
    expect(
      within(tools)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Chat with Cubey', 'Art Generator', 'Music AI', 'Fun AI', 'Video AI']);
    fireEvent.click(screen.getByRole('button', { name: 'SOCIAL AI' }));
    const social = screen.getByRole('list', { name: 'SOCIAL AI tools' });
    const xAgent = within(social).getByRole('button', { name: /X AI Agent/ });
    expect((xAgent as HTMLButtonElement).disabled).toBe(true);
    expect(xAgent.textContent).toContain('Soon');
    expect((within(social).getByRole('button', { name: 'Xcube' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'VIP' }));
    const vip = screen.getByRole('list', { name: 'VIP tools' });
    expect(
      within(vip)
        .getAllByRole('button')
        .every((b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'CUBE3' }));
    expect((screen.getByRole('button', { name: 'Crypto AI Analyzer' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(
      (screen.getByRole('button', { name: /L\.L\.C Revenue shares/ }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('gives each tool its icon and one line, and says which are not set up on this server (issue #46)', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'cubey.setup': { data: { assistant: 'offline', mediaGeneration: false } },
    });
    renderApp('/cubes');
    const tools = await screen.findByRole('list', { name: 'CUBES tools' });
    const art = within(tools).getByRole('button', { name: 'Art Generator' });
    expect(art.querySelector('svg')).toBeTruthy();
    await waitFor(() => expect(art.getAttribute('aria-describedby')).toContain('status'));
    const described = (button: HTMLElement) =>
      button
        .getAttribute('aria-describedby')!
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' ');
    expect(described(art)).toBe('Turns a prompt into an image. Not set up here');
    expect(art.closest('li')!.textContent).toContain('Not set up here');
    expect(described(within(tools).getByRole('button', { name: 'Video AI' }))).toContain('Not set up here');
    // Cubey is there, and says how it runs here: the server's answer.
    const cubey = within(tools).getByRole('button', { name: 'Chat with Cubey' });
    expect(described(cubey)).toBe(
      'Offline assistant: answers about the app and the community, no model connected.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'SOCIAL AI' }));
    const xcube = screen.getByRole('button', { name: 'Xcube' });
    expect(described(xcube)).toBe('Drafts and previews a post for X, on this device.');
  });

  it('remembers the tool per category, across a reload', async () => {
    fakeTrpc({ 'auth.session': { data: null } });
    const first = renderApp('/cubes');
    fireEvent.click(await screen.findByRole('button', { name: 'Music AI' }));
    expect(await screen.findByText(/Music AI needs an AI generation service/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'SOCIAL AI' }));
    fireEvent.click(screen.getByRole('button', { name: 'Xcube' }));
    expect((screen.getByLabelText('Your post') as HTMLTextAreaElement).value).toContain('100th cube');
    fireEvent.click(screen.getByRole('button', { name: 'CUBES' }));
    expect(screen.getByRole('button', { name: 'Music AI' }).getAttribute('aria-pressed')).toBe('true');
    expect(JSON.parse(localStorage.getItem(TOOLS_STORAGE_KEY)!).tools).toEqual({
      cubes: 'music',
      social: 'xcube',
    });
    first.unmount();

    renderApp('/cubes');
    await sessionKnown();
    expect((await screen.findByRole('button', { name: 'Music AI' })).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(screen.getByRole('button', { name: 'SOCIAL AI' }));
    expect(screen.getByRole('button', { name: 'Xcube' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('asks a logged-out visitor to log in to chat', async () => {
    fakeTrpc({ 'auth.session': { data: null } });
    renderApp('/cubes');
    expect(await screen.findByText(/Please login to chat with Cubey/)).toBeTruthy();
  });
});

describe('Chat with Cubey', () => {
  it('opens the most recent chat, shows Thinking... then streams the answer in', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': { data: sessions },
      // What the server has saved: the answer as it ends (read again once it has).
      'cubey.messages': () => ({ data: [message({}), saved] }),
    });
    let saved = message({ id: ANSWER, role: 'assistant', content: '', status: 'streaming' });
    renderApp('/cubes');
    await sessionKnown();
    expect(await screen.findByText('What is trending?')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Trending today' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByText('Thinking...')).toBeTruthy();
    await waitFor(() => expect(liveSubscriptions('cubey.onAnswer')).toHaveLength(1));
    expect(liveSubscriptions('cubey.onAnswer')[0]!.input).toEqual({ messageId: ANSWER, lastEventId: '0' });
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);

    pushLive(
      'cubey.onAnswer',
      { messageId: ANSWER, offset: 0, delta: '**Trending** ', status: 'streaming', error: null },
      '13',
    );
    expect(await screen.findByText('Trending')).toBeTruthy();
    expect(screen.queryByText('Thinking...')).toBeNull();
    saved = message({ id: ANSWER, role: 'assistant', content: '**Trending** now', status: 'done' });
    pushLive(
      'cubey.onAnswer',
      { messageId: ANSWER, offset: 13, delta: 'now', status: 'done', error: null },
      '16.done',
    );
    expect(await screen.findByText('now')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Regenerate' })).toBeTruthy();
  });

  it('shows each look-up as the model makes it, above Thinking..., before any words', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': { data: sessions },
      'cubey.messages': {
        data: [message({}), message({ id: ANSWER, role: 'assistant', content: '', status: 'streaming' })],
      },
    });
    renderApp('/cubes');
    await sessionKnown();
    expect(await screen.findByText('Thinking...')).toBeTruthy();
    await waitFor(() => expect(liveSubscriptions('cubey.onAnswer')).toHaveLength(1));
    expect(screen.queryByRole('list', { name: 'Look-ups Cubey made' })).toBeNull();
    const lookup = {
      tool: 'trending_tags',
      label: 'Looked at trending tags',
      sources: [{ kind: 'tag' as const, tag: 'pixelart', label: '#pixelart' }],
    };
    pushLive(
      'cubey.onAnswer',
      { messageId: ANSWER, offset: 0, delta: '', status: 'streaming', error: null, lookups: [lookup] },
      '0',
    );
    const list = await screen.findByRole('list', { name: 'Look-ups Cubey made' });
    expect(within(list).getByText('Looked at trending tags')).toBeTruthy();
    expect(within(list).getByRole('link', { name: '#pixelart' }).getAttribute('href')).toBe('/tags/pixelart');
    expect(screen.getByText('Thinking...')).toBeTruthy();
    // The words follow; the look-ups stay (an event without them keeps the list).
    pushLive(
      'cubey.onAnswer',
      { messageId: ANSWER, offset: 0, delta: 'Pixel art leads.', status: 'streaming', error: null },
      '16',
    );
    expect(await screen.findByText('Pixel art leads.')).toBeTruthy();
    expect(screen.queryByText('Thinking...')).toBeNull();
    expect(
      within(screen.getByRole('list', { name: 'Look-ups Cubey made' })).getByText('Looked at trending tags'),
    ).toBeTruthy();
  });

  it('shows the look-ups an answer made, with links to what it used, and the tokens left today', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': { data: sessions },
      'cubey.usage': {
        data: { used: 1234, limit: 50_000, left: 48_766, resetsAt: '2026-01-02T00:00:00.000Z' },
      },
      'cubey.messages': {
        data: [
          message({}),
          message({
            id: ANSWER,
            role: 'assistant',
            content: 'Pixel art is big this week.',
            status: 'done',
            lookups: [
              {
                tool: 'search_posts',
                label: "Searched posts for 'pixel art'",
                sources: [
                  { kind: 'post', id: SESSION, username: 'alice', label: 'My pixel art cube' },
                  { kind: 'member', username: 'alice', label: 'Alice' },
                ],
              },
              { tool: 'member_profile', label: 'Looked up @nobody', sources: [] },
            ],
          }),
        ],
      },
    });
    renderApp('/cubes');
    await sessionKnown();
    const list = await screen.findByRole('list', { name: 'Look-ups Cubey made' });
    expect(within(list).getByText("Searched posts for 'pixel art'")).toBeTruthy();
    expect(within(list).getByText('· 2 sources')).toBeTruthy();
    expect(within(list).getByText('· nothing found')).toBeTruthy();
    const post = within(list).getByRole('link', { name: '@alice: My pixel art cube' });
    expect(post.getAttribute('href')).toBe(`/posts/${SESSION}`);
    expect(within(list).getByRole('link', { name: 'Alice (@alice)' }).getAttribute('href')).toBe(
      '/profile/alice',
    );
    expect(await screen.findByText('48,766 of 50,000 tokens left today')).toBeTruthy();
    expect(server.called('cubey.usage').length).toBeGreaterThan(0);
  });

  it('sends on Enter, not on Shift+Enter, and never a blank message', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': { data: [] },
      'cubey.send': (input) => ({
        data: {
          sessionId: SESSION,
          message: message({ content: input.message }),
          reply: message({ id: ANSWER, role: 'assistant', content: '', status: 'streaming' }),
        },
      }),
    });
    renderApp('/cubes');
    await sessionKnown();
    const box = await screen.findByRole('textbox', { name: 'Message Cubey' });
    expect(box.getAttribute('placeholder')).toBe('Ask Cubey anything...');
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(server.called('cubey.send')).toHaveLength(0);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(server.called('cubey.send')).toHaveLength(1));
    expect(server.called('cubey.send')[0]!.input).toEqual({ message: 'hello', sessionId: null });
    expect(await screen.findByText('Thinking...')).toBeTruthy();
    // While the answer runs, another send is blocked.
    fireEvent.change(box, { target: { value: 'again' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(server.called('cubey.send')).toHaveLength(1);
  });
  it("checks the message with the send's schema: Enter on an empty one or one too long says why, under the box", async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': { data: [] },
    });
    renderApp('/cubes');
    await sessionKnown();
    const box = await screen.findByRole('textbox', { name: 'Message Cubey' });
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe('Message cannot be empty');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe(error.id);
    // Checked again while typing: too long, then fine.
    fireEvent.change(box, { target: { value: 'x'.repeat(4001) } });
    expect(screen.getByRole('alert').textContent).toBe('Message must be at most 4000 characters');
    fireEvent.change(box, { target: { value: 'x'.repeat(4000) } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(box.getAttribute('aria-invalid')).toBeNull();
    expect(server.called('cubey.send')).toHaveLength(0);
  });
});

describe('Chat with Cubey, live across tabs', () => {
  it('shows a chat another tab started at once, follows its answer and stops it', async () => {
    const OTHER = '5e1a0c8e-0000-4000-8000-000000000004';
    const OTHER_ANSWER = '5e1a0c8e-0000-4000-8000-000000000005';
    let list = sessions;
    let otherMessages: OutputOf<'cubey.messages'> = [];
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': () => ({ data: list }),
      'cubey.messages': (input) => ({
        data:
          input.sessionId === OTHER
            ? otherMessages
            : [message({}), message({ id: ANSWER, role: 'assistant', content: 'Done.', status: 'done' })],
      }),
      'cubey.stop': () => ({ data: { stopped: true } }),
    });
    renderApp('/cubes');
    await sessionKnown();
    expect(await screen.findByText('Done.')).toBeTruthy();
    await waitFor(() => expect(liveSubscriptions('cubey.onSessions')).toHaveLength(1));
    expect(liveSubscriptions('cubey.onAnswer')).toHaveLength(0);

    // Another tab starts a chat: the server tells this one, which shows it (the newest) at once.
    const later = '2026-01-01T11:00:00.000Z';
    list = [{ id: OTHER, title: 'Who posts about cubes', createdAt: later, updatedAt: later }, ...sessions];
    otherMessages = [
      message({ id: '5e1a0c8e-0000-4000-8000-000000000006', content: 'Who posts about cubes?' }),
      message({
        id: OTHER_ANSWER,
        role: 'assistant',
        content: 'Some',
        status: 'streaming',
        createdAt: later,
      }),
    ];
    pushLive(
      'cubey.onSessions',
      { sessionId: OTHER, title: 'Who posts about cubes', streamingId: OTHER_ANSWER },
      '2026-01-01T11:00:00.000000Z',
    );
    expect(await screen.findByRole('button', { name: 'Who posts about cubes' })).toBeTruthy();
    expect(await screen.findByText('Who posts about cubes?')).toBeTruthy();
    // It follows the answer from what it has, and it can stop it.
    await waitFor(() => expect(liveSubscriptions('cubey.onAnswer')).toHaveLength(1));
    expect(liveSubscriptions('cubey.onAnswer')[0]!.input).toEqual({
      messageId: OTHER_ANSWER,
      lastEventId: '4',
    });
    pushLive(
      'cubey.onAnswer',
      { messageId: OTHER_ANSWER, offset: 4, delta: ' members', status: 'streaming', error: null },
      '12',
    );
    expect(await screen.findByText('Some members')).toBeTruthy();
    // The same answer announced again (it ended elsewhere, say) does not reload over the live text.
    const loads = server.called('cubey.messages').length;
    pushLive(
      'cubey.onSessions',
      { sessionId: OTHER, title: 'Who posts about cubes', streamingId: OTHER_ANSWER },
      '2026-01-01T11:00:01.000000Z',
    );
    await waitFor(() => expect(server.called('cubey.sessions').length).toBeGreaterThan(2));
    expect(server.called('cubey.messages')).toHaveLength(loads);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(server.called('cubey.stop')).toHaveLength(1));
    expect(server.called('cubey.stop')[0]!.input).toEqual({ messageId: OTHER_ANSWER });
    pushLive(
      'cubey.onAnswer',
      { messageId: OTHER_ANSWER, offset: 12, delta: '', status: 'stopped', error: null },
      '12.stopped',
    );
    expect(await screen.findByText('Stopped')).toBeTruthy();
    expect(screen.getByText('Some members')).toBeTruthy();
  });
});

describe('Chat with Cubey, managing chats', () => {
  const EDITED = '5e1a0c8e-0000-4000-8000-000000000007';
  const NEW_ANSWER = '5e1a0c8e-0000-4000-8000-000000000008';

  it('edits the last message, switches its versions, renames, deletes with Undo', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': { data: sessions },
      'cubey.messages': {
        data: [
          message({ id: EDITED, content: 'What is new?', versions: [ASKED, EDITED] }),
          message({ id: NEW_ANSWER, role: 'assistant', content: 'New things.', status: 'done' }),
        ],
      },
      'cubey.switchVersion': () => ({
        data: {
          messages: [
            message({ versions: [ASKED, EDITED] }),
            message({ id: ANSWER, role: 'assistant', content: 'Old things.', status: 'done' }),
          ],
        },
      }),
      'cubey.edit': (input) => ({
        data: {
          sessionId: SESSION,
          message: message({ id: EDITED, content: input.message }),
          reply: message({ id: NEW_ANSWER, role: 'assistant', content: '', status: 'streaming' }),
        },
      }),
      'cubey.rename': (input) => ({ data: { session: { ...sessions[0]!, title: input.title } } }),
      'cubey.delete': () => ({ data: { deleted: true } }),
      'cubey.restore': () => ({ data: { session: sessions[0]! } }),
    });
    renderApp('/cubes');
    await sessionKnown();
    // The Cubes page is a chunk of its own: the first render may wait for it.
    expect(await screen.findByText('What is new?')).toBeTruthy();
    const versions = await screen.findByRole('navigation', { name: 'Versions of this message' });
    expect(versions.textContent).toContain('2/2');
    expect(
      (within(versions).getByRole('button', { name: 'Next version' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(within(versions).getByRole('button', { name: 'Previous version' }));
    await waitFor(() => expect(server.called('cubey.switchVersion')).toHaveLength(1));
    expect(server.called('cubey.switchVersion')[0]!.input).toEqual({ messageId: ASKED });
    expect(await screen.findByText('Old things.')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Versions of this message' }).textContent).toContain('1/2');

    fireEvent.click(screen.getByRole('button', { name: 'Edit your message' }));
    const box = screen.getByRole('textbox', { name: 'Edit your message' });
    fireEvent.change(box, { target: { value: 'What is newer?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(server.called('cubey.edit')).toHaveLength(1));
    expect(server.called('cubey.edit')[0]!.input).toEqual({ messageId: ASKED, message: 'What is newer?' });

    fireEvent.click(screen.getByRole('button', { name: 'Rename this chat' }));
    const title = screen.getByRole('textbox', { name: 'Chat title' });
    fireEvent.change(title, { target: { value: 'Newer things' } });
    fireEvent.submit(title.closest('form')!);
    await waitFor(() => expect(server.called('cubey.rename')).toHaveLength(1));
    expect(server.called('cubey.rename')[0]!.input).toEqual({ sessionId: SESSION, title: 'Newer things' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete this chat' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(server.called('cubey.delete')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.called('cubey.delete')).toHaveLength(1));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(server.called('cubey.restore')).toHaveLength(1));
    expect(server.called('cubey.restore')[0]!.input).toEqual({ sessionId: SESSION });
  });

  it("checks a new chat title with the server's schema: an empty one says so and is not sent", async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': { data: sessions },
      'cubey.messages': { data: [message({ status: 'done' })] },
      'cubey.rename': (input) => ({ data: { session: { ...sessions[0]!, title: input.title } } }),
    });
    renderApp('/cubes');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'Rename this chat' }));
    const title = screen.getByRole('textbox', { name: 'Chat title' });
    fireEvent.change(title, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Title cannot be empty');
    expect(document.activeElement).toBe(title);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(server.called('cubey.rename')).toHaveLength(0);

    fireEvent.change(title, { target: { value: ' Cubes I like ' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.called('cubey.rename')).toHaveLength(1));
    expect(server.called('cubey.rename')[0]!.input).toEqual({ sessionId: SESSION, title: 'Cubes I like' });
  });

  it("checks an edited message with the server's schema: an empty one says so and is not sent", async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'cubey.sessions': { data: sessions },
      'cubey.messages': {
        data: [message({}), message({ id: ANSWER, role: 'assistant', content: 'Cubes.', status: 'done' })],
      },
    });
    renderApp('/cubes');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit your message' }));
    const box = screen.getByRole('textbox', { name: 'Edit your message' });
    fireEvent.change(box, { target: { value: '  ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toBe('Message cannot be empty');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(server.called('cubey.edit')).toHaveLength(0);
  });
});
