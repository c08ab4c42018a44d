/**
 * A profile image in Settings (docs/web.md, "Settings"): the picture or banner itself as a preview,
 * with Change (the upload dialog) and Remove, and under it the URL field ("URL or upload": an image
 * uploaded here), so nobody has to read an `/objects/…` path to know what is set.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ImageOff, Trash2, Upload } from 'lucide-react';
import type { ComponentProps } from 'react';
import { TextField } from '../../components/form/text-field';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { isObjectPath, thumbnailUrl } from '../uploads/image-paths';
import { preloadImageUploadDialog } from '../uploads/image-upload-dialog';

export type ImageTarget = 'avatarUrl' | 'headerUrl';

/**
 * What each image's preview, buttons and upload dialog say: whole sentences per image (a name put
 * into a shared sentence would not fit every language's grammar). Translated where shown.
 */
export const IMAGE_TEXTS: Record<
  ImageTarget,
  {
    legend: MessageDescriptor;
    change: MessageDescriptor;
    remove: MessageDescriptor;
    upload: MessageDescriptor;
  }
> = {
  avatarUrl: {
    legend: msg`Profile picture`,
    change: msg`Change profile picture`,
    remove: msg`Remove profile picture`,
    upload: msg`Upload a profile picture`,
  },
  headerUrl: {
    legend: msg`Banner`,
    change: msg`Change banner`,
    remove: msg`Remove banner`,
    upload: msg`Upload a banner`,
  },
};

/** An example of what the field holds: a path of ours, not words to translate. */
const OBJECT_PATH_EXAMPLE = '/objects/…';

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
  const { i18n, t } = useLingui();
  const texts = IMAGE_TEXTS[target];
  // The field's value once it names an upload of ours; until then what is saved.
  const shown = isObjectPath(field.value) ? field.value : saved;
  const titleId = `${field.id}-preview`;
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3" aria-busy={busy || undefined}>
      <legend id={titleId} className="px-1 text-sm font-medium">
        {i18n._(texts.legend)}
      </legend>
      <div className={target === 'avatarUrl' ? 'flex flex-wrap items-center gap-4' : 'grid gap-3'}>
        {target === 'avatarUrl' ? (
          <span
            role="img"
            aria-label={shown ? t`Your profile picture` : t`No profile picture: a generated avatar is shown`}
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
            alt={t`Your banner`}
            className="aspect-[3/1] w-full rounded-md border bg-muted object-cover"
          />
        ) : (
          <div
            role="img"
            aria-label={t`No banner: the default one is shown`}
            className="flex aspect-[3/1] w-full items-end rounded-md bg-gradient-to-br from-primary via-primary/70 to-brand-2 p-2"
          >
            <span className="flex items-center gap-1 rounded bg-black/55 px-2 py-0.5 text-xs text-white">
              <ImageOff aria-hidden="true" className="size-3" />
              <Trans>Default banner</Trans>
            </span>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-label={i18n._(texts.change)}
            disabled={busy}
            onClick={onChange}
            onPointerEnter={preloadImageUploadDialog}
            onFocus={preloadImageUploadDialog}
          >
            {busy ? <Spinner /> : <Upload aria-hidden="true" />}
            <Trans>Change</Trans>
          </Button>
          {saved ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              aria-label={i18n._(texts.remove)}
              disabled={busy}
              onClick={onRemove}
            >
              <Trash2 aria-hidden="true" />
              <Trans>Remove</Trans>
            </Button>
          ) : null}
        </div>
      </div>
      <TextField
        {...field}
        label={label}
        type="url"
        inputMode="url"
        placeholder={OBJECT_PATH_EXAMPLE}
        hint={hint}
      />
    </fieldset>
  );
}
