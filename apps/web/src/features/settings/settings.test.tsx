import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnswerOf,
  alice,
  type ErrorAnswer,
  fakeTrpc,
  type Handlers,
  type OutputOf,
  renderApp,
  serverError,
} from '../../test/fake-trpc';
import type { ImageUploadDialogProps } from '../uploads/image-upload-dialog';

const OBJECT_PATH = '/objects/uploads/0b7c1e2f-1111-4222-8333-444455556666';

// The upload dialog is the boundary here; Uppy itself runs in e2e/tests/uploads.spec.ts.
vi.mock('../uploads/image-upload-dialog', () => ({
  preloadImageUploadDialog: () => {},
  ImageUploadDialog: ({ open, onOpenChange, onUploaded, note }: ImageUploadDialogProps) =>
    open ? (
      <div role="dialog" aria-label="Upload image">
        <p>{note}</p>
        <button
          type="button"
          onClick={() => {
            onOpenChange(false);
            onUploaded(OBJECT_PATH);
          }}
        >
          Finish fake upload
        </button>
      </div>
    ) : null,
}));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const aliceSettings: OutputOf<'settings.get'> = {
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
};

const badRequest = (message: string): ErrorAnswer => ({
  error: { message, code: 'BAD_REQUEST', httpStatus: 400 },
});

function setup(handlers: Handlers = {}) {
  const server = fakeTrpc({
    'auth.session': { data: { user: alice, isModerator: false } },
    'settings.get': { data: aliceSettings },
    ...handlers,
  });
  renderApp('/settings');
  return server;
}

function card(name: string) {
  return screen.getByRole('region', { name });
}

function type(label: string, value: string, scope = document.body) {
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
}

