/**
 * 'Profile Settings' (docs/web.md, "Settings"): display name, bio, picture and banner (our own
 * uploads only, through the image-upload dialog, and set at once), email visibility. Saving or setting an
 * image updates the session user (header avatar menu) at once and refreshes profile and feed
 * caches.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { BIO_MAX, type MessagesFromSetting, updateSettingsInput } from '@cubes/api/schemas';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Switch } from 'radix-ui';
import { useId, useState } from 'react';
import type { z } from 'zod';
import { TextField } from '../../components/form/text-field';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { serverFieldErrors } from '../../lib/trpc';
import { ImageUploadDialog } from '../uploads/image-upload-dialog';
import { IMAGE_TEXTS, type ImageTarget, ProfileImageField } from './profile-image-field';
import {
  type SettingsForms,
  useOwnEmail,
  useSetBannerImageMutation,
  useSetProfileImageMutation,
  useUpdateSettingsMutation,
} from './queries';
import { SettingsCard } from './settings-card';

// The string fields go through the shared schema; emailVisible is a plain switch beside them.
const profileSchema = updateSettingsInput
  .pick({ displayName: true, bio: true, avatarUrl: true, headerUrl: true })
  .required();
type ProfileValues = { displayName: string; bio: string; avatarUrl: string; headerUrl: string };
// The form only ever holds strings, a subset of what the schema accepts (bio and URLs also take
// null), so narrowing the input type is safe; TypeScript cannot see that through zod's variance.
const profileFields = profileSchema as unknown as z.ZodType<z.output<typeof profileSchema>, ProfileValues>;

const IMAGE_FAILURE: Record<ImageTarget, MessageDescriptor> = {
  avatarUrl: msg`Failed to set profile image`,
  headerUrl: msg`Failed to set banner image`,
};

/** The address under "Show my email on my profile": alone, it redraws alone when it comes. */
function OwnEmail() {
  return <p className="text-xs text-muted-foreground">{useOwnEmail()}</p>;
}

