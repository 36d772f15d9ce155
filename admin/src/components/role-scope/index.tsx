import { useTranslate } from '@refinedev/core';
import { Tag } from 'antd';

/**
 * A role with where it applies (issue 26 item 3): "Cán bộ · Chi đoàn 22CNTT1", "Quản trị hệ thống ·
 * Toàn hệ thống". A role without its unit told an officer nothing about what the person may do.
 */
export function RoleScopeTag({
  role,
  organization,
  inactive = false,
}: {
  role: string;
  organization: { name: string } | null;
  inactive?: boolean;
}) {
  const t = useTranslate();
  const scope = organization ? organization.name : t('users:roles.global');
  return (
    <Tag color={inactive ? 'default' : 'blue'} className="role-scope-tag" data-testid="role-scope">
      {role} · {scope}
      {inactive && ` ${t('users:roles.inactive')}`}
    </Tag>
  );
}
