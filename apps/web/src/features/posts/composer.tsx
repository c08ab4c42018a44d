/**
 * The home composer (docs/web.md, "Home and the composer"): text, Media (up to four uploaded
 * images, picked together up to the free slots, each with a description: composer-images.tsx), AI Generate and Post. Visitors see it too; pressing Post
 * or Media without a session explains instead of sending.
 */
import { POST_IMAGES_MAX, POST_MAX_LENGTH } from '@cubes/api/rules';
import { ImagePlus, Send, Sparkles } from 'lucide-react';
import { type FormEvent, lazy, Suspense, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { UserAvatar } from '../../components/user-avatar';
import { discardDraft, draftPlaces, useDraft, useWarnBeforeUnload } from '../../lib/drafts';
import { errorToast } from '../../lib/error-toast';
import { useAuth } from '../auth/auth-provider';
import { MentionComposer } from '../mentions/mention-composer';
import { ImageUploadDialog, preloadImageUploadDialog } from '../uploads/image-upload-dialog';
import type { DraftImage } from './composer-images';
import { useCreatePostMutation } from './composer-queries';
import { loginToasts } from './login-toasts';

/** The counter appears once this close to the limit. */
const COUNTER_FROM = POST_MAX_LENGTH - 200;

// The generator (and its Radix Select) loads on first open, then stays mounted so it can animate out.
const loadGenerator = () => import('./ai-art-generator-dialog');
// The attached images' list (composer-images.tsx) loads with the first image, not with the page.
const ComposerImages = lazy(() => import('./composer-images').then((m) => ({ default: m.ComposerImages })));
const AiArtGeneratorDialog = lazy(() => loadGenerator().then((m) => ({ default: m.AiArtGeneratorDialog })));
const preloadGenerator = () => void loadGenerator().catch(() => {});

type CreatePostSchema = typeof import('@cubes/api/schemas')['createPostInput'];
let createPostSchema: Promise<CreatePostSchema> | undefined;
/**
 * The post is checked with the procedure's own zod schema, which (with zod) loads once the member
 * starts to write: the first page does not carry it.
 */
function loadCreatePostSchema(): Promise<CreatePostSchema> {
  createPostSchema ??= import('@cubes/api/schemas').then(
    (schemas) => schemas.createPostInput,
    (error: unknown) => {
      // Offline for a moment: the next attempt asks again.
      createPostSchema = undefined;
      throw error;
    },
  );
  return createPostSchema;
}

export function Composer() {
  const { user, status } = useAuth();
  const fieldId = useId();
  // Kept across pages until sent (lib/drafts.ts); closing the tab with it unsent asks first.
  const [text, setText] = useDraft(draftPlaces.post());
  useWarnBeforeUnload(text.trim() !== '');
  const [generatorOpen, setGeneratorOpen] = useState(false);
  const [generatorWanted, setGeneratorWanted] = useState(false);
  if (generatorOpen && !generatorWanted) setGeneratorWanted(true);
  const [uploadOpen, setUploadOpen] = useState(false);
  /** The uploaded images in order, with their descriptions, sent as `images` with the post. */
  const [images, setImages] = useState<DraftImage[]>([]);
  const full = images.length >= POST_IMAGES_MAX;
  const create = useCreatePostMutation(() => {
    discardDraft(draftPlaces.post());
    setImages([]);
    toast({ title: 'Post created successfully!' });
  });
  const [schema, setSchema] = useState<CreatePostSchema | null>(null);
  /** Set while a submit waits for the schema, so a second click does not post twice. */
  const checking = useRef(false);
  const wantSchema = () => {
    // A failed load is told on submit, which asks again.
    if (!schema)
      loadCreatePostSchema().then(
        (loaded) => setSchema(() => loaded),
        () => {},
      );
  };

  const input = images.length
    ? {
        content: text,
        images: images.map(({ objectPath, alt }) => ({ objectPath, alt: alt.trim() || null })),
      }
    : { content: text };
  // Until the schema has loaded, only the length rule is known here; submit waits for the schema.
  const parsed = schema?.safeParse(input);
  const blank = text.trim() === '';
  const tooLong = text.trim().length > POST_MAX_LENGTH;
  const validationError =
    !blank && parsed && !parsed.success ? (parsed.error.issues[0]?.message ?? null) : null;
  // While the session check runs we cannot tell a visitor from a member: wait for it.
  const disabled = blank || tooLong || create.isPending || parsed?.success === false || status === 'loading';

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (disabled || checking.current) return;
    if (!user) {
      loginToasts.post();
      return;
    }
    checking.current = true;
    try {
      const loaded = await loadCreatePostSchema();
      const checked = loaded.safeParse(input);
      if (checked.success) create.mutate(checked.data);
      else setSchema(() => loaded);
    } catch (error) {
      errorToast('Failed to create post', error, 'Please try again');
    } finally {
      checking.current = false;
    }
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
      <form onSubmit={(event) => void submit(event)} aria-label="Create a post" className="grid gap-3">
        <div className="flex gap-3">
          {user ? <UserAvatar user={user} size={42} decorative className="hidden sm:block" /> : null}
          <div className="grid flex-1 gap-1.5">
            <MentionComposer
              id={fieldId}
              label="Write a post"
              value={text}
              enabled={!!user}
              onValueChange={(value) => {
                setText(value);
                wantSchema();
              }}
              onFocus={wantSchema}
              placeholder="What's on your mind?"
              rows={3}
              readOnly={create.isPending}
              maxLength={POST_MAX_LENGTH}
              counterFrom={COUNTER_FROM}
              error={validationError}
              className="min-h-24 resize-y text-[15px]"
            />
          </div>
        </div>
        {images.length > 0 ? (
          <Suspense fallback={null}>
            <ComposerImages images={images} onChange={setImages} disabled={create.isPending} />
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
            <span>Media</span>
            {images.length ? (
              <span className="text-xs tabular-nums text-muted-foreground">
                {images.length}/{POST_IMAGES_MAX}
                <span className="sr-only"> images attached</span>
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
            AI Generate
          </Button>
          <Button type="submit" size="sm" className="ml-auto min-w-20" disabled={disabled}>
            {create.isPending ? <Spinner /> : <Send aria-hidden="true" />}
            Post
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
