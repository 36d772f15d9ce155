import { RightOutlined, DownOutlined, TeamOutlined } from '@ant-design/icons';
import type { OrganizationType } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Button, Space, Tag, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { useAllowed } from '../../components/permission-guard/use-allowed';
import { useMyOrganizations } from './data';
import { OrgRowActions } from './row-actions';

export interface RowNode {
  id: number;
  name: string;
  code: string;
  type: OrganizationType;
  description: string | null;
  memberCount?: number | null;
  /** Known on the tree (a delete is then shown off with its reason at once); a detail page's children are asked on delete. */
  hasChildren?: boolean;
}

interface Props {
  node: RowNode;
  level: number;
  ancestorIds: number[];
  /** Where the details link goes; null hides it (the row is the page shown). */
  detailsTo: string | null;
  membersTo: string;
  expanded?: boolean;
  onToggle?: () => void;
}

export const TYPE_COLORS: Record<OrganizationType, string> = {
  doan_truong: 'red',
  doan_co_so: 'volcano',
  chi_doan: 'orange',
  hoi_sinh_vien_truong: 'blue',
  lien_chi_hoi: 'geekblue',
  chi_hoi: 'cyan',
  clb_truong: 'purple',
  clb_khoa: 'magenta',
};

/** One organization row (000 §2): name, type, description, member badge, details link, member count, action icons. */
export function OrgRow({ node, level, ancestorIds, detailsTo, membersTo, expanded, onToggle }: Props) {
  const t = useTranslate();
  const member = useMyOrganizations()?.organizationIds.includes(node.id) ?? false;
  const where = { organizationId: node.id, ancestorIds };
  // Details: a super admin (who holds every code), access_children on this organization, or an active member (000 §2).
  const showDetails = useAllowed('organizations.access_children', where) || member;
  const countVisible = useAllowed('organizations.view_member_count', where);
  return (
    <div className="org-row" style={{ '--org-level': level } as CSSProperties} data-testid="org-row" data-code={node.code}>
      <Space className="org-row-main" align="start">
        {onToggle ? (
          <Button
            type="text"
            size="small"
            icon={expanded ? <DownOutlined /> : <RightOutlined />}
            onClick={onToggle}
            aria-label={t(expanded ? 'organizations:tree.collapse' : 'organizations:tree.expand')}
            data-testid="org-toggle"
          />
        ) : (
          <span className="org-row-spacer" />
        )}
        <div>
          <Space size={6} wrap>
            <Typography.Text strong>{node.name}</Typography.Text>
            <Tag color={TYPE_COLORS[node.type]}>{t(`organizations:types.${node.type}`)}</Tag>
            {member && (
              <Tag color="green" data-testid="org-member-badge">
                {t('organizations:tree.member')}
              </Tag>
            )}
          </Space>
          {node.description && (
            <Typography.Paragraph type="secondary" className="org-row-description">
              {node.description}
            </Typography.Paragraph>
          )}
        </div>
      </Space>
      <Space>
        {node.memberCount != null && (
          <Space size={4}>
            <TeamOutlined />
            {countVisible && node.code ? (
              <Link to={membersTo} data-testid="org-member-count">
                {t('organizations:tree.members', { count: node.memberCount })}
              </Link>
            ) : (
              <Typography.Text data-testid="org-member-count">
                {t('organizations:tree.members', { count: node.memberCount })}
              </Typography.Text>
            )}
          </Space>
        )}
        {detailsTo !== null && showDetails && (
          <Link to={detailsTo!} data-testid="org-details">
            {t('organizations:tree.details')}
          </Link>
        )}
        <OrgRowActions node={node} ancestorIds={ancestorIds} />
      </Space>
    </div>
  );
}
