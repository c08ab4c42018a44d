/**
 * Settings' queries: the member's settings and sessions, and the changes made from the Settings
 * page, each with its cache edits here: a profile change (name, bio, pictures, the email) puts the
 * new user in the session and refreshes Settings, profiles and the post lists (which show the
 * author); a new email and an ended session refresh the session list. The forms pass their own
 * toasts and field errors as the mutation's callbacks.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { type SessionUser, setSessionUser } from '../auth/session-queries';
import { invalidatePostLists } from '../posts/post-cache';

type Settings = RouterOutputs['settings']['get'];
/** What Settings' forms start from: the member's settings but their address (useOwnEmail). */
export type SettingsForms = Omit<Settings, 'email'>;

function withoutEmail(settings: Settings): SettingsForms {
  const { email: _email, ...forms } = settings;
  return forms;
}

/**
 * The member's settings but their address. A page the server rendered carries them without a
 * hidden address (entry-server.tsx), which comes in a second answer once the page has hydrated:
 * with the address left out here, that answer draws nothing but the address (useOwnEmail), not
 * every card of the page again (on a 4×-slowed phone that was a long task after each load).
 */
export function useSettingsQuery() {
  return trpc.settings.get.useQuery(undefined, { select: withoutEmail });
}

const emailOf = (settings: Settings) => settings.email;

/** The member's address, '' until known. */
export function useOwnEmail(): string {
  return trpc.settings.get.useQuery(undefined, { select: emailOf }).data ?? '';
}

/** Settings' first data (its loader: routes/settings.tsx): the member's settings. */
export function prefetchSettings(utils: QueryUtils): Promise<void> {
  return utils.settings.get.prefetch();
}

export function useSessionsQuery() {
  return trpc.sessions.list.useQuery();
}

/** After the member's profile changed: the session's user, Settings, profiles and post lists. */
function useProfileChanged() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return (user: SessionUser) => {
    setSessionUser(queryClient, user);
    void utils.settings.get.invalidate();
    void utils.users.byUsername.invalidate();
    void invalidatePostLists(queryClient);
  };
}

type UpdateOptions = NonNullable<Parameters<typeof trpc.settings.update.useMutation>[0]>;
type ImageOptions = NonNullable<Parameters<typeof trpc.users.setProfileImage.useMutation>[0]>;
type ConfirmEmailOptions = NonNullable<Parameters<typeof trpc.settings.confirmEmailChange.useMutation>[0]>;
type EndOptions = NonNullable<Parameters<typeof trpc.sessions.end.useMutation>[0]>;
type EndOthersOptions = NonNullable<Parameters<typeof trpc.sessions.endOthers.useMutation>[0]>;

/** Save the profile's fields, or clear one picture. */
export function useUpdateSettingsMutation(options: UpdateOptions = {}) {
  const changed = useProfileChanged();
  return trpc.settings.update.useMutation({
    ...options,
    onSuccess: (...args) => {
      changed(args[0].user);
      return options.onSuccess?.(...args);
    },
  });
}

function useImageCache(options: ImageOptions): ImageOptions {
  const changed = useProfileChanged();
  return {
    ...options,
    onSuccess: (...args) => {
      changed(args[0].user);
      return options.onSuccess?.(...args);
    },
  };
}

/** Set the profile picture to an uploaded image. */
export function useSetProfileImageMutation(options: ImageOptions = {}) {
  return trpc.users.setProfileImage.useMutation(useImageCache(options));
}

/** Set the banner to an uploaded image. */
export function useSetBannerImageMutation(options: ImageOptions = {}) {
  return trpc.users.setBannerImage.useMutation(useImageCache(options));
}

export function useChangePasswordMutation(
  options: NonNullable<Parameters<typeof trpc.settings.changePassword.useMutation>[0]> = {},
) {
  return trpc.settings.changePassword.useMutation(options);
}

/** Step 1 of a new email: the code is sent to it. */
export function useChangeEmailMutation(
  options: NonNullable<Parameters<typeof trpc.settings.changeEmail.useMutation>[0]> = {},
) {
  return trpc.settings.changeEmail.useMutation(options);
}

/** Step 2: the code confirms it; the other sessions were ended. */
export function useConfirmEmailChangeMutation(options: ConfirmEmailOptions = {}) {
  const utils = trpc.useUtils();
  const changed = useProfileChanged();
  return trpc.settings.confirmEmailChange.useMutation({
    ...options,
    onSuccess: (...args) => {
      changed(args[0].user);
      void utils.sessions.list.invalidate();
      return options.onSuccess?.(...args);
    },
  });
}

export function useEndSessionMutation(options: EndOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.sessions.end.useMutation({
    ...options,
    onSuccess: (...args) => {
      void utils.sessions.list.invalidate();
      return options.onSuccess?.(...args);
    },
  });
}

export function useEndOtherSessionsMutation(options: EndOthersOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.sessions.endOthers.useMutation({
    ...options,
    onSuccess: (...args) => {
      void utils.sessions.list.invalidate();
      return options.onSuccess?.(...args);
    },
  });
}
