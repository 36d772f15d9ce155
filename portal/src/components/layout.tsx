/** The portal frame: a header (name, admin link, language, theme, sign-out) and the page. */
// Formatting from its own module: the package barrel would put every zod schema on the first load.
import { fullName } from '@doanhoi/shared/format/index';
import { session } from '@doanhoi/shared/client/session';
import { useState, type PropsWithChildren } from 'react';
import { useTranslation } from '../i18n';
import { logout } from '../api';
import { Link, navigate } from '../router';
import { LOGIN_PATH, MY_CAMPAIGNS_PATH, PROFILE_PATH, TRANSFER_PATH } from '../rules';
import { WalletIcon } from './icons';
import { LanguageSwitcher } from './language-switcher';
import { ThemeToggle } from './theme-toggle';

export function Layout({ signedIn = true, children }: PropsWithChildren<{ signedIn?: boolean }>) {
  const { t } = useTranslation('portal');
  const user = signedIn ? session.user() : null;
  const [leaving, setLeaving] = useState(false);

  const signOut = async () => {
    setLeaving(true);
    await logout();
    navigate(LOGIN_PATH, { replace: true });
  };

  return (
    <div className="app">
      <header className="header no-print">
        <div className="header-inner">
          <Link className="brand" href={MY_CAMPAIGNS_PATH}>
            <WalletIcon className="brand-icon" />
            <span>{t('appTitle')}</span>
          </Link>
          <nav className="header-nav" aria-label={t('nav.label')}>
            <Link href={MY_CAMPAIGNS_PATH}>{t('nav.myPayments')}</Link>
            <Link href={PROFILE_PATH} data-testid="profile-link">
              {t('nav.profile')}
            </Link>
            <Link href={TRANSFER_PATH} data-testid="transfer-link">
              {t('transfer.nav')}
            </Link>
            {/* The admin is another app on this origin: a plain, full-page link. */}
            <a href="/" data-testid="admin-link">
              {t('nav.admin')}
            </a>
          </nav>
          <div className="header-tools">
            {user ? (
              <span className="user-name" data-testid="user-name" title={user.email}>
                {fullName(user) || user.email}
              </span>
            ) : null}
            <LanguageSwitcher />
            <ThemeToggle />
            {user ? (
              <button type="button" className="btn btn-default" onClick={signOut} disabled={leaving} data-testid="logout-button">
                {t('header.logout')}
              </button>
            ) : (
              <Link className="btn btn-default" href={LOGIN_PATH}>
                {t('login.submit')}
              </Link>
            )}
          </div>
        </div>
      </header>
      {user?.mustChangePassword ? (
        <div className="container no-print">
          <div className="notice notice-warning" role="alert">
            {t('mustChangePassword')} <a href="/">{t('nav.admin')}</a>
          </div>
        </div>
      ) : null}
      <main className="container main">{children}</main>
    </div>
  );
}
