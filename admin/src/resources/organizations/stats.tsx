import type { MembershipSplit, OrganizationDetail, OrganizationStats } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { apiRequest } from '../../providers/http';
import type { OrgAccess } from './use-org-access';

const SPLIT: (keyof MembershipSplit)[] = ['both', 'onlyDoanVien', 'onlyHoiVien', 'neither'];

/**
 * The statistics block of a detail page (000 §3): members of the organization and beneath it, the
 * Đoàn/Hội split, and organizations per group. Only for holders of view_member_count there.
 */
export function OrganizationStatsCard({ org, access, ancestorIds }: { org: OrganizationDetail; access: OrgAccess; ancestorIds: number[] }) {
  const t = useTranslate();
  const allowed = access.can('organizations.view_member_count', org.id, ancestorIds);
  const stats = useQuery({
    queryKey: ['organizations', 'stats', org.id],
    queryFn: () => apiRequest<OrganizationStats>(`/organizations/${org.id}/stats`),
    enabled: allowed,
  });
  if (!allowed || !stats.data) return null;
  const s = stats.data;
  return (
    <Card title={t('organizations:stats.title')} className="section-title" size="small" data-testid="org-stats">
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Statistic title={t('organizations:stats.totalMembers')} value={s.totalMembers} />
        </Col>
        {SPLIT.map((k) => (
          <Col xs={12} md={4} key={k}>
            <Statistic title={t(`organizations:stats.split.${k}`)} value={s.membershipBreakdown[k]} />
          </Col>
        ))}
        <Col xs={8} md={6}>
          <Statistic title={t('organizations:stats.doan')} value={s.doanStats.total} />
        </Col>
        <Col xs={8} md={6}>
          <Statistic title={t('organizations:stats.hoi')} value={s.hoiStats.total} />
        </Col>
        <Col xs={8} md={6}>
          <Statistic title={t('organizations:stats.clb')} value={s.clbStats.total} />
        </Col>
      </Row>
    </Card>
  );
}
