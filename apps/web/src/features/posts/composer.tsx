/**
 * The home composer (docs/web.md, "Home and the composer"): text, Media (one uploaded image,
 * previewed with a 'Remove image' button), AI Generate and Post. Visitors see it too; pressing Post
 * or Media without a session explains instead of sending.
 */
import { createPostInput, POST_MAX_LENGTH } from '@cubes/api/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { ImagePlus, Send, Sparkles, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../components/ui/use-toast';
import { UserAvatar } from '../../components/user-avatar';
import { cn } from '../../lib/cn';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { thumbnailUrl } from '../uploads/image-paths';
import { ImageUploadDialog, preloadImageUploadDialog } from '../uploads/image-upload-dialog';
import { AiArtGeneratorDialog } from './ai-art-generator-dialog';
import { loginToasts } from './login-toasts';
import { prependToFeed } from './post-cache';

/** The counter appears once this close to the limit. */
const COUNTER_FROM = POST_MAX_LENGTH - 200;

export function Composer() {
  const { user, status } = useAuth();
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const fieldId = useId();
  const [text, setText] = useState('');
  const [generatorOpen, setGeneratorOpen] = useState(false);
  const [uploadOpen, setUploadOpen] = useState(false);
  /** The uploaded image's object path, sent as imageUrl with the post. */
  const [imageUrl, setImageUrl] = useState<string | null>(null);

  const create = trpc.posts.create.useMutation({
    onSuccess: ({ post }) => {
      prependToFeed(queryClient, post);
      // Profile counts and lists of the author are out of date now.
      void utils.users.invalidate();
      setText('');
      setImageUrl(null);
      toast({ title: 'Post created successfully!' });
    },
    onError: (error) => {
      errorToast('Failed to create post', error, 'Please try again');
    },
  });

  const parsed = createPostInput.safeParse(imageUrl ? { content: text, imageUrl } : { content: text });
  const blank = text.trim() === '';
  const tooLong = text.trim().length > POST_MAX_LENGTH;
  const validationError = !blank && !parsed.success ? (parsed.error.issues[0]?.message ?? null) : null;
  // While the session check runs we cannot tell a visitor from a member: wait for it.
  const disabled = blank || create.isPending || !parsed.success || status === 'loading';

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (disabled || !parsed.success) return;
    if (!user) {
      loginToasts.post();
      return;
    }
    create.mutate(parsed.data);
  };

  const openUpload = () => {
    if (status === 'loading') return;
    if (!user) {
      loginToasts.post();
      return;
    }
    setUploadOpen(true);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit();
  };

  const length = text.trim().length;
  const counterId = `${fieldId}-counter`;
  const errorId = `${fieldId}-error`;
  const describedBy = [length >= COUNTER_FROM ? counterId : null, validationError ? errorId : null]
    .filter(Boolean)
    .join(' ');

  return (
    <Card className="p-4 sm:p-5">
      <form onSubmit={submit} aria-label="Create a post" className="grid gap-3">
        <div className="flex gap-3">
          {user ? <UserAvatar user={user} size={42} decorative className="hidden sm:block" /> : null}
          <div className="grid flex-1 gap-1.5">
            <label htmlFor={fieldId} className="sr-only">
              Write a post
            </label>
            <Textarea
              id={fieldId}
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={onKeyDown}
              placeholder="What's on your mind?"
              rows={3}
              readOnly={create.isPending}
              aria-invalid={tooLong ? true : undefined}
              aria-describedby={describedBy || undefined}
              className="min-h-24 resize-y text-[15px]"
            />
            {validationError || length >= COUNTER_FROM ? (
              <div className="flex items-start justify-between gap-2 text-xs">
                <p id={errorId} className="font-medium text-destructive">
                  {validationError}
                </p>
                {length >= COUNTER_FROM ? (
                  <p
                    id={counterId}
                    className={cn(
                      'ml-auto shrink-0 tabular-nums',
                      tooLong ? 'font-medium text-destructive' : 'text-muted-foreground',
                    )}
                  >
                    {length}/{POST_MAX_LENGTH}
                  </p>
                ) : null}
              </div>
            ) : null}
          </div>
        </div>
        {imageUrl ? (
          <div className="relative w-fit max-w-full sm:ml-[54px]">
            <img
              src={thumbnailUrl(imageUrl)}
              alt="Attachment preview"
              className="max-h-60 max-w-full rounded-lg border bg-muted object-contain"
            />
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={() => setImageUrl(null)}
              disabled={create.isPending}
              className="absolute top-2 right-2 h-8 px-2 shadow-sm"
            >
              <X aria-hidden="true" />
              Remove image
            </Button>
          </div>
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={openUpload}
            onPointerEnter={user ? preloadImageUploadDialog : undefined}
            onFocus={user ? preloadImageUploadDialog : undefined}
            disabled={create.isPending}
          >
            <ImagePlus aria-hidden="true" />
            <span>Media</span>
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setGeneratorOpen(true)}>
            <Sparkles aria-hidden="true" />
            AI Generate
          </Button>
          <Button type="submit" size="sm" className="ml-auto min-w-20" disabled={disabled}>
            {create.isPending ? <Spinner /> : <Send aria-hidden="true" />}
            Post
          </Button>
        </div>
      </form>
      <AiArtGeneratorDialog open={generatorOpen} onOpenChange={setGeneratorOpen} />
      <ImageUploadDialog open={uploadOpen} onOpenChange={setUploadOpen} onUploaded={setImageUrl} />
    </Card>
  );
}
