/**
 * The home composer (docs/web.md, "Home and the composer"): text, Media (up to four uploaded
 * images, picked together up to the free slots, each with a description and a "Mark as
 * sensitive" box: composer-images.tsx), AI Generate, Add poll, Content warning (a field for the
 * warning the post then folds behind: composer-warning.tsx) and Post. Visitors see it too; pressing Post
 * or Media without a session explains instead of sending.
 */
import { POST_IMAGES_MAX, POST_MAX_LENGTH } from '@cubes/api/rules';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChartNoAxesColumn, ImagePlus, Send, Sparkles } from 'lucide-react';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { UserAvatar } from '../../components/user-avatar';
import { discardDraft, draftPlaces, useDraft, useWarnBeforeUnload } from '../../lib/drafts';
import { errorToast } from '../../lib/error-toast';
import { lazySchema } from '../../lib/lazy-schema';
import { splitLinks } from '../../lib/linkify';
import { useAuth } from '../auth/auth-provider';
import { MentionComposer } from '../mentions/mention-composer';
import type { DraftPoll } from '../polls/composer-poll';
import { ImageUploadDialog, preloadImageUploadDialog } from '../uploads/image-upload-dialog';
import type { DraftImage } from './composer-images';
import { useCreatePostMutation } from './composer-queries';
import { loginToasts } from './login-toasts';

/** The counter appears once this close to the limit. */
const COUNTER_FROM = POST_MAX_LENGTH - 200;

// The generator (and its Radix Select) loads on first open, then stays mounted so it can animate out.
const loadGenerator = () => import('./ai-art-generator-dialog');
// The attached images' list (composer-images.tsx) loads with the first image, not with the page.
// The poll's editor loads when "Add poll" is pressed.
const ComposerPoll = lazy(() => import('../polls/composer-poll').then((m) => ({ default: m.ComposerPoll })));
const ComposerWarning = lazy(() => import('./composer-warning'));
const ComposerImages = lazy(() => import('./composer-images').then((m) => ({ default: m.ComposerImages })));
const ComposerLinkPreview = lazy(() => import('../link-cards/composer-link-preview'));
const AiArtGeneratorDialog = lazy(() => loadGenerator().then((m) => ({ default: m.AiArtGeneratorDialog })));
const preloadGenerator = () => void loadGenerator().catch(() => {});

/**
 * The post is checked with the procedure's own zod schema (useZodForm), which (with zod) loads once
 * the member starts to write: the first page does not carry it.
 */
const loadCreatePostSchema = lazySchema('createPostInput');

