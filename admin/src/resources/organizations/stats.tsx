import type { MembershipSplit, OrganizationDetail, OrganizationStats, OrganizationType } from '@doanhoi/shared';
import { USER_TYPES } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Card, Col, Descriptions, Row, Statistic, Typography } from 'antd';
import { useCurrentOrganization } from '../../context/current-organization';
import { useAllowed } from '../../components/permission-guard/use-allowed';
import { useOrganizationRead } from './data';

// Every breakpoint named: one left out falls back to antd's default of three columns.
const COLUMNS = { xs: 1, sm: 2, md: 2, lg: 4, xl: 4, xxl: 4 };
const SPLIT: (keyof MembershipSplit)[] = ['both', 'onlyDoanVien', 'onlyHoiVien', 'neither'];
/** Each organization type with where its counts sit in the response. */
const TYPES: [OrganizationType, 'doanStats' | 'hoiStats' | 'clbStats', string][] = [
  ['doan_truong', 'doanStats', 'doanTruong'],
  ['doan_co_so', 'doanStats', 'doanCoSo'],
  ['chi_doan', 'doanStats', 'chiDoan'],
  ['hoi_sinh_vien_truong', 'hoiStats', 'hoiSinhVienTruong'],
  ['lien_chi_hoi', 'hoiStats', 'lienChiHoi'],
  ['chi_hoi', 'hoiStats', 'chiHoi'],
  ['clb_truong', 'clbStats', 'clbTruong'],
  ['clb_khoa', 'clbStats', 'clbKhoa'],
];

/** The figures themselves: totals, units per type with their members, members per user type and status. */
function StatsCard({ s, scope }: { s: OrganizationStats; scope: string }) {
  const t = useTranslate();
  const b = s.membershipBreakdown;
  // A type with no unit in the subtree is left out: a chi đoàn's page would otherwise list five zeros.
  const units = TYPES.map(([type, group, key]) => {
    const block = s[group] as unknown as Record<string, number> & { members: Record<string, number> };
    return { type, units: block[key] ?? 0, members: block.members[key] ?? 0 };
  }).filter((u) => u.units > 0);
  return (
    <Card
      title={t('organizations:stats.title')}
      extra={
        <Typography.Text type="secondary" data-testid="stats-scope">
          {scope}
        </Typography.Text>
      }
      className="section-title org-stats"
      size="small"
      data-testid="org-stats"
    >
      <Row gutter={[16, 16]}>
        <Col xs={8} md={6}>
          <Statistic title={t('organizations:stats.totalMembers')} value={s.totalMembers} data-testid="stats-total" />
        </Col>
        <Col xs={8} md={6}>
          <Statistic title={t('organizations:stats.doanVien')} value={b.both + b.onlyDoanVien} data-testid="stats-doan" />
        </Col>
        <Col xs={8} md={6}>
          <Statistic title={t('organizations:stats.hoiVien')} value={b.both + b.onlyHoiVien} data-testid="stats-hoi" />
        </Col>
      </Row>
      <Descriptions
        title={t('organizations:stats.units')}
        column={COLUMNS}
        size="small"
        className="stats-section"
        data-testid="stats-units"
      >
        {units.map((u) => (
          <Descriptions.Item key={u.type} label={t(`organizations:types.${u.type}`)}>
            <span data-testid={`stats-units-${u.type}`}>{t('organizations:stats.unitLine', { units: u.units, members: u.members })}</span>
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Typography.Title level={5} className="stats-section">
        {t('organizations:stats.byUserType')}
      </Typography.Title>
      {USER_TYPES.map((ut) => {
        const row = s.byUserType[ut];
        return (
          <Descriptions
            key={ut}
            title={
              <span data-testid={`stats-type-${ut}`}>
                {t('organizations:stats.userTypeTotal', { type: t(`users:userType.${ut}`), count: row.total })}
              </span>
            }
            column={COLUMNS}
            size="small"
            bordered
            className="stats-section"
          >
            {SPLIT.map((k) => (
              <Descriptions.Item key={k} label={t(`organizations:stats.split.${k}`)}>
                <span data-testid={`stats-${ut}-${k}`}>{row[k]}</span>
              </Descriptions.Item>
            ))}
          </Descriptions>
        );
      })}
    </Card>
  );
}

/**
 * The statistics of a detail page (000 §3, issue 26 item 4): the figures a unit reports upward each
 * term, over the unit and everything beneath it. Only for holders of view_member_count there.
 */
export function OrganizationStatsCard({ org, ancestorIds }: { org: OrganizationDetail; ancestorIds: number[] }) {
  const t = useTranslate();
  const allowed = useAllowed('organizations.view_member_count', { organizationId: org.id, ancestorIds });
  const { data: stats } = useOrganizationRead<OrganizationStats>(`/${org.id}/stats`, { enabled: allowed });
  if (!allowed || !stats) return null;
  return <StatsCard s={stats} scope={t('organizations:stats.scope')} />;
}

/**
 * The overview's statistics for the unit chosen in the header ("the chosen unit"), or for everything
 * in the global context; only where the caller may see member counts, and never a union of units
 * (the server would count memberships for it).
 */
export function ChosenUnitStatsCard() {
  const t = useTranslate();
  const { organizationId, organizations, mayPickGlobal } = useCurrentOrganization();
  const allowed = useAllowed('organizations.view_member_count') && (organizationId !== null || mayPickGlobal);
  const { data: stats } = useOrganizationRead<OrganizationStats>(organizationId === null ? '/stats' : `/${organizationId}/stats`, {
    enabled: allowed,
  });
  if (!allowed || !stats) return null;
  const name = organizations.find((o) => o.id === organizationId)?.name;
  return (
    <StatsCard
      s={stats}
      scope={organizationId === null ? t('users:roles.global') : t('organizations:stats.chosen', { name: name ?? '' })}
    />
  );
}
