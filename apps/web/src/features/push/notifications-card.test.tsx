/**
 * Settings → Push notifications in jsdom (which has no service worker nor Push API): the device switch
 * says the browser cannot take pushes and stays off; the kind switches show the saved choices,
 * save one kind at a time, and roll back with a toast when the save fails. The push helpers'
 * pure parts (the key's bytes, which paths a click may open) are checked too.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, type Handlers, renderApp, serverError } from '../../test/fake-trpc';
import { keyBytes } from './push-browser';
import { isAppPath } from './push-navigation';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const ALL_ON = { likes: true, comments: true, follows: true, mentions: true, messages: true };

function setup(handlers: Handlers = {}) {
  const server = fakeTrpc({
    'auth.session': { data: { user: alice, isModerator: false } },
    'settings.get': {
      data: {
        username: alice.username,
        displayName: alice.displayName,
        email: alice.email!,
        bio: null,
        avatarUrl: null,
        headerUrl: null,
        emailVisible: false,
        messagesFrom: 'everyone',
        alwaysShowContentWarnings: false,
        alwaysShowSensitiveMedia: false,
        language: 'en',
      },
    },
    'sessions.list': { data: { sessions: [] } },
    'push.preferences': { data: ALL_ON },
    ...handlers,
  });
  renderApp('/settings');
  return server;
}

const card = () => screen.findByRole('region', { name: 'Push notifications' });

describe('settings: Notifications', () => {
  it('says when the browser cannot take pushes, and keeps the device switch off', async () => {
    setup();
    const region = within(await card());
    const device = region.getByRole('switch', { name: 'Push notifications on this device' });
    expect(device.getAttribute('aria-checked')).toBe('false');
    expect((device as HTMLButtonElement).disabled).toBe(true);
    expect(region.getByText('This browser cannot receive push notifications.')).toBeTruthy();
  });

  it('saves one kind at a time', async () => {
    const server = setup({ 'push.updatePreferences': (input) => ({ data: { ...ALL_ON, ...input } }) });
    const region = within(await card());
    const likes = await region.findByRole('switch', { name: 'Likes' });
    expect(likes.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(likes);
    await waitFor(() => expect(likes.getAttribute('aria-checked')).toBe('false'));
    await waitFor(() =>
      expect(server.called('push.updatePreferences').map((c) => c.input)).toEqual([{ likes: false }]),
    );
  });

  it('rolls a failed save back and says so', async () => {
    setup({ 'push.updatePreferences': () => serverError });
    const region = within(await card());
    const follows = await region.findByRole('switch', { name: 'Follows' });
    fireEvent.click(follows);
    expect(await screen.findByText('Could not save your choice')).toBeTruthy();
    await waitFor(() => expect(follows.getAttribute('aria-checked')).toBe('true'));
  });
});

describe('push helpers', () => {
  it('decodes a base64url VAPID key to its bytes', () => {
    const bytes = keyBytes(Buffer.from([4, 250, 251, 252, 255]).toString('base64url'));
    expect([...bytes]).toEqual([4, 250, 251, 252, 255]);
  });

  it('follows only paths of this app from a notification click', () => {
    expect(isAppPath('/?post=1')).toBe(true);
    expect(isAppPath('/chat?user=2')).toBe(true);
    for (const bad of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      42,
      null,
    ]) {
      expect(isAppPath(bad)).toBe(false);
    }
  });
});