export function Composer() {
  const { user, status } = useAuth();
  const { t } = useLingui();
  // Kept across pages until sent (lib/drafts.ts); closing the tab with it unsent asks first.
  const [text, setText] = useDraft(draftPlaces.post());
  useWarnBeforeUnload(draftPlaces.post());
  const [generatorOpen, setGeneratorOpen] = useState(false);
  const [generatorWanted, setGeneratorWanted] = useState(false);
  if (generatorOpen && !generatorWanted) setGeneratorWanted(true);
  const [uploadOpen, setUploadOpen] = useState(false);
  /** The uploaded images in order, with their descriptions, sent as `images` with the post. */
  const [images, setImages] = useState<DraftImage[]>([]);
  const full = images.length >= POST_IMAGES_MAX;
  /** Whether the post's first link gets a card (link-cards/): the author may remove it before posting. */
  const [linkPreview, setLinkPreview] = useState(true);
  const hasLink = splitLinks(text).some((part) => part.type === 'link');
  const noCard = hasLink && !linkPreview ? { linkCard: false } : {};
  /** The content warning ("Content warning"), sent as the post's `contentWarning`; null while off. */
  const [warning, setWarning] = useState<string | null>(null);
  /** The poll being written ("Add poll"), sent as the post's `poll`; null without one. */
  const [poll, setPoll] = useState<DraftPoll | null>(null);
  // The text is the draft; the schema speaks from the first change on, as the text is written.
  const form = useZodForm(
    loadCreatePostSchema,
    { content: '' },
    {
      mode: 'change',
      values: { content: text },
      onValuesChange: ({ content }) => setText(content),
      toInput: ({ content }) => ({
        content,
        ...(images.length
          ? {
              images: images.map(({ objectPath, alt, sensitive }) => ({
                objectPath,
                alt: alt.trim() || null,
                ...(sensitive ? { sensitive: true } : {}),
              })),
            }
          : {}),
        ...(warning?.trim() ? { contentWarning: warning } : {}),
        ...(poll ? { poll } : {}),
        ...noCard,
      }),
    },
  );
  const create = useCreatePostMutation(() => {
    discardDraft(draftPlaces.post());
    setImages([]);
    setLinkPreview(true);
    setPoll(null);
    setWarning(null);
    form.reset();
    toast({ title: t`Post created successfully!` });
  });
  // A failed load is told on submit, which asks again.
  const wantSchema = () => void form.loadSchema().catch(() => {});

  const blank = text.trim() === '';
  const tooLong = text.trim().length > POST_MAX_LENGTH;
  // With a poll, what the schema says of anything but the text is said under the poll.
  const error = form.errors.content ?? (poll ? null : form.errors.root) ?? null;
  // While the session check runs we cannot tell a visitor from a member: wait for it.
  const disabled =
    blank || tooLong || !!error || (!!poll && !!form.errors.root) || create.isPending || status === 'loading';

  const send = form.handleSubmit(
    (post) => create.mutate(post),
    (loadError) => errorToast(t`Failed to create post`, loadError, t`Please try again`),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending || status === 'loading') return;
    if (!user) {
      loginToasts.post();
      return;
    }
    send(event);
  };

  const openUpload = () => {
    if (status === 'loading') return;
    if (!user) {
      loginToasts.post();
      return;
    }
    if (full) return;
    setUploadOpen(true);
  };

  return (
    <Card className="p-4 sm:p-5">
      <form onSubmit={submit} noValidate aria-label={t`Create a post`} className="grid gap-3">
        <div className="flex gap-3">
          {user ? <UserAvatar user={user} size={42} decorative className="hidden sm:block" /> : null}
          <div className="grid flex-1 gap-1.5">
            {warning !== null ? (
              <Suspense fallback={null}>
                <ComposerWarning
                  value={warning}
                  onChange={(next) => {
                    setWarning(next);
                    // Checked with the text: a change to it is a change of the form.
                    form.setValue('content', text);
                  }}
                  disabled={create.isPending}
                />
              </Suspense>
            ) : null}
            <MentionComposer
              id={form.fieldId('content')}
              label={t`Write a post`}
              value={text}
              enabled={!!user}
              onValueChange={(value) => {
                form.setValue('content', value);
                wantSchema();
              }}
              onFocus={wantSchema}
              placeholder={t`What's on your mind?`}
              rows={3}
              readOnly={create.isPending}
              maxLength={POST_MAX_LENGTH}
              counterFrom={COUNTER_FROM}
              error={error}
              className="min-h-24 resize-y text-[15px]"
            />
          </div>
        </div>
        {images.length > 0 ? (
          <Suspense fallback={null}>
            <ComposerImages images={images} onChange={setImages} disabled={create.isPending} />
          </Suspense>
        ) : null}
        {hasLink ? (
          <Suspense fallback={null}>
            <ComposerLinkPreview
              on={linkPreview}
              onToggle={() => setLinkPreview((on) => !on)}
              disabled={create.isPending}
            />
          </Suspense>
        ) : null}
        {poll ? (
          <Suspense fallback={null}>
            <ComposerPoll
              poll={poll}
              onChange={(next) => {
                setPoll(next);
                // The form checks the poll with the text: a change to it is a change of the form.
                form.setValue('content', text);
              }}
              onRemove={() => setPoll(null)}
              disabled={create.isPending}
              error={form.errors.root ?? null}
            />
          </Suspense>
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={openUpload}
            onPointerEnter={user ? preloadImageUploadDialog : undefined}
            onFocus={user ? preloadImageUploadDialog : undefined}
            disabled={create.isPending || full}
          >
            <ImagePlus aria-hidden="true" />
            <span>
              <Trans>Media</Trans>
            </span>
            {images.length ? (
              <span className="text-xs tabular-nums text-muted-foreground">
                {images.length}/{POST_IMAGES_MAX}
                <span className="sr-only">
                  {' '}
                  <Trans>images attached</Trans>
                </span>
              </span>
            ) : null}
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => setGeneratorOpen(true)}
            onPointerEnter={preloadGenerator}
            onFocus={preloadGenerator}
          >
            <Sparkles aria-hidden="true" />
            <Trans>AI Generate</Trans>
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => {
              if (!user) {
                loginToasts.post();
                return;
              }
              setPoll((now) => now ?? { options: ['', ''], expiresInMinutes: 24 * 60, multiple: false });
              wantSchema();
            }}
            disabled={create.isPending || poll !== null}
          >
            <ChartNoAxesColumn aria-hidden="true" />
            <Trans>Add poll</Trans>
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-pressed={warning !== null}
            onClick={() => {
              if (!user) {
                loginToasts.post();
                return;
              }
              setWarning((now) => (now === null ? '' : null));
              wantSchema();
            }}
            disabled={create.isPending}
          >
            <Trans>
              CW<span className="sr-only">: Content warning</span>
            </Trans>
          </Button>
          <Button type="submit" size="sm" className="ms-auto min-w-20" disabled={disabled}>
            {create.isPending ? <Spinner /> : <Send aria-hidden="true" className="rtl:-scale-x-100" />}
            <Trans context="button: publish the post">Post</Trans>
          </Button>
        </div>
      </form>
      {generatorWanted ? (
        <Suspense fallback={null}>
          <AiArtGeneratorDialog open={generatorOpen} onOpenChange={setGeneratorOpen} />
        </Suspense>
      ) : null}
      <ImageUploadDialog
        open={uploadOpen}
        onOpenChange={setUploadOpen}
        onUploaded={(objectPath) =>
          setImages((now) =>
            now.length >= POST_IMAGES_MAX || now.some((i) => i.objectPath === objectPath)
              ? now
              : [...now, { objectPath, alt: '' }],
          )
        }
        maxFiles={POST_IMAGES_MAX - images.length}
      />
    </Card>
  );
}
