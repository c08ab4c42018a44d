/** /auth: Login, Register and Reset tabs. The tab is kept in ?tab= so links can open Register directly. */
import { Tabs } from 'radix-ui';
import { useSearchParams } from 'react-router-dom';
import { CubeLogoMark } from '../components/layout/logo';
import { Card } from '../components/ui/card';
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

function isTab(value: string | null): value is TabValue {
  return TABS.some((t) => t.value === value);
}

const triggerClasses =
  'inline-flex h-full flex-1 items-center justify-center rounded-md px-3 text-sm font-medium text-muted-foreground transition-all ' +
  'hover:text-foreground data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

export default function AuthPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'login';
  useDocumentTitle(TABS.find((t) => t.value === tab)?.title);

  const selectTab = (value: string) => {
    if (!isTab(value)) return;
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
          <Tabs.Root value={tab} onValueChange={selectTab}>
            <Tabs.List
              aria-label="Account"
              className="mb-6 flex h-10 items-center gap-1 rounded-lg bg-muted p-1 text-muted-foreground"
            >
              {TABS.map((t) => (
                <Tabs.Trigger key={t.value} value={t.value} className={triggerClasses}>
                  {t.label}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content tabIndex={-1} value="login" className="rounded-md">
              <LoginForm />
            </Tabs.Content>
            <Tabs.Content tabIndex={-1} value="register" className="rounded-md">
              <RegisterForm />
            </Tabs.Content>
            <Tabs.Content tabIndex={-1} value="reset" className="rounded-md">
              <ResetPasswordForm />
            </Tabs.Content>
          </Tabs.Root>
        </Card>
      </div>
    </GuestOnly>
  );
}