describe('settings: Profile Settings', () => {
  it('shows the current values and saves them; the header reflects the change at once', async () => {
    const server = setup({
      'settings.update': (input) => ({
        data: { user: { ...alice, ...input, bio: 'Cube fan' } },
      }),
    });
    const nameField = await screen.findByLabelText('Display name');
    expect((nameField as HTMLInputElement).value).toBe('Alice Cube');
    const profile = card('Profile Settings');
    expect(within(profile).getByText('0/500')).toBeTruthy();

    type('Display name', 'Alice Renamed', profile);
    type('Bio', 'Cube fan', profile);
    expect(within(profile).getByText('8/500')).toBeTruthy();
    const toggle = within(profile).getByRole('switch', { name: 'Show my email on my profile' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.change(within(profile).getByLabelText('Who can send me direct messages'), {
      target: { value: 'following' },
    });
    fireEvent.click(within(profile).getByRole('button', { name: 'Save Profile' }));

    expect(await screen.findByText('Profile updated successfully!')).toBeTruthy();
    expect(server.called('settings.update')[0]?.input).toEqual({
      displayName: 'Alice Renamed',
      bio: 'Cube fan',
      avatarUrl: null,
      headerUrl: null,
      emailVisible: true,
      messagesFrom: 'following',
    });
    const menuButton = screen.getByRole('button', { name: 'Account menu' });
    await waitFor(() => expect(within(menuButton).getByRole('img', { name: 'Alice Renamed' })).toBeTruthy());
  });

  it('checks URLs before sending: only an image uploaded here', async () => {
    for (const url of ['javascript:alert(1)', 'https://tracker.example/a.png']) {
      const server = setup();
      await screen.findByLabelText('Profile picture URL');
      const profile = card('Profile Settings');
      type('Profile picture URL', url, profile);
      fireEvent.click(within(profile).getByRole('button', { name: 'Save Profile' }));
      expect(await within(profile).findByText('Must be an image you uploaded')).toBeTruthy();
      expect(server.called('settings.update')).toHaveLength(0);
      cleanup();
    }
  });

  it('shows a destructive toast with the server message on failure', async () => {
    setup({ 'settings.update': badRequest('Display name must be at most 50 characters') });
    await screen.findByLabelText('Display name');
    fireEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Failed to update profile')).toBeTruthy();
    expect(screen.getByText('Display name must be at most 50 characters')).toBeTruthy();
  });
});

describe('settings: image uploads', () => {
  it('sets an uploaded profile picture: field, header avatar and profile caches follow', async () => {
    const server = setup({
      'users.setProfileImage': (input) => ({
        data: { user: { ...alice, avatarUrl: input.objectPath } },
      }),
    });
    await screen.findByLabelText('Profile picture URL');
    const profile = card('Profile Settings');
    fireEvent.click(within(profile).getByRole('button', { name: 'Change profile picture' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload image' });
    expect(within(dialog).getByText(/Your profile picture/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Finish fake upload' }));

    await waitFor(() => expect(server.called('users.setProfileImage')).toHaveLength(1));
    expect(server.called('users.setProfileImage')[0]?.input).toEqual({ objectPath: OBJECT_PATH });
    await waitFor(() =>
      expect((within(profile).getByLabelText('Profile picture URL') as HTMLInputElement).value).toBe(
        OBJECT_PATH,
      ),
    );
    const menuButton = screen.getByRole('button', { name: 'Account menu' });
    await waitFor(() =>
      expect(within(menuButton).getByRole('img', { name: 'Alice Cube' }).getAttribute('src')).toBe(
        `${OBJECT_PATH}/thumb`,
      ),
    );
    expect(server.called('users.setBannerImage')).toHaveLength(0);
  });

  it("sets an uploaded banner, and says 'Failed to set banner image' when the server refuses", async () => {
    let answer: AnswerOf<'users.setBannerImage'> = badRequest('Banner must be an image you uploaded');
    const server = setup({ 'users.setBannerImage': () => answer });
    await screen.findByLabelText('Banner URL');
    const profile = card('Profile Settings');
    fireEvent.click(within(profile).getByRole('button', { name: 'Change banner' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Finish fake upload' }));
    expect(await screen.findByText('Failed to set banner image')).toBeTruthy();
    expect(screen.getByText('Banner must be an image you uploaded')).toBeTruthy();
    expect((within(profile).getByLabelText('Banner URL') as HTMLInputElement).value).toBe('');

    answer = { data: { user: { ...alice, headerUrl: OBJECT_PATH } } };
    fireEvent.click(within(profile).getByRole('button', { name: 'Change banner' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Finish fake upload' }));
    await waitFor(() =>
      expect((within(profile).getByLabelText('Banner URL') as HTMLInputElement).value).toBe(OBJECT_PATH),
    );
    expect(server.called('users.setBannerImage').at(-1)?.input).toEqual({ objectPath: OBJECT_PATH });
    expect(server.called('users.setProfileImage')).toHaveLength(0);
  });

  it("says 'Failed to set profile image' when setting the picture fails", async () => {
    setup({ 'users.setProfileImage': serverError });
    await screen.findByLabelText('Profile picture URL');
    fireEvent.click(screen.getByRole('button', { name: 'Change profile picture' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Finish fake upload' }));
    expect(await screen.findByText('Failed to set profile image')).toBeTruthy();
    expect(screen.getByText('Please try again')).toBeTruthy();
  });
});

describe('settings: Change Password', () => {
  it('is disabled until all three fields are filled', async () => {
    setup();
    await screen.findByLabelText('Current password');
    const section = card('Change Password');
    const button = within(section).getByRole('button', { name: 'Change Password' }) as HTMLButtonElement;
    expect(within(section).getByText('At least 6 characters')).toBeTruthy();
    expect(button.disabled).toBe(true);
    type('Current password', 'secret123', section);
    type('New password', 'newsecret', section);
    expect(button.disabled).toBe(true);
    type('Confirm new password', 'newsecret', section);
    expect(button.disabled).toBe(false);
  });

  it("says 'Passwords do not match' and sends nothing", async () => {
    const server = setup();
    await screen.findByLabelText('Current password');
    const section = card('Change Password');
    type('Current password', 'secret123', section);
    type('New password', 'newsecret', section);
    type('Confirm new password', 'newsecreX', section);
    fireEvent.click(within(section).getByRole('button', { name: 'Change Password' }));
    expect(await within(section).findByText('Passwords do not match')).toBeTruthy();
    expect(server.called('settings.changePassword')).toHaveLength(0);
  });

  it('changes the password, toasts and clears the fields', async () => {
    const server = setup({
      'settings.changePassword': { data: { message: 'Password changed successfully' } },
    });
    await screen.findByLabelText('Current password');
    const section = card('Change Password');
    type('Current password', 'secret123', section);
    type('New password', 'newsecret', section);
    type('Confirm new password', 'newsecret', section);
    fireEvent.click(within(section).getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed successfully!')).toBeTruthy();
    expect(server.called('settings.changePassword')[0]?.input).toEqual({
      currentPassword: 'secret123',
      newPassword: 'newsecret',
    });
    const current = within(card('Change Password')).getByLabelText('Current password') as HTMLInputElement;
    expect(current.value).toBe('');
    expect((within(card('Change Password')).getByLabelText('New password') as HTMLInputElement).value).toBe(
      '',
    );
  });

  it("shows the server's message on failure, or the fallback", async () => {
    let answer: AnswerOf<'settings.changePassword'> = badRequest('Current password is incorrect');
    setup({ 'settings.changePassword': () => answer });
    await screen.findByLabelText('Current password');
    const section = card('Change Password');
    type('Current password', 'wrong', section);
    type('New password', 'newsecret', section);
    type('Confirm new password', 'newsecret', section);
    fireEvent.click(within(section).getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Failed to change password')).toBeTruthy();
    expect(screen.getByText('Current password is incorrect')).toBeTruthy();

    answer = serverError;
    fireEvent.click(within(section).getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Please try again.')).toBeTruthy();
  });
});

describe('settings: Change Email', () => {
  const NEW_EMAIL = 'alice2@example.com';
  const sent: AnswerOf<'settings.changeEmail'> = {
    data: {
      message: `We sent a code to ${NEW_EMAIL}. Enter it to confirm the change.`,
      pendingEmail: NEW_EMAIL,
    },
  };

  async function requestCode(password = 'secret123') {
    await screen.findByLabelText('New email');
    const section = card('Change Email');
    type('New email', NEW_EMAIL, section);
    type('Password', password, section);
    await act(async () => {
      fireEvent.click(within(section).getByRole('button', { name: 'Send code' }));
    });
    return section;
  }

  it('requires both fields', async () => {
    const server = setup();
    await screen.findByLabelText('New email');
    const section = card('Change Email');
    fireEvent.click(within(section).getByRole('button', { name: 'Send code' }));
    expect(await within(section).findByText('Email is required')).toBeTruthy();
    expect(within(section).getByText('Password is required')).toBeTruthy();
    expect(server.called('settings.changeEmail')).toHaveLength(0);
  });

  it("shows the server's message when the request fails, and stays on the first step", async () => {
    setup({ 'settings.changeEmail': () => badRequest('Password is incorrect') });
    const section = await requestCode('nope');
    expect(await screen.findByText('Failed to change email')).toBeTruthy();
    expect(screen.getByText('Password is incorrect')).toBeTruthy();
    expect(within(section).getByLabelText('New email')).toBeTruthy();
    expect(within(section).queryByLabelText('Confirmation code')).toBeNull();
  });

  it('sends a code to the new address, then changes the email once the code is entered', async () => {
    let confirmAnswer: AnswerOf<'settings.confirmEmailChange'> = badRequest('Invalid or expired code');
    const server = setup({
      'settings.changeEmail': () => sent,
      'settings.confirmEmailChange': () => confirmAnswer,
    });
    const section = await requestCode();
    // Step 2: the code, for the address it went to; the email has not changed yet. (The request
    // is asked after the step shows: the click only starts it.)
    expect(await screen.findByText('Check your new email')).toBeTruthy();
    expect(server.called('settings.changeEmail').at(-1)?.input).toEqual({
      email: NEW_EMAIL,
      password: 'secret123',
    });
    const code = await within(section).findByLabelText('Confirmation code');
    expect(code.getAttribute('inputMode')).toBe('numeric');
    expect(code.getAttribute('autoComplete')).toBe('one-time-code');
    expect(within(section).getByRole('status').textContent).toContain(NEW_EMAIL);
    expect(
      within(section).getByText(`Currently ${alice.email}. We send a code to the new address to confirm it.`),
    ).toBeTruthy();

    // A code that is not 6 digits is caught before sending.
    type('Confirmation code', '12', section);
    fireEvent.click(within(section).getByRole('button', { name: 'Confirm Email' }));
    expect(await within(section).findByText('Code must be 6 digits')).toBeTruthy();
    expect(server.called('settings.confirmEmailChange')).toHaveLength(0);

    // A wrong code: the server's message, and the step stays.
    type('Confirmation code', '000000', section);
    await act(async () => {
      fireEvent.click(within(section).getByRole('button', { name: 'Confirm Email' }));
    });
    expect(await screen.findByText('Failed to confirm email')).toBeTruthy();
    expect(screen.getByText('Invalid or expired code')).toBeTruthy();

    confirmAnswer = { data: { user: { ...alice, email: NEW_EMAIL } } };
    type('Confirmation code', '123456', section);
    await act(async () => {
      fireEvent.click(within(section).getByRole('button', { name: 'Confirm Email' }));
    });
    expect(await screen.findByText('Email changed successfully!')).toBeTruthy();
    expect(server.called('settings.confirmEmailChange').at(-1)?.input).toEqual({ code: '123456' });
    // Back to an empty first step.
    await waitFor(() =>
      expect((within(card('Change Email')).getByLabelText('Password') as HTMLInputElement).value).toBe(''),
    );
    expect((within(card('Change Email')).getByLabelText('New email') as HTMLInputElement).value).toBe('');
  });

  it('goes back to the first step to use a different address', async () => {
    const server = setup({ 'settings.changeEmail': () => sent });
    const section = await requestCode();
    await within(section).findByLabelText('Confirmation code');
    fireEvent.click(within(section).getByRole('button', { name: 'Use a different address' }));
    expect(await within(section).findByLabelText('New email')).toBeTruthy();
    expect(within(section).queryByLabelText('Confirmation code')).toBeNull();
    expect(server.called('settings.confirmEmailChange')).toHaveLength(0);
  });
});

describe('settings: images shown as images, and sections to jump to', () => {
  it('previews the picture and banner, with Change and Remove; Remove clears one image at once', async () => {
    let saved: OutputOf<'settings.get'> = {
      ...aliceSettings,
      avatarUrl: OBJECT_PATH,
      headerUrl: OBJECT_PATH,
    };
    const server = setup({
      'settings.get': () => ({ data: saved }),
      'settings.update': (input) => {
        saved = { ...saved, headerUrl: 'headerUrl' in input ? (input.headerUrl ?? null) : saved.headerUrl };
        return { data: { user: { ...alice, avatarUrl: saved.avatarUrl, headerUrl: saved.headerUrl } } };
      },
    });
    await screen.findByLabelText('Profile picture URL');
    const profile = card('Profile Settings');
    const picture = within(profile).getByRole('img', { name: 'Your profile picture' });
    expect(picture.querySelector('img')?.getAttribute('src')).toBe(`${OBJECT_PATH}/thumb`);
    expect(within(profile).getByRole('img', { name: 'Your banner' }).getAttribute('src')).toBe(
      `${OBJECT_PATH}/thumb`,
    );
    // The URL field stays, under its preview.
    expect((within(profile).getByLabelText('Banner URL') as HTMLInputElement).value).toBe(OBJECT_PATH);

    fireEvent.click(within(profile).getByRole('button', { name: 'Remove banner' }));
    await waitFor(() => expect(server.called('settings.update')[0]?.input).toEqual({ headerUrl: null }));
    expect(await screen.findByText('Banner removed')).toBeTruthy();
    expect(
      await within(profile).findByRole('img', { name: 'No banner: the default one is shown' }),
    ).toBeTruthy();
    expect((within(profile).getByLabelText('Banner URL') as HTMLInputElement).value).toBe('');
    expect(within(profile).getByRole('img', { name: 'Your profile picture' })).toBeTruthy();
    expect(within(profile).getByRole('button', { name: 'Change banner' })).toBeTruthy();
  });

  it('shows a generated avatar and the default banner when none is set, with no Remove', async () => {
    setup();
    await screen.findByLabelText('Profile picture URL');
    const profile = card('Profile Settings');
    expect(
      within(profile).getByRole('img', { name: 'No profile picture: a generated avatar is shown' }),
    ).toBeTruthy();
    expect(within(profile).getByRole('img', { name: 'No banner: the default one is shown' })).toBeTruthy();
    expect(within(profile).queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it('has a jump link to each section that moves the focus to its heading', async () => {
    setup();
    await screen.findByLabelText('Profile picture URL');
    const nav = screen.getByRole('navigation', { name: 'Settings sections' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Profile',
      'Account',
      'Notifications',
      'Privacy',
      'Sessions',
      'Data',
    ]);
    for (const link of links) {
      const id = link.getAttribute('href')!.slice(1);
      fireEvent.click(link);
      const heading = screen.getByRole('heading', { level: 2, name: link.textContent! });
      expect(document.activeElement).toBe(heading);
      expect(heading.closest('section')?.id).toBe(id);
      expect(window.location.hash).toBe(`#${id}`);
    }
    // The cards of a section follow its heading.
    const privacy = screen.getByRole('heading', { level: 2, name: 'Privacy' }).closest('section')!;
    expect(within(privacy).getByRole('heading', { level: 3, name: 'Blocked users' })).toBeTruthy();
    const data = screen.getByRole('heading', { level: 2, name: 'Data' }).closest('section')!;
    expect(within(data).getByRole('heading', { level: 3, name: 'Delete my account' })).toBeTruthy();
  });
});

describe('settings: content warnings and sensitive media', () => {
  it('shows both switches off, and each saves as it is flipped', async () => {
    const server = setup({ 'settings.update': { data: { user: alice } } });
    const region = await screen.findByRole('region', { name: 'Content warnings and sensitive media' });
    const warnings = within(region).getByRole('switch', { name: 'Always show content behind warnings' });
    const media = within(region).getByRole('switch', { name: 'Always show sensitive media' });
    expect(warnings.getAttribute('aria-checked')).toBe('false');
    expect(media.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(warnings);
    await waitFor(() => expect(server.called('settings.update')).toHaveLength(1));
    expect(server.called('settings.update')[0]?.input).toEqual({ alwaysShowContentWarnings: true });
    expect(warnings.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(media);
    await waitFor(() => expect(server.called('settings.update')).toHaveLength(2));
    expect(server.called('settings.update')[1]?.input).toEqual({ alwaysShowSensitiveMedia: true });
  });

  it('puts a switch back and says so when saving fails', async () => {
    setup({ 'settings.update': badRequest('Nope') });
    const region = await screen.findByRole('region', { name: 'Content warnings and sensitive media' });
    const media = within(region).getByRole('switch', { name: 'Always show sensitive media' });
    fireEvent.click(media);
    await waitFor(() => expect(media.getAttribute('aria-checked')).toBe('false'));
    expect(await screen.findByText('Could not save the setting')).toBeTruthy();
  });
});
