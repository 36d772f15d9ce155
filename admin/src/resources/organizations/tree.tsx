import type { OrganizationNode } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Button, Card, Empty, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useOrganizationRead, useRowRightsLoading } from './data';
import { OrganizationCreateButton } from './manage';
import { OrgRow } from './org-row';
import { ChosenUnitStatsCard } from './stats';

export const orgPath = (n: { type: string; code: string }) => `/organizations/${n.type}/${encodeURIComponent(n.code)}`;

interface BranchProps {
  node: OrganizationNode;
  level: number;
  ancestorIds: number[];
  /** Children already in hand (the roots' level comes with the tree); deeper levels are fetched when opened. */
  loaded?: OrganizationNode[];
  defaultOpen: boolean;
}

/** One node and, once opened, its children: any level opens in place, one request per node opened. */
function Branch({ node, level, ancestorIds, loaded, defaultOpen }: BranchProps) {
  const t = useTranslate();
  const [open, setOpen] = useState(defaultOpen && node.hasChildren);
  const { query: fetched, data } = useOrganizationRead<OrganizationNode[]>(`/${node.id}/child-nodes`, { enabled: open && !loaded });
  const children = loaded ?? data;
  const path = [...ancestorIds, node.id];
  return (
    <div>
      <OrgRow
        node={node}
        level={level}
        ancestorIds={ancestorIds}
        detailsTo={orgPath(node)}
        membersTo={`${orgPath(node)}/members`}
        expanded={open}
        onToggle={node.hasChildren ? () => setOpen((o) => !o) : undefined}
      />
      {open && fetched.isLoading && <Spin size="small" className="org-branch-spin" style={{ marginLeft: (level + 1) * 24 }} />}
      {open && fetched.isError && (
        <Typography.Text type="danger" style={{ marginLeft: (level + 1) * 24 }}>
          {t('errors.generic')}
        </Typography.Text>
      )}
      {open && children?.map((c) => <Branch key={c.id} node={c} level={level + 1} ancestorIds={path} defaultOpen={false} />)}
    </div>
  );
}

/**
 * /organizations (000 §2): the tree, top-level rows expanded and their children collapsed. Every
 * row with children opens in place; levels below the roots' children are fetched per node, so a
 * large tree costs one level at a time.
 */
export function OrganizationTreePage() {
  const t = useTranslate();
  const rightsLoading = useRowRightsLoading();
  const { query: tree, data: roots } = useOrganizationRead<OrganizationNode[]>('/tree');

  if (tree.isError)
    return (
      <Result
        status="error"
        title={t('errors.generic')}
        extra={<Button onClick={() => void tree.refetch()}>{t('buttons.refresh')}</Button>}
      />
    );

  return (
    <section data-testid="organizations-page">
      <Typography.Title level={3}>{t('organizations:title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('organizations:subtitle')}</Typography.Paragraph>
      <Card title={t('organizations:tree.title')} data-testid="org-tree" extra={!rightsLoading && <OrganizationCreateButton />}>
        {tree.isLoading || rightsLoading ? (
          <Spin />
        ) : !roots?.length ? (
          <Empty description={t('organizations:tree.empty')} />
        ) : (
          roots.map((root) => (
            <Branch
              key={root.id}
              node={root}
              level={0}
              ancestorIds={[]}
              // The tree call brings the roots' children; their own children are fetched when opened.
              loaded={root.children.map((c) => ({ ...c, children: [] }))}
              defaultOpen
            />
          ))
        )}
      </Card>
      <ChosenUnitStatsCard />
    </section>
  );
}
