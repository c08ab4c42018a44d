import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveSubscriptions, pushLive } from '../../test/fake-socket';
import {
  type AnswerOf,
  alice,
  deferred,
  fakeTrpc,
  makePost,
  renderApp,
  serverError,
  sessionKnown,
} from '../../test/fake-trpc';
import { toastRegion } from '../../test/toasts';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('home hero', () => {
  it('holds its button row while the session is asked for, then offers joining to a visitor', async () => {
    const session = deferred<AnswerOf<'auth.session'>>();
    fakeTrpc({
      'auth.session': () => session.promise,
      'posts.feed': { data: { items: [], nextCursor: null } },
    });
    renderApp('/');
    const hero = await screen.findByRole('region', { name: 'Welcome to Cubes AI' });
    // Held, not shown: nothing to read or reach yet.
    expect(within(hero).queryByRole('link')).toBeNull();
    expect(hero.querySelector('.invisible[aria-hidden="true"]')).not.toBeNull();
    session.resolve({ data: null });
    expect((await within(hero).findByRole('link', { name: 'Join the community' })).getAttribute('href')).toBe(
      '/auth?tab=register',
    );
    expect(hero.querySelector('.invisible')).toBeNull();
  });

  it('is for visitors: a member starts at the composer and the feed', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    expect(
      await screen.findByRole('heading', { level: 1, name: "Hi Alice Cube, here is what's new" }),
    ).toBeTruthy();
    expect(await screen.findByPlaceholderText("What's on your mind?")).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Welcome to Cubes AI' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Join the community' })).toBeNull();
  });
});

