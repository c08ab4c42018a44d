import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, makePost, renderApp, serverError, sessionKnown } from '../../test/fake-trpc';
import { toastRegion } from '../../test/toasts';
import type { ImageUploadDialogProps } from '../uploads/image-upload-dialog';

const OBJECT_PATH = '/objects/uploads/0b7c1e2f-1111-4222-8333-444455556666';
/** Each fake upload finishes as the next path: OBJECT_PATH-1, -2, … */
let uploads = 0;

// The dialog is the boundary: Uppy itself is exercised end to end (e2e/tests/uploads.spec.ts).
vi.mock('../uploads/image-upload-dialog', () => ({
  preloadImageUploadDialog: () => {},
  ImageUploadDialog: ({ open, onOpenChange, onUploaded }: ImageUploadDialogProps) =>
    open ? (
      <div role="dialog" aria-label="Upload image">
        <button
          type="button"
          onClick={() => {
            onOpenChange(false);
            uploads += 1;
            onUploaded(`${OBJECT_PATH}-${uploads}`);
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

const emptyFeed = { data: { items: [], nextCursor: null } };

async function composer() {
  const field = (await screen.findByPlaceholderText("What's on your mind?")) as HTMLTextAreaElement;
  const post = screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement;
  return { field, post };
}

describe('home composer', () => {
  it('is labelled and keeps Post disabled while the text is blank', async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'posts.feed': emptyFeed });
    renderApp('/');
    await sessionKnown();
    const { field, post } = await composer();
    expect(screen.getByLabelText('Write a post')).toBe(field);
    expect(post.disabled).toBe(true);
    fireEvent.change(field, { target: { value: '  \n ' } });
    expect(post.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'hello' } });
    // Enabled once the session check has answered (until then a visitor and a member look alike).
    await waitFor(() => expect(post.disabled).toBe(false));
    expect(await screen.findByText('No posts yet. Be the first to post!')).toBeTruthy();
  });

  it('has an AI Generate button that opens the generator', async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'posts.feed': emptyFeed });
    renderApp('/');
    await sessionKnown();
    await composer();
    fireEvent.click(screen.getByRole('button', { name: 'AI Generate' }));
    expect(await screen.findByRole('dialog', { name: 'AI Art Generator' })).toBeTruthy();
  });

  it('asks a visitor to log in on Media and opens no upload dialog', async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'posts.feed': emptyFeed });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('link', { name: 'Login' });
    await composer();
    const media = screen.getByRole('button', { name: 'Media' }) as HTMLButtonElement;
    expect(media.disabled).toBe(false);
    fireEvent.click(media);
    expect(await within(await toastRegion()).findByText('Please login to post')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Upload image' })).toBeNull();
  });

  it('attaches up to four images one upload at a time, with descriptions, and posts them as images', async () => {
    uploads = 0;
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': emptyFeed,
      'posts.create': (input) => {
        const images = (input.images ?? []).map(
          (i: { objectPath: string; alt?: string | null; sensitive?: boolean }) => ({
            url: i.objectPath,
            thumbUrl: `${i.objectPath}/thumb`,
            width: 800,
            height: 600,
            alt: i.alt ?? null,
            sensitive: i.sensitive === true,
          }),
        );
        return {
          data: {
            post: makePost({
              id: '9a1b0c8e-0000-4000-8000-000000000013',
              userId: alice.id,
              username: 'alice',
              userDisplayName: 'Alice Cube',
              content: input.content,
              imageUrl: images[0]?.url ?? null,
              images,
              createdAt: new Date().toISOString(),
            }),
          },
        };
      },
      'users.byUsername': serverError,
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const { field, post } = await composer();
    const media = () => screen.getByRole('button', { name: /^Media/ });
    const addOne = async () => {
      fireEvent.click(media());
      fireEvent.click(await screen.findByRole('button', { name: 'Finish fake upload' }));
    };

    // Upload, then remove: nothing of the image is left.
    await addOne();
    const preview = (await screen.findByRole('img', { name: 'Attachment 1' })) as HTMLImageElement;
    expect(preview.getAttribute('src')).toBe(`${OBJECT_PATH}-1/thumb`);
    expect(screen.queryByRole('dialog', { name: 'Upload image' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    expect(screen.queryByRole('img', { name: 'Attachment 1' })).toBeNull();

    // Four uploads fill the post; Media is then disabled.
    for (let i = 0; i < 4; i++) await addOne();
    expect(screen.getAllByRole('img', { name: /^Attachment \d$/ })).toHaveLength(4);
    expect((media() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove image 4' }));
    expect((media() as HTMLButtonElement).disabled).toBe(false);

    // A reminder, not a block, while an image has no description.
    expect(screen.getByTestId('alt-reminder').textContent).toMatch(/^Images 1, 2, 3 have no description/);
    fireEvent.change(screen.getByLabelText('Description of image 1'), { target: { value: ' A red cube ' } });
    fireEvent.change(screen.getByLabelText('Description of image 3'), { target: { value: 'A blue cube' } });
    expect(screen.getByTestId('alt-reminder').textContent).toMatch(/^Image 2 has no description/);
    // Move the third image before the second.
    fireEvent.click(screen.getByRole('button', { name: 'Move image 3 earlier' }));
    fireEvent.change(field, { target: { value: 'Cubes at sunset' } });
    fireEvent.click(post);

    expect(await within(await toastRegion()).findByText('Post created successfully!')).toBeTruthy();
    expect(server.called('posts.create')[0]?.input).toEqual({
      content: 'Cubes at sunset',
      images: [
        { objectPath: `${OBJECT_PATH}-2`, alt: 'A red cube' },
        { objectPath: `${OBJECT_PATH}-4`, alt: 'A blue cube' },
        { objectPath: `${OBJECT_PATH}-3`, alt: null },
      ],
    });
    expect(screen.queryByRole('img', { name: /^Attachment/ })).toBeNull();
    expect(field.value).toBe('');

    // The card shows the three thumbnails; described ones have an ALT button; the lightbox steps.
    const card = within(screen.getByRole('list', { name: 'Posts' })).getAllByRole('article')[0]!;
    const grid = within(card).getByRole('list', { name: '3 images' });
    expect(within(grid).getByRole('img', { name: 'A red cube' }).getAttribute('src')).toBe(
      `${OBJECT_PATH}-2/thumb`,
    );
    expect(within(grid).getByRole('img', { name: 'Cubes at sunset' })).toBeTruthy();
    expect(within(card).getAllByRole('button', { name: /^ALT/ })).toHaveLength(2);
    fireEvent.click(within(card).getByRole('button', { name: 'View image 2 of 3' }));
    const viewer = await screen.findByRole('dialog', { name: 'Image 2 of 3 by Alice Cube' });
    expect(within(viewer).getByRole('img', { name: 'A blue cube' }).getAttribute('src')).toBe(
      `${OBJECT_PATH}-4`,
    );
    expect(within(viewer).getByTestId('lightbox-alt').textContent).toBe('A blue cube');
    fireEvent.keyDown(viewer, { key: 'ArrowRight' });
    await screen.findByRole('dialog', { name: 'Image 3 of 3 by Alice Cube' });
    expect(within(viewer).getByText('No description')).toBeTruthy();
    fireEvent.keyDown(viewer, { key: 'ArrowRight' });
    await screen.findByRole('dialog', { name: 'Image 1 of 3 by Alice Cube' });
    fireEvent.keyDown(viewer, { key: 'ArrowLeft' });
    await screen.findByRole('dialog', { name: 'Image 3 of 3 by Alice Cube' });
    // Many steps on a shared machine: more time than the default.
  }, 60_000);

  it('asks a visitor to log in and sends nothing', async () => {
    const server = fakeTrpc({ 'auth.session': { data: null }, 'posts.feed': emptyFeed });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('link', { name: 'Login' });
    const { field, post } = await composer();
    fireEvent.change(field, { target: { value: 'my first post' } });
    fireEvent.click(post);
    const region = await toastRegion();
    expect(await within(region).findByText('Please login to post')).toBeTruthy();
    expect(within(region).getByText('You need to be logged in to create posts')).toBeTruthy();
    expect(server.called('posts.create')).toHaveLength(0);
    expect(field.value).toBe('my first post');
  });

  it('posts, clears the text, toasts and puts the post at the top of the feed', async () => {
    const older = makePost({ id: '9a1b0c8e-0000-4000-8000-000000000011', content: 'An older post' });
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [older], nextCursor: null } },
      'posts.create': (input) => ({
        data: {
          post: makePost({
            id: '9a1b0c8e-0000-4000-8000-000000000012',
            userId: alice.id,
            username: 'alice',
            userDisplayName: 'Alice Cube',
            content: input.content,
            createdAt: new Date().toISOString(),
          }),
        },
      }),
      'users.byUsername': serverError,
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    await screen.findByText('An older post');
    const { field, post } = await composer();
    fireEvent.change(field, { target: { value: '  Fresh from the composer  ' } });
    fireEvent.click(post);

    expect(await within(await toastRegion()).findByText('Post created successfully!')).toBeTruthy();
    expect(field.value).toBe('');
    expect(server.called('posts.create')[0]?.input).toEqual({ content: 'Fresh from the composer' });
    const list = screen.getByRole('list', { name: 'Posts' });
    const articles = within(list).getAllByRole('article');
    expect(articles[0]?.textContent).toContain('Fresh from the composer');
    expect(articles[1]?.textContent).toContain('An older post');
  });

  it('keeps the text and says so when posting fails', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': emptyFeed,
      'posts.create': serverError,
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const { field, post } = await composer();
    fireEvent.change(field, { target: { value: 'will fail' } });
    fireEvent.click(post);
    const region = await toastRegion();
    expect(await within(region).findByText('Failed to create post')).toBeTruthy();
    expect(within(region).getByText('Please try again')).toBeTruthy();
    expect(field.value).toBe('will fail');
    await waitFor(() => expect(post.disabled).toBe(false));
  });

  it("tells why when the server refuses the post (a 429's message), under SPEC's title", async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': emptyFeed,
      'posts.create': {
        error: {
          message: 'Too many requests, please try again later',
          code: 'TOO_MANY_REQUESTS',
          httpStatus: 429,
        },
      },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const { field, post } = await composer();
    fireEvent.change(field, { target: { value: 'one too many' } });
    fireEvent.click(post);
    const region = await toastRegion();
    // The toast store outlives a test: wait for this toast, not the previous test's.
    expect(await within(region).findByText('Too many requests, please try again later')).toBeTruthy();
    expect(within(region).getByText('Failed to create post')).toBeTruthy();
    expect(within(region).queryByText('Please try again')).toBeNull();
    expect(field.value).toBe('one too many');
  });

  it("says the schema's message for an empty post on Ctrl+Enter, and as the text is emptied", async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': emptyFeed,
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const { field, post } = await composer();
    fireEvent.change(field, { target: { value: '  \n ' } });
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe('Post cannot be empty');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(error.id);
    expect(post.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'a post' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    fireEvent.change(field, { target: { value: '' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Post cannot be empty');
    expect(server.called('posts.create')).toHaveLength(0);
  });

  it('counts characters near the limit and refuses more than 2000', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': emptyFeed,
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const { field, post } = await composer();
    fireEvent.change(field, { target: { value: 'x'.repeat(1900) } });
    expect(screen.getByText('1900/2000')).toBeTruthy();
    expect(post.disabled).toBe(false);
    fireEvent.change(field, { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByText('2001/2000')).toBeTruthy();
    // The schema's own message, once the schema (loaded when writing starts) has arrived.
    expect(await screen.findByText('Post must be at most 2000 characters')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(post.disabled).toBe(true);
    fireEvent.submit(field.closest('form')!);
    expect(server.called('posts.create')).toHaveLength(0);
  });
});
