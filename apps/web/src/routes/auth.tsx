/** /auth: Login, Register and Reset tabs. The tab is kept in ?tab= so links can open Register directly. */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CubeLogoMark } from '../components/shell/logo';
import { Card } from '../components/ui/card';
import { Tabs } from '../components/ui/tabs';
import { LoginForm } from '../features/auth/login-form';
import { RegisterForm } from '../features/auth/register-form';
import { ResetPasswordForm } from '../features/auth/reset-password-form';
import { GuestOnly } from '../features/auth/route-guards';
import { useDocumentTitle } from '../lib/document-title';

const TABS = [
  { value: 'login', label: msg`Login`, title: msg`Login` },
  { value: 'register', label: msg`Register`, title: msg`Register` },
  { value: 'reset', label: msg`Reset`, title: msg`Reset password` },
] as const;
type TabValue = (typeof TABS)[number]['value'];
const FORMS: Record<TabValue, ReactNode> = {
  login: <LoginForm />,
  register: <RegisterForm />,
  reset: <ResetPasswordForm />,
};

function isTab(value: string | null): value is TabValue {
  return TABS.some((t) => t.value === value);
}

export default function AuthPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'login';
  const { i18n, t } = useLingui();
  const title = TABS.find((item) => item.value === tab)?.title;
  useDocumentTitle(title ? i18n._(title) : undefined);

  const selectTab = (value: TabValue) => {
    setParams(value === 'login' ? {} : { tab: value }, { replace: true });
  };

  return (
    <GuestOnly>
      <div className="mx-auto w-full max-w-md py-6 sm:py-10">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <CubeLogoMark className="size-12" />
          <h1 className="text-2xl font-semibold tracking-tight">
            <Trans>Welcome to Cubes AI</Trans>
          </h1>
          <p className="text-sm text-muted-foreground">
            <Trans>Log in or create an account to post, chat and create.</Trans>
          </p>
        </div>
        <Card className="p-5 sm:p-6">
          <Tabs
            label={t`Account`}
            variant="pill"
            stretch
            className="gap-6"
            value={tab}
            onValueChange={selectTab}
            items={TABS.map((item) => ({
              value: item.value,
              label: i18n._(item.label),
              panel: FORMS[item.value],
            }))}
          />
        </Card>
      </div>
    </GuestOnly>
  );
}