describe('home feed', () => {
  it('asks for no feed while the session is asked for: a member’s comes with its tabs, drawn once', async () => {
    const session = deferred<AnswerOf<'auth.session'>>();
    const sessionAsked = deferred<void>();
    const trpc = fakeTrpc({
      'auth.session': () => {
        sessionAsked.resolve();
        return session.promise;
      },
      'posts.feed': {
        data: { items: [makePost({ content: 'Drawn once, under the tabs' })], nextCursor: null },
      },
    });
    renderApp('/');
    await sessionAsked.promise;
    // The page's own loading state and the feed's may both show for a moment: either will do.
    expect((await screen.findAllByText('Loading posts...')).length).toBeGreaterThan(0);
    // A feed drawn now would be drawn again under the member's tabs (moved, anything opened closed).
    // (The one-post check for news, limit 1, may run at any time: it draws nothing.)
    const pages = trpc.called('posts.feed').filter((c) => (c.input as { limit?: number }).limit !== 1);
    expect(pages).toEqual([]);
    session.resolve({ data: { user: alice, isModerator: false } });
    const panel = await screen.findByRole('tabpanel', { name: 'Everyone' });
    expect(await within(panel).findByText('Drawn once, under the tabs')).toBeTruthy();
  });

  it("says 'Loading posts...' and then shows the posts with author, time and content", async () => {
    const gate = deferred<AnswerOf<'posts.feed'>>();
    fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': () => gate.promise,
    });
    renderApp('/');
    await sessionKnown();
    expect(await screen.findByText('Loading posts...')).toBeTruthy();
    gate.resolve({
      data: {
        items: [makePost({ content: 'line one\nsee https://cubes.ai', likesCount: 3, commentsCount: 2 })],
        nextCursor: null,
      },
    });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(within(card).getByRole('link', { name: 'Bob Block' }).getAttribute('href')).toBe('/profile/bob');
    const handle = within(card).getByRole('link', { name: '@bob' });
    expect(handle.getAttribute('href')).toBe('/profile/bob');
    // Left to right in any page, so Arabic does not lay it out as `bob@`.
    expect(handle.getAttribute('dir')).toBe('ltr');
    const time = card.querySelector('time');
    // The shared clock catches up once the first time on screen subscribes (an effect after the
    // first paint, which may draw against the clock's last tick): wait for it, not for a moment.
    await waitFor(() => expect(time?.textContent).toBe('5 minutes ago'));
    expect(time?.getAttribute('datetime')).toMatch(/Z$/);
    expect(time?.getAttribute('title')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'https://cubes.ai' }).getAttribute('rel')).toBe(
      'noopener noreferrer nofollow',
    );
    // The count each button shows is part of its name (WCAG 2.5.3, "label in name").
    const like = within(card).getByRole('button', { name: 'Like, 3 likes' });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    expect(like.textContent).toBe('3');
    expect(within(card).getByRole('button', { name: 'Comments, 2 comments' }).textContent).toBe('2');
    expect(screen.queryByText('Loading posts...')).toBeNull();
  });

  it('asks a visitor to log in on Like and sends nothing', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('link', { name: 'Login' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: /^Like,/ }));
    const region = await toastRegion();
    expect(await within(region).findByText('Please login to like posts')).toBeTruthy();
    expect(within(region).getByText('You need to be logged in to interact with posts')).toBeTruthy();
    expect(server.called('posts.like')).toHaveLength(0);
    expect(
      within(card)
        .getByRole('button', { name: /^Like,/ })
        .getAttribute('aria-pressed'),
    ).toBe('false');
  });

  it('flips the like at once, and rolls it back with a toast when the server fails', async () => {
    const gate = deferred<AnswerOf<'posts.like'>>();
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [makePost({ likesCount: 4 })], nextCursor: null } },
      'posts.like': () => gate.promise,
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: /^Like,/ }));

    // Optimistic: pressed and counted before the server answers.
    const unlike = await within(card).findByRole('button', { name: /^Unlike,/ });
    expect(unlike.getAttribute('aria-pressed')).toBe('true');
    expect(unlike.textContent).toContain('5');
    await waitFor(() => expect(server.called('posts.like')).toHaveLength(1));
    expect(server.called('posts.like')[0]?.input).toEqual({ postId: makePost().id });

    await act(async () => {
      gate.resolve(serverError);
    });
    const like = await within(card).findByRole('button', { name: /^Like,/ });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    expect(like.textContent).toContain('4');
    const region = await toastRegion();
    expect(await within(region).findByText('Failed to update like')).toBeTruthy();
    expect(within(region).getByText('Please try again')).toBeTruthy();
  });

  it('keeps the like on success and refreshes the feed', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [makePost({ likesCount: 0 })], nextCursor: null } },
      'posts.like': { data: { liked: true, likesCount: 1 } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    const feedCalls = () => server.called('posts.feed').length;
    await waitFor(() => expect(feedCalls()).toBeGreaterThan(0));
    const before = feedCalls();
    fireEvent.click(within(card).getByRole('button', { name: /^Like,/ }));
    const unlike = await within(card).findByRole('button', { name: /^Unlike,/ });
    expect(unlike.textContent).toContain('1');
    await waitFor(() => expect(feedCalls()).toBeGreaterThan(before));
  });

  it("offers 'New posts' as soon as the socket announces one, and refreshes on click", async () => {
    const older = makePost({ id: '9a1b0c8e-0000-4000-8000-000000000001', content: 'older' });
    const newer = makePost({
      id: '9a1b0c8e-0000-4000-8000-000000000002',
      content: 'newer',
      createdAt: new Date().toISOString(),
    });
    let published = false;
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': (input) =>
        (input as { limit: number }).limit === 1
          ? { data: { items: [published ? newer : older], nextCursor: null } }
          : { data: { items: published ? [newer, older] : [older], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByText('older');
    await waitFor(() => expect(liveSubscriptions('posts.onNew')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'New posts' })).toBeNull();

    published = true;
    pushLive('posts.onNew', {
      postId: newer.id,
      authorId: newer.userId,
      createdAt: newer.createdAt,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New posts' }));
    expect(await screen.findByText('newer')).toBeTruthy();
    expect(server.called('posts.feed').length).toBeGreaterThanOrEqual(4);
  });

  it('shows the empty state', async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'posts.feed': { data: { items: [], nextCursor: null } } });
    renderApp('/');
    await sessionKnown();
    expect(await screen.findByText('No posts yet. Be the first to post!')).toBeTruthy();
  });

  it("pages with 'Load more' on the cursor", async () => {
    const first = makePost({ id: '9a1b0c8e-0000-4000-8000-000000000021', content: 'page one' });
    const second = makePost({ id: '9a1b0c8e-0000-4000-8000-000000000022', content: 'page two' });
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': (input) => {
        const { cursor, limit } = input ?? {};
        if (limit === 1) return { data: { items: [first], nextCursor: 'c1' } };
        return cursor === 'c1'
          ? { data: { items: [second], nextCursor: null } }
          : { data: { items: [first], nextCursor: 'c1' } };
      },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByText('page one');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('page two')).toBeTruthy();
    expect(server.called('posts.feed').some((c) => c.input?.cursor === 'c1')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('opens the comments thread, lists it oldest first and adds a comment', async () => {
    const post = makePost({ commentsCount: 1 });
    const comment = (id: string, content: string) => ({
      id,
      userId: alice.id,
      username: 'alice',
      userDisplayName: 'Alice Cube',
      userAvatarUrl: null,
      content,
      createdAt: new Date().toISOString(),
      mentions: [],
    });
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [post], nextCursor: null } },
      'comments.list': { data: { items: [comment('c-1', 'first!')], nextCursor: null } },
      'comments.create': (input) => ({ data: comment('c-2', input.content) }),
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    const toggle = within(card).getByRole('button', { name: /^Comments,/ });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await within(card).findByText('first!')).toBeTruthy();
    fireEvent.change(within(card).getByLabelText('Write a comment'), { target: { value: 'second' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Comment' }));
    const thread = within(card).getByRole('region', { name: 'Comments' });
    expect(await within(within(thread).getByRole('list')).findByText('second')).toBeTruthy();
    const items = within(thread).getAllByRole('listitem');
    expect(items.map((li) => li.textContent?.includes('second'))).toEqual([false, true]);
    expect(server.called('comments.create')[0]?.input).toEqual({ postId: post.id, content: 'second' });
    await waitFor(() => expect(toggle.textContent).toContain('2'));
  });

  it("checks a comment with the procedure's schema: an empty or too long one says why and is not sent", async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
      'comments.list': { data: { items: [], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: /^Comments,/ }));
    const box = await within(card).findByLabelText('Write a comment');
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    const error = await within(card).findByRole('alert');
    expect(error.textContent).toBe('Comment cannot be empty');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe(error.id);
    // Checked again while typing.
    fireEvent.change(box, { target: { value: 'x'.repeat(2001) } });
    expect(within(card).getByRole('alert').textContent).toBe('Comment must be at most 2000 characters');
    fireEvent.click(within(card).getByRole('button', { name: 'Comment' }));
    fireEvent.change(box, { target: { value: 'fine now' } });
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(server.called('comments.create')).toHaveLength(0);
  });

  it('pages a long thread with "Show more comments" on the cursor', async () => {
    const comment = (n: number) => ({
      id: `c-${n}`,
      userId: alice.id,
      username: 'alice',
      userDisplayName: 'Alice Cube',
      userAvatarUrl: null,
      content: `comment number ${n}`,
      createdAt: new Date().toISOString(),
      mentions: [],
    });
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [makePost({ commentsCount: 3 })], nextCursor: null } },
      'comments.list': (input) =>
        input.cursor === 'page-2'
          ? { data: { items: [comment(3)], nextCursor: null } }
          : { data: { items: [comment(1), comment(2)], nextCursor: 'page-2' } },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: /^Comments,/ }));
    expect(await within(card).findByText('comment number 2')).toBeTruthy();
    expect(within(card).queryByText('comment number 3')).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Show more comments' }));
    expect(await within(card).findByText('comment number 3')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Show more comments' })).toBeNull();
    const thread = within(card).getByRole('region', { name: 'Comments' });
    expect(
      within(thread)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.match(/number (\d)/)?.[1]),
    ).toEqual(['1', '2', '3']);
    expect(server.called('comments.list').map((c) => c.input.cursor ?? null)).toEqual([null, 'page-2']);
  });

  it('asks a visitor to log in before commenting', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
      'comments.list': { data: { items: [], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('link', { name: 'Login' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: /^Comments,/ }));
    expect(await within(card).findByText('No comments yet.')).toBeTruthy();
    fireEvent.change(within(card).getByLabelText('Write a comment'), { target: { value: 'hi' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Comment' }));
    expect(await within(await toastRegion()).findByText('Please login to comment')).toBeTruthy();
    expect(server.called('comments.create')).toHaveLength(0);
  });

  it('copies the post link when the share sheet is not available', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: 'Share' }));
    expect(await within(await toastRegion()).findByText('Link copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/posts/${makePost().id}`);
  });

  describe('an old link to one post (/?post=)', () => {
    it("goes on to the post's own page in its place, where Back goes home", async () => {
      const older = makePost({
        id: '9a1b0c8e-0000-4000-8000-000000000099',
        content: 'an older post from a notification',
        userDisplayName: 'Old Timer',
      });
      const server = fakeTrpc({
        'auth.session': { data: null },
        'posts.feed': { data: { items: [makePost()], nextCursor: null } },
        'posts.byId': { data: { post: older } },
        'comments.list': { data: { items: [], nextCursor: null } },
      });
      renderApp(`/?post=${older.id}`);
      await sessionKnown();
      expect(await screen.findByRole('heading', { level: 1, name: 'Post' })).toBeTruthy();
      const card = await screen.findByRole('article', { name: 'Post by Old Timer' });
      expect(card.textContent).toContain('an older post from a notification');
      expect(server.called('posts.byId').map((c) => c.input)).toEqual([{ postId: older.id }]);
      // Replaced, not pushed: Back does not return to the old link (which would lead here again).
      fireEvent.click(screen.getByRole('link', { name: 'Back' }));
      expect(await screen.findByRole('article', { name: 'Post by Bob Block' })).toBeTruthy();
      expect(screen.queryByRole('article', { name: 'Post by Old Timer' })).toBeNull();
    });
  });
});

