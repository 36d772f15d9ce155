import type { OrganizationNode } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { apiRequest } from '../../providers/http';
import { OrgRow } from './org-row';
import { useOrgAccess } from './use-org-access';

export const orgPath = (n: { type: string; code: string }) => `/organizations/${n.type}/${encodeURIComponent(n.code)}`;

/**
 * /organizations (000 §2): the tree, top-level rows expanded and their children shown collapsed;
 * only top-level rows with children toggle. Deeper levels are reached through the details pages.
 */
export function OrganizationTreePage() {
  const t = useTranslate();
  const access = useOrgAccess();
  const tree = useQuery({ queryKey: ['organizations', 'tree'], queryFn: () => apiRequest<OrganizationNode[]>('/organizations/tree') });
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const toggle = (id: number) => setCollapsed((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));

  if (tree.isError) return <Result status="error" title={t('errors.generic')} extra={<Button onClick={() => void tree.refetch()}>{t('buttons.refresh')}</Button>} />;

  return (
    <section data-testid="organizations-page">
      <Typography.Title level={3}>{t('organizations:title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('organizations:subtitle')}</Typography.Paragraph>
      <Card title={t('organizations:tree.title')} data-testid="org-tree">
        {tree.isLoading || !access.ready ? (
          <Spin />
        ) : !tree.data?.length ? (
          <Empty description={t('organizations:tree.empty')} />
        ) : (
          tree.data.map((root) => {
            const open = root.hasChildren && !collapsed.has(root.id);
            return (
              <div key={root.id}>
                <OrgRow
                  node={root}
                  level={0}
                  ancestorIds={[]}
                  access={access}
                  detailsTo={orgPath(root)}
                  membersTo={`${orgPath(root)}/members`}
                  expanded={open}
                  onToggle={root.hasChildren ? () => toggle(root.id) : undefined}
                />
                {open &&
                  root.children.map((child) => (
                    <OrgRow key={child.id} node={child} level={1} ancestorIds={[root.id]} access={access} detailsTo={orgPath(child)} membersTo={`${orgPath(child)}/members`} />
                  ))}
              </div>
            );
          })
        )}
      </Card>
    </section>
  );
}
