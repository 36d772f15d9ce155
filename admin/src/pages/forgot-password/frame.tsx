import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from '../../components/language-switcher';
import { AppTitle } from '../../components/layout/title';
import { ThemeToggle } from '../../components/theme-toggle';

/** The sign-in page's frame (toolbar, card, heading) for the forgotten-password pages. */
export function AuthFrame({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <main className="login-page">
      <div className="login-toolbar">
        <LanguageSwitcher />
        <ThemeToggle />
      </div>
      <Card className="login-card">
        <div className="login-heading">
          <AppTitle />
          <Typography.Title level={3}>{title}</Typography.Title>
          {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
        </div>
        {children}
      </Card>
    </main>
  );
}
