/**
 * /settings (docs/web.md, "Settings"): sections a member can jump to: Profile (Profile Settings),
 * Account (Change Password, Change Email), Notifications (push), Privacy (content warnings and
 * sensitive media, the blocked and muted users), Sessions, and Data (Download my data, Delete my account).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { LogIn, Settings } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageLoading } from '../components/shell/page-loading';
import { PagePlaceholder } from '../components/shell/page-placeholder';
import { Button } from '../components/ui/button';
import { DeleteAccountCard } from '../features/account/delete-account-card';
import { DownloadDataCard } from '../features/account/download-data-card';
import { useAuth } from '../features/auth/auth-provider';
import { SessionLoading } from '../features/auth/route-guards';
import { LanguageCard } from '../features/language/language-card';
import { NotificationsCard } from '../features/push/notifications-card';
import { SafetyLists } from '../features/safety/safety-lists';
import { ChangeEmailForm } from '../features/settings/change-email-form';
import { ChangePasswordForm } from '../features/settings/change-password-form';
import { ContentPreferencesCard } from '../features/settings/content-preferences-card';
import { ProfileSettingsForm } from '../features/settings/profile-settings-form';
import { prefetchSettings, useSettingsQuery } from '../features/settings/queries';
import { SessionsCard } from '../features/settings/sessions-card';
import { SettingsNav, SettingsSection, useJumpToHash } from '../features/settings/settings-sections';
import { useDocumentTitle } from '../lib/document-title';
import { memberLoader } from './loader';

export const loader = memberLoader(({ utils }) => prefetchSettings(utils));

function SettingsForms() {
  const settings = useSettingsQuery();
  const { t } = useLingui();
  useJumpToHash(settings.isSuccess);
  if (settings.isPending) return <PageLoading label={t`Loading settings...`} />;
  if (settings.isError) {
    return (
      <section className="flex flex-col items-center gap-3 py-20 text-center">
        <p className="text-muted-foreground">
          <Trans>Could not load your settings.</Trans>
        </p>
        <Button variant="outline" onClick={() => void settings.refetch()}>
          <Trans>Retry</Trans>
        </Button>
      </section>
    );
  }
  return (
    <div className="mx-auto grid w-full max-w-2xl gap-6 lg:max-w-4xl lg:grid-cols-[10rem_minmax(0,1fr)] lg:gap-8">
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl lg:col-span-2">
        <Trans>Settings</Trans>
      </h1>
      <SettingsNav className="lg:sticky lg:top-24 lg:self-start" />
      <div className="grid min-w-0 gap-8">
        <SettingsSection id="profile">
          {/* Keyed by username: after a new login the profile form starts from that user's values. */}
          <ProfileSettingsForm key={settings.data.username} settings={settings.data} />
        </SettingsSection>
        <SettingsSection id="account">
          <ChangePasswordForm />
          <ChangeEmailForm />
          <LanguageCard />
        </SettingsSection>
        <SettingsSection id="notifications">
          <NotificationsCard />
        </SettingsSection>
        <SettingsSection id="privacy">
          <ContentPreferencesCard settings={settings.data} />
          <SafetyLists />
        </SettingsSection>
        <SettingsSection id="sessions">
          <SessionsCard />
        </SettingsSection>
        <SettingsSection id="data">
          <DownloadDataCard />
          <DeleteAccountCard />
        </SettingsSection>
      </div>
    </div>
  );
}

export default function SettingsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Settings`);
  const { status } = useAuth();
  if (status === 'loading') return <SessionLoading />;
  // Unlike the other protected pages, /settings explains itself instead of redirecting
  // (docs/web.md, "Routes and access").
  if (status === 'anonymous') {
    return (
      <PagePlaceholder title={t`Settings`} icon={Settings} description={t`Please login to access settings`}>
        <Button asChild>
          <Link to="/auth">
            <LogIn aria-hidden="true" />
            <Trans>Login</Trans>
          </Link>
        </Button>
      </PagePlaceholder>
    );
  }
  return <SettingsForms />;
}
