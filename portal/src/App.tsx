/** Wiring only: the route table and the sign-in guard. */
import { session } from '@doanhoi/shared/client/session';
import { lazy, Suspense, type ReactNode } from 'react';
import { Layout } from './components/layout';
import { NotFound, PageSpinner } from './components/states';
import { LoginPage } from './pages/login';
import { matchPath, Redirect, useLocation } from './router';
import { changePasswordUrl, loginUrl, MY_CAMPAIGNS_PATH, PROFILE_PATH, TRANSFER_PATH } from './rules';

// Issue 15: the profile page is its own chunk, so the first load (my-campaigns) does not grow.
const ProfilePage = lazy(() => import('./pages/profile'));
// Issue 30 item 1: a member's transfer request, its own chunk too.
const TransferPage = lazy(() => import('./pages/transfer'));

// Each signed-in page loads when first shown: a member's first load must stay under 60 KB (issue 12).
// The sign-in page stays in the entry, since a cold visit starts there.
const ChangePasswordPage = lazy(() => import('./pages/change-password').then((m) => ({ default: m.ChangePasswordPage })));
const MyCampaignsPage = lazy(() => import('./pages/my-campaigns').then((m) => ({ default: m.MyCampaignsPage })));
const PaymentResultPage = lazy(() => import('./pages/payment-result').then((m) => ({ default: m.PaymentResultPage })));
// Issue 30 item 7: the forgotten-password pages, open to anyone.
const ForgotPasswordPage = lazy(() => import('./pages/forgot-password').then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import('./pages/reset-password').then((m) => ({ default: m.ResetPasswordPage })));

/**
 * Signed-in pages; others go to the sign-in page with ?to= the page they asked for, and an account
 * on a temporary password to the change-password page first.
 */
function Authenticated({ href, children }: { href: string; children: ReactNode }) {
  if (!session.isComplete()) return <Redirect to={loginUrl(href)} />;
  if (session.user()?.mustChangePassword) return <Redirect to={changePasswordUrl(href)} />;
  return <Layout>{children}</Layout>;
}

export function App() {
  const { pathname, href } = useLocation();

  if (matchPath('/payment/login', pathname)) return <LoginPage />;
  if (matchPath('/payment/change-password', pathname)) return <ChangePasswordPage />;
  if (matchPath('/payment/forgot-password', pathname)) return <ForgotPasswordPage />;
  if (matchPath('/payment/reset-password', pathname)) return <ResetPasswordPage />;
  if (matchPath('/payment', pathname)) return <Redirect to={MY_CAMPAIGNS_PATH} />;
  if (matchPath('/payment/my-campaigns', pathname)) {
    return (
      <Authenticated href={href}>
        <MyCampaignsPage />
      </Authenticated>
    );
  }
  if (matchPath(PROFILE_PATH, pathname)) {
    return (
      <Authenticated href={href}>
        <Suspense fallback={<PageSpinner />}>
          <ProfilePage />
        </Suspense>
      </Authenticated>
    );
  }
  if (matchPath(TRANSFER_PATH, pathname)) {
    return (
      <Authenticated href={href}>
        <Suspense fallback={<PageSpinner />}>
          <TransferPage />
        </Suspense>
      </Authenticated>
    );
  }
  const result = matchPath('/payment-result/:orderCode', pathname);
  if (result) {
    return (
      <Authenticated href={href}>
        <PaymentResultPage key={result.orderCode} orderCode={result.orderCode} />
      </Authenticated>
    );
  }
  return (
    <Layout signedIn={session.isComplete()}>
      <NotFound />
    </Layout>
  );
}