export function ProfileSettingsForm({ settings }: { settings: SettingsForms }) {
  const { i18n, t } = useLingui();
  const switchId = useId();
  const bioId = useId();
  const [emailVisible, setEmailVisible] = useState(settings.emailVisible);
  const messagesFromId = useId();
  const [messagesFrom, setMessagesFrom] = useState<MessagesFromSetting>(settings.messagesFrom);
  const form = useZodForm(profileFields, {
    displayName: settings.displayName,
    bio: settings.bio ?? '',
    avatarUrl: settings.avatarUrl ?? '',
    headerUrl: settings.headerUrl ?? '',
  });

  const update = useUpdateSettingsMutation({
    onSuccess: () => {
      toast({ title: t`Profile updated successfully!` });
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast(t`Failed to update profile`, error, t`Please try again.`);
    },
  });

  // Which field the upload dialog fills; it stays set while the dialog closes.
  const [uploadTarget, setUploadTarget] = useState<ImageTarget>('avatarUrl');
  const [uploadOpen, setUploadOpen] = useState(false);
  const openUpload = (target: ImageTarget) => {
    setUploadTarget(target);
    setUploadOpen(true);
  };

  const imageSet = (target: ImageTarget) => ({
    onSuccess: ({ user }: { user: RouterOutputs['users']['setProfileImage']['user'] }) => {
      form.setValue(target, user[target] ?? '');
    },
    onError: (error: unknown) => {
      errorToast(i18n._(IMAGE_FAILURE[target]), error, t`Please try again`);
    },
  });
  const setProfileImage = useSetProfileImageMutation(imageSet('avatarUrl'));
  const setBannerImage = useSetBannerImageMutation(imageSet('headerUrl'));
  const onUploaded = (objectPath: string) => {
    const mutation = uploadTarget === 'avatarUrl' ? setProfileImage : setBannerImage;
    mutation.mutate({ objectPath });
  };
  // Remove clears that one image at once, as setting one does; the rest of the form is left as typed.
  const removeImage = useUpdateSettingsMutation({
    onSuccess: (_answer, input) => {
      const target: ImageTarget = 'avatarUrl' in input ? 'avatarUrl' : 'headerUrl';
      form.setValue(target, '');
      toast({ title: target === 'avatarUrl' ? t`Profile picture removed` : t`Banner removed` });
    },
    onError: (error) => {
      errorToast(t`Failed to update profile`, error, t`Please try again.`);
    },
  });
  const imageBusy = (target: ImageTarget) =>
    (target === 'avatarUrl' ? setProfileImage.isPending : setBannerImage.isPending) ||
    (removeImage.isPending && removeImage.variables !== undefined && target in removeImage.variables);
  const imageField = (target: ImageTarget, label: string, hint: string) => (
    <ProfileImageField
      target={target}
      field={form.field(target)}
      saved={settings[target]}
      user={{ username: settings.username, displayName: settings.displayName }}
      label={label}
      hint={hint}
      busy={imageBusy(target)}
      onChange={() => openUpload(target)}
      onRemove={() => removeImage.mutate(target === 'avatarUrl' ? { avatarUrl: null } : { headerUrl: null })}
    />
  );

  const bioLength = form.values.bio.length;
  const bioError = form.errors.bio;

  return (
    <SettingsCard
      id="profile-settings-title"
      title={t`Profile Settings`}
      description={t`How other members see you.`}
    >
      <form
        noValidate
        className="grid gap-4"
        onSubmit={form.handleSubmit((data) => update.mutate({ ...data, emailVisible, messagesFrom }))}
      >
        <TextField
          {...form.field('displayName')}
          label={t`Display name`}
          autoComplete="nickname"
          maxLength={50}
        />
        <div className="grid gap-2">
          <Label htmlFor={form.fieldId('bio')}>
            <Trans>Bio</Trans>
          </Label>
          <Textarea
            id={form.fieldId('bio')}
            rows={4}
            maxLength={BIO_MAX}
            placeholder={t`Tell the community about yourself`}
            value={form.values.bio}
            onChange={(event) => form.setValue('bio', event.target.value)}
            aria-invalid={bioError ? true : undefined}
            aria-describedby={[`${bioId}-count`, bioError ? `${bioId}-error` : ''].filter(Boolean).join(' ')}
            className="min-h-24 resize-y"
          />
          <div className="flex items-start justify-between gap-3">
            {bioError ? (
              <p id={`${bioId}-error`} className="text-sm font-medium text-destructive">
                {bioError}
              </p>
            ) : (
              <span />
            )}
            <p
              id={`${bioId}-count`}
              className={`shrink-0 text-xs tabular-nums ${bioLength >= BIO_MAX ? 'text-destructive' : 'text-muted-foreground'}`}
            >
              {i18n.number(bioLength)}/{i18n.number(BIO_MAX)}
            </p>
          </div>
        </div>
        {imageField(
          'avatarUrl',
          t`Profile picture URL`,
          t`An image you uploaded here (Change uploads one), or empty for a generated avatar.`,
        )}
        {imageField(
          'headerUrl',
          t`Banner URL`,
          t`A wide image you uploaded here (Change uploads one), or empty for the default banner.`,
        )}
        <div className="flex items-center justify-between gap-4 rounded-lg border p-3">
          <div className="grid gap-1">
            <Label htmlFor={switchId}>
              <Trans>Show my email on my profile</Trans>
            </Label>
            <OwnEmail />
          </div>
          <Switch.Root
            id={switchId}
            checked={emailVisible}
            onCheckedChange={setEmailVisible}
            className="peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-input transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=checked]:bg-primary"
          >
            <Switch.Thumb className="pointer-events-none block size-5 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-5 rtl:data-[state=checked]:-translate-x-5 data-[state=unchecked]:translate-x-0" />
          </Switch.Root>
        </div>
        <div className="grid gap-1.5 rounded-lg border p-3">
          <Label htmlFor={messagesFromId}>
            <Trans>Who can send me direct messages</Trans>
          </Label>
          <select
            id={messagesFromId}
            value={messagesFrom}
            onChange={(event) => setMessagesFrom(event.target.value as MessagesFromSetting)}
            className="h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-2 focus-visible:outline-ring"
          >
            <option value="everyone">{t`Everyone`}</option>
            <option value="following">{t`People I follow`}</option>
            <option value="nobody">{t`Nobody`}</option>
          </select>
          <p className="text-xs text-muted-foreground">
            <Trans>People you have written to can always answer.</Trans>
          </p>
        </div>
        <div>
          <Button type="submit" disabled={update.isPending} aria-busy={update.isPending}>
            {update.isPending ? <Spinner /> : null}
            <Trans>Save Profile</Trans>
          </Button>
        </div>
      </form>
      <ImageUploadDialog
        open={uploadOpen}
        onOpenChange={setUploadOpen}
        onUploaded={onUploaded}
        title={i18n._(IMAGE_TEXTS[uploadTarget].upload)}
        note={
          uploadTarget === 'avatarUrl'
            ? t`Your profile picture: PNG, JPEG, GIF or WebP, up to 5 MB`
            : t`Your banner (a wide image works best): PNG, JPEG, GIF or WebP, up to 5 MB`
        }
      />
    </SettingsCard>
  );
}
