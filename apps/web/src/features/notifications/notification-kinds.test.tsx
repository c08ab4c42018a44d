/**
 * A removal and an ended poll in the member's language (issue #50): the line comes from the
 * item's `removal` and `poll`, never from the server's English `message`; a moderator's reason is
 * shown as they wrote it.
 */
import type { I18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18nFor } from '../../lib/i18n';
import type { OutputOf } from '../../test/fake-trpc';
import { NotificationRow, notificationSentence } from './notification-item';

type Item = OutputOf<'notifications.list'>[number];

const POST_ID = '9a1b0c8e-0000-4000-8000-000000000010';
const ENGLISH = 'the server’s English line';

function item(overrides: Partial<Item>): Item {
  return {
    id: '9a1b0c8e-0000-4000-8000-000000000020',
    type: 'removal',
    username: 'Moderators',
    userAvatar: null,
    message: ENGLISH,
    timestamp: new Date(Date.now() - 60_000),
    isRead: false,
    postId: POST_ID,
    snippet: null,
    groupKey: '9a1b0c8e-0000-4000-8000-000000000020',
    actors: [],
    actorsCount: 0,
    removal: null,
    poll: null,
    ...overrides,
  };
}

let de: I18n;
let ar: I18n;
beforeAll(async () => {
  de = await i18nFor('de');
  ar = await i18nFor('ar');
});

function row(i18n: I18n, it: Item) {
  render(
    <I18nProvider i18n={i18n}>
      <NotificationRow item={it} onOpen={() => {}} />
    </I18nProvider>,
  );
  return screen.getByRole('button');
}

describe('a removal and an ended poll, in German', () => {
  it('words a removal by what was removed, with the reason as the moderator wrote it', () => {
    const reason = 'Spam <b>und</b> Werbung 🚫';
    const button = row(de, item({ removal: { item: 'comment', reason } }));
    expect(button.textContent).toContain('Die Moderation hat deinen Kommentar entfernt');
    expect(screen.getByTestId('notification-reason').textContent).toBe(`. Begründung: ${reason}`);
    // Read as one line: the sentence, then the reason.
    expect(button.textContent).toContain(
      `Die Moderation hat deinen Kommentar entfernt. Begründung: ${reason}`,
    );
    expect(button.textContent).not.toContain(ENGLISH);
    expect(button.textContent).not.toContain('Moderators');
  });

  it('words each removed item, and an old removal without one', () => {
    const says = (removal: Item['removal']) => notificationSentence(item({ removal }), de);
    expect(says({ item: 'post', reason: 'x' })).toBe('Die Moderation hat deinen Beitrag entfernt');
    expect(says({ item: 'message', reason: 'x' })).toBe('Die Moderation hat deine Nachricht entfernt');
    expect(says(null)).toBe('Die Moderation hat deinen Inhalt entfernt');
  });

  it('words an ended poll as one’s own or one voted in, with its snippet', () => {
    const own = row(de, item({ type: 'poll_ended', poll: { own: true }, snippet: 'Tee oder Kaffee?' }));
    expect(own.textContent).toMatch(/^Deine Umfrage ist beendet: „Tee oder Kaffee\?“/);
    expect(own.textContent).not.toContain(ENGLISH);
    expect(notificationSentence(item({ type: 'poll_ended', poll: { own: false } }), de)).toBe(
      'Eine Umfrage, in der du abgestimmt hast, ist beendet',
    );
  });

  it('and in Arabic', () => {
    expect(notificationSentence(item({ removal: { item: 'post', reason: 'x' } }), ar)).toBe(
      'أزال المشرفون منشورك',
    );
    expect(notificationSentence(item({ type: 'poll_ended', poll: { own: true } }), ar)).toBe(
      'انتهى استطلاعك',
    );
  });
});
