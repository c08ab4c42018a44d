/**
 * A profile image in Settings (docs/web.md, "Settings"): the picture or banner itself as a preview,
 * with Change (the upload dialog) and Remove, and under it the URL field ("URL or upload": an image
 * uploaded here), so nobody has to read an `/objects/…` path to know what is set.
 */
import { ImageOff, Trash2, Upload } from 'lucide-react';
import type { ComponentProps } from 'react';
import { TextField } from '../../components/form/text-field';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { isObjectPath, thumbnailUrl } from '../uploads/image-paths';
import { preloadImageUploadDialog } from '../uploads/image-upload-dialog';

export type ImageTarget = 'avatarUrl' | 'headerUrl';

/** What each image is called, on its buttons and preview. */
export const IMAGE_NAMES: Record<ImageTarget, string> = {
  avatarUrl: 'profile picture',
  headerUrl: 'banner',
};

interface ProfileImageFieldProps {
  target: ImageTarget;
  /** The URL field, as the form's `field()` gives it. */
  field: Omit<ComponentProps<typeof TextField>, 'label'>;
  /** The value saved on the server (what the preview shows while the field is being edited). */
  saved: string | null;
  /** Whose picture a generated avatar is drawn for. */
  user: { username: string; displayName: string };
  label: string;
  hint: string;
  onChange: () => void;
  onRemove: () => void;
  busy: boolean;
}

export function ProfileImageField({
  target,
  field,
  saved,
  user,
  label,
  hint,
  onChange,
  onRemove,
  busy,
}: ProfileImageFieldProps) {
  const name = IMAGE_NAMES[target];
  // The field's value once it names an upload of ours; until then what is saved.
  const shown = isObjectPath(field.value) ? field.value : saved;
  const titleId = `${field.id}-preview`;
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3" aria-busy={busy || undefined}>
      <legend id={titleId} className="px-1 text-sm font-medium">
        {name[0]!.toUpperCase() + name.slice(1)}
      </legend>
      <div className={target === 'avatarUrl' ? 'flex flex-wrap items-center gap-4' : 'grid gap-3'}>
        {target === 'avatarUrl' ? (
          <span
            role="img"
            aria-label={shown ? 'Your profile picture' : 'No profile picture: a generated avatar is shown'}
          >
            <UserAvatar
              user={{ ...user, avatarUrl: shown }}
              size={88}
              decorative
              className="border-2 border-border"
            />
          </span>
        ) : shown ? (
          <img
            src={thumbnailUrl(shown)}
            alt="Your banner"
            className="aspect-[3/1] w-full rounded-md border bg-muted object-cover"
          />
        ) : (
          <div
            role="img"
            aria-label="No banner: the default one is shown"
            className="flex aspect-[3/1] w-full items-end rounded-md bg-gradient-to-br from-primary via-primary/70 to-brand-2 p-2"
          >
            <span className="flex items-center gap-1 rounded bg-black/55 px-2 py-0.5 text-xs text-white">
              <ImageOff aria-hidden="true" className="size-3" />
              Default banner
            </span>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-label={`Change ${name}`}
            disabled={busy}
            onClick={onChange}
            onPointerEnter={preloadImageUploadDialog}
            onFocus={preloadImageUploadDialog}
          >
            {busy ? <Spinner /> : <Upload aria-hidden="true" />}
            Change
          </Button>
          {saved ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              aria-label={`Remove ${name}`}
              disabled={busy}
              onClick={onRemove}
            >
              <Trash2 aria-hidden="true" />
              Remove
            </Button>
          ) : null}
        </div>
      </div>
      <TextField {...field} label={label} type="url" inputMode="url" placeholder="/objects/…" hint={hint} />
    </fieldset>
  );
}
