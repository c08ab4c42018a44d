import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnswerOf,
  alice,
  deferred,
  fakeTrpc,
  makePost,
  renderApp,
  sessionKnown,
} from '../../test/fake-trpc';
import { toastRegion } from '../../test/toasts';
import { endsLabel, type PollData } from './poll';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const signedIn = { data: { user: alice, isModerator: false } } as const;
const inADay = () => new Date(Date.now() + 24 * 3_600_000 + 30_000).toISOString();

const hidden = (): PollData => ({
  options: [
    { text: 'Tea', votesCount: null },
    { text: `Coffee ${'really '.repeat(20)}strong`, votesCount: null },
    { text: 'Water 💧', votesCount: null },
  ],
  votersCount: 3,
  expiresAt: inADay(),
  multiple: false,
  ownChoices: [],
  expired: false,
});

describe('a post’s poll', () => {
  it('asks before results: a labelled choice, Vote, then the bars with the voter’s choice marked', async () => {
    const gate = deferred<AnswerOf<'polls.vote'>>();
    const server = fakeTrpc({
      'auth.session': signedIn,
      'posts.feed': { data: { items: [makePost({ poll: hidden() })], nextCursor: null } },
      'polls.vote': () => gate.promise,
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    const group = await within(card).findByRole('group', { name: 'Poll: choose one' });
    expect(within(card).getByText(/3 votes · ends in 1 day/)).toBeTruthy();
    expect(within(card).getByText(/Results show once you vote/)).toBeTruthy();
    const vote = within(card).getByRole('button', { name: 'Vote' }) as HTMLButtonElement;
    expect(vote.disabled).toBe(true);
    fireEvent.click(within(group).getByRole('radio', { name: /Coffee/ }));
    expect(vote.disabled).toBe(false);
    fireEvent.click(vote);
    await waitFor(() => expect(server.called('polls.vote')).toHaveLength(1));
    expect(server.called('polls.vote')[0]?.input).toEqual({ postId: makePost().id, choices: [1] });
    await act(async () => {
      gate.resolve({
        data: {
          poll: {
            ...hidden(),
            options: [
              { text: 'Tea', votesCount: 1 },
              { text: hidden().options[1]!.text, votesCount: 3 },
              { text: 'Water 💧', votesCount: 0 },
            ],
            votersCount: 4,
            ownChoices: [1],
          },
        },
      });
    });
    const results = await within(card).findByRole('list', { name: 'Poll results' });
    const items = within(results).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Tea25%, 1 vote',
      `${hidden().options[1]!.text}your choice75%, 3 votes`,
      'Water 💧0%, 0 votes',
    ]);
    expect(within(card).getByText(/4 votes · ends in 1 day/)).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Vote' })).toBeNull();
  });

  it('takes several choices with checkboxes, and says so in a toast when the vote fails', async () => {
    const server = fakeTrpc({
      'auth.session': signedIn,
      'posts.feed': {
        data: { items: [makePost({ poll: { ...hidden(), multiple: true } })], nextCursor: null },
      },
      'posts.byId': { data: { post: makePost({ poll: { ...hidden(), multiple: true } }) } },
      'polls.vote': {
        error: { message: 'This poll has ended', code: 'PRECONDITION_FAILED', httpStatus: 412 },
      },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    const group = await within(card).findByRole('group', { name: 'Poll: choose one or more' });
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Tea' }));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Water 💧' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Vote' }));
    await waitFor(() =>
      expect(server.called('polls.vote')[0]?.input).toEqual({ postId: makePost().id, choices: [0, 2] }),
    );
    const region = await toastRegion();
    expect(await within(region).findByText('Failed to vote')).toBeTruthy();
    expect(within(region).getByText('This poll has ended')).toBeTruthy();
  });

  it('shows an ended poll’s results to everyone', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': {
        data: {
          items: [
            makePost({
              poll: {
                ...hidden(),
                options: hidden().options.map((o, i) => ({ ...o, votesCount: i })),
                expiresAt: new Date(Date.now() - 60_000).toISOString(),
                expired: true,
              },
            }),
          ],
          nextCursor: null,
        },
      },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(await within(card).findByRole('list', { name: 'Poll results' })).toBeTruthy();
    expect(within(card).getByText('3 votes · ended')).toBeTruthy();
    expect(within(card).queryByText(/your choice/)).toBeNull();
  });

  it('words the time left', () => {
    const now = Date.parse('2026-11-29T10:00:00Z');
    const at = (ms: number) => new Date(now + ms).toISOString();
    expect(endsLabel(at(30_000), false, now)).toBe('ends in less than a minute');
    expect(endsLabel(at(5 * 60_000), false, now)).toBe('ends in 5 minutes');
    expect(endsLabel(at(3 * 3_600_000), false, now)).toBe('ends in 3 hours');
    expect(endsLabel(at(3 * 86_400_000), false, now)).toBe('ends in 3 days');
    expect(endsLabel(at(-1), false, now)).toBe('ended');
    expect(endsLabel(at(60_000), true, now)).toBe('ended');
  });
});
