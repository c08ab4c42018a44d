/** /auth: Login, Register and Reset tabs. The tab is kept in ?tab= so links can open Register directly. */
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
  { value: 'login', label: 'Login', title: 'Login' },
  { value: 'register', label: 'Register', title: 'Register' },
  { value: 'reset', label: 'Reset', title: 'Reset password' },
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
  useDocumentTitle(TABS.find((t) => t.value === tab)?.title);

  const selectTab = (value: TabValue) => {
    setParams(value === 'login' ? {} : { tab: value }, { replace: true });
  };

  return (
    <GuestOnly>
      <div className="mx-auto w-full max-w-md py-6 sm:py-10">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <CubeLogoMark className="size-12" />
          <h1 className="text-2xl font-semibold tracking-tight">Welcome to Cubes AI</h1>
          <p className="text-sm text-muted-foreground">
            Log in or create an account to post, chat and create.
          </p>
        </div>
        <Card className="p-5 sm:p-6">
          <Tabs
            label="Account"
            variant="pill"
            stretch
            className="gap-6"
            value={tab}
            onValueChange={selectTab}
            items={TABS.map((t) => ({ value: t.value, label: t.label, panel: FORMS[t.value] }))}
          />
        </Card>
      </div>
    </GuestOnly>
  );
}
