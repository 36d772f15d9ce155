import { useResourceParams, useTranslate } from '@refinedev/core';
import { Spin } from 'antd';
import type { PropsWithChildren } from 'react';
import { AccessDenied } from '../../pages/access-denied';
import { alternatives } from '../../resources';
import type { MatchMode } from '../../providers';
import { useAllowedQuery } from './use-allowed';

interface PermissionGuardProps {
  permissions: readonly string[];
  /** 000 §2: a route may need all of its permissions (default) or any one of them. */
  mode?: MatchMode;
}

/** Loading while the access-control provider answers, then the page or the access-denied screen. */
export function PermissionGuard({ permissions, mode = 'all', children }: PropsWithChildren<PermissionGuardProps>) {
  const t = useTranslate();
  const { allowed, loading } = useAllowedQuery(permissions, undefined, mode);
  if (loading) {
    return (
      <div className="guard-loading" role="status">
        <Spin />
        <span>{t('loading')}</span>
      </div>
    );
  }
  if (!allowed) return <AccessDenied required={permissions} />;
  return <>{children}</>;
}

/** Guards whatever the current route renders by its resource's meta.permission (see resources.tsx). */
export function ResourceGuard({ children }: PropsWithChildren) {
  const { resource } = useResourceParams();
  const permission = resource?.meta?.permission;
  if (typeof permission !== 'string' || resource?.meta?.guard === false) return <>{children}</>;
  const any = alternatives(resource?.meta);
  return (
    <PermissionGuard permissions={[permission, ...any]} mode={any.length ? 'any' : 'all'}>
      {children}
    </PermissionGuard>
  );
}
