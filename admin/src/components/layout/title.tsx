import { useLink, useTranslate } from '@refinedev/core';

/** The app name in the sider and on the login card; a small logo stands alone when collapsed. */
export function AppTitle({ collapsed = false }: { collapsed?: boolean }) {
  const t = useTranslate();
  const Link = useLink();
  return (
    <Link to="/" className="app-title" aria-label={t('appTitle')}>
      <span className="app-logo" aria-hidden="true">
        ĐH
      </span>
      {!collapsed && <span className="app-title-text">{t('appTitle')}</span>}
    </Link>
  );
}