describe('cards below the first screen', () => {
  it('are laid out only near the screen, but not while their comments are open', async () => {
    const posts = Array.from({ length: 6 }, (_, n) =>
      makePost({ id: `9a1b0c8e-0000-4000-8000-00000000010${n}`, content: `post ${n}` }),
    );
    fakeTrpc({
      'posts.feed': { data: { items: posts, nextCursor: null } },
      'comments.list': { data: { items: [], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    await waitFor(() =>
      expect(screen.getAllByRole('article', { name: 'Post by Bob Block' })).toHaveLength(6),
    );
    const cards = screen.getAllByRole('article', { name: 'Post by Bob Block' });
    // The first cards (drawn at once, on the first screen) go without: they would be drawn a frame
    // late, moving what is under them.
    expect(cards.map((card) => card.classList.contains('drawn-when-near'))).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    // The @ list of an open comment box is drawn past the card, which the containment would clip.
    const fifth = cards[4]!;
    fireEvent.click(within(fifth).getByRole('button', { name: /^Comments,/ }));
    expect(await within(fifth).findByLabelText('Write a comment')).toBeTruthy();
    expect(fifth.classList.contains('drawn-when-near')).toBe(false);
    fireEvent.click(within(fifth).getByRole('button', { name: /^Comments,/ }));
    await waitFor(() => expect(fifth.classList.contains('drawn-when-near')).toBe(true));
  });

  it("the list's first card fetches its first image at once and first; the rest wait until near", async () => {
    const image = (n: number) => ({
      url: `/objects/uploads/0000000${n}-0000-4000-8000-000000000000`,
      thumbUrl: `/objects/uploads/0000000${n}-0000-4000-8000-000000000000/thumb`,
      width: 800,
      height: 600,
      alt: `Picture ${n}`,
      sensitive: false,
    });
    const first = makePost({ id: 'f0000000-0000-4000-8000-000000000001', images: [image(1), image(2)] });
    const second = makePost({ id: 'f0000000-0000-4000-8000-000000000002', images: [image(3)] });
    fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [first, second], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    const picture = async (n: number) => (await screen.findByAltText(`Picture ${n}`)) as HTMLImageElement;
    expect([
      (await picture(1)).getAttribute('loading'),
      (await picture(1)).getAttribute('fetchpriority'),
    ]).toEqual(['eager', 'high']);
    for (const n of [2, 3]) {
      expect([
        (await picture(n)).getAttribute('loading'),
        (await picture(n)).getAttribute('fetchpriority'),
      ]).toEqual(['lazy', 'auto']);
    }
  });
});
