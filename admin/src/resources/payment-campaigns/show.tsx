import { formatDateTime, fullName, type Campaign } from '@doanhoi/shared';
import { useModalForm } from '@refinedev/antd';
import { useCan, useGo, useTranslate } from '@refinedev/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Result, Space, Spin, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { apiRequest } from '../../providers/http';
import { CampaignFormModal, toFormValues } from './form';
import { ACTIONS_BY_STATUS, CampaignStatusTag, useCampaignActions } from './status';
import { AssignmentsTab } from './tabs/assignments';
import { FeeLevelsTab } from './tabs/fee-levels';
import { PaymentHistoryTab } from './tabs/payment-history';
import { PayosConfigTab } from './tabs/payos-config';
import { StatisticsTab } from './tabs/statistics';

const TABS = ['statistics', 'payment-history', 'fee-levels', 'member-assignments', 'payos-config'] as const;

/** /admin/payment-campaigns/{id} (001 §2): header with the status actions, info card, tabs by ?tab=. */
export function CampaignShowPage() {
  const t = useTranslate();
  const go = useGo();
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const [activationError, setActivationError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const campaign = useQuery({ queryKey: ['payment-campaigns', id], queryFn: () => apiRequest<Campaign>(`/payment-campaigns/${id}`), retry: false });
  const canEdit = useCan({ resource: 'payment-campaigns', action: 'edit' }).data?.can ?? false;
  const canDelete = useCan({ resource: 'payment-campaigns', action: 'delete' }).data?.can ?? false;
  const canManage = useCan({ resource: 'payment-campaigns', action: 'manage_assignments' }).data?.can ?? false;
  const canReports = useCan({ resource: 'payment-campaigns', action: 'view_reports' }).data?.can ?? false;
  const edit = useModalForm<Campaign>({
    resource: 'payment-campaigns',
    action: 'edit',
    redirect: false,
    queryOptions: { select: (res) => ({ ...res, data: toFormValues(res.data) as unknown as Campaign }) },
    onMutationSuccess: () => void campaign.refetch(),
  });
  const actions = useCampaignActions(
    (c) => {
      setActivationError(null);
      if (c) void campaign.refetch();
      else go({ to: '/admin/payment-campaigns' });
    },
    (message) => setActivationError(message),
  );

  if (campaign.isLoading) return <Spin />;
  if (!campaign.data) {
    return (
      <div data-testid="campaign-not-found">
        <Result status="404" title={t('campaigns:notFound')} extra={<Link to="/admin/payment-campaigns">{t('campaigns:backToList')}</Link>} />
      </div>
    );
  }
  const c = campaign.data;
  const allowed = ACTIONS_BY_STATUS[c.status];
  // 001 §4: a finished campaign's levels, assignments and payOS config are read-only.
  const writable = canEdit && c.status !== 'COMPLETED' && c.status !== 'CANCELLED';
  // Levels, assignments and keys change the campaign's counts and statistics too.
  const refetch = () => void queryClient.invalidateQueries({ queryKey: ['payment-campaigns'] });
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? params.get('tab')! : 'statistics';

  return (
    <section data-testid="campaign-page">
      <Space className="page-header" align="start">
        <div>
          <Space>
            <Typography.Title level={3}>{c.name}</Typography.Title>
            <CampaignStatusTag status={c.status} />
          </Space>
          <Typography.Paragraph type="secondary">{c.organization?.name ?? 'N/A'}</Typography.Paragraph>
        </div>
        <Space>
          {canEdit && allowed.edit && <Button onClick={() => edit.show(c.id)}>{t('buttons.edit')}</Button>}
          {canEdit &&
            allowed.transitions.map((a) => (
              <Button key={a} type={a === 'activate' ? 'primary' : 'default'} danger={a === 'cancel'} onClick={() => actions.transition(c, a)} data-testid={`campaign-${a}`}>
                {t(`campaigns:actions.${a}`)}
              </Button>
            ))}
          {canDelete && allowed.delete && (
            <Button danger onClick={() => actions.remove(c)} data-testid="campaign-delete">
              {t('buttons.delete')}
            </Button>
          )}
        </Space>
      </Space>
      {activationError && <Alert type="error" showIcon closable onClose={() => setActivationError(null)} message={activationError} data-testid="campaign-error" className="bulk-bar" />}
      <Card data-testid="campaign-info">
        <Descriptions column={2} size="small">
          <Descriptions.Item label={t('campaigns:fields.organization')}>{c.organization?.name ?? 'N/A'}</Descriptions.Item>
          <Descriptions.Item label={t('campaigns:fields.timeframe')}>
            {formatDateTime(c.startDate)} – {formatDateTime(c.endDate)}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaigns:fields.createdBy')}>
            {c.createdByUser ? `${fullName(c.createdByUser)} (${c.createdByUser.code}, ${c.createdByUser.email})` : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaigns:fields.feeLevelCount')}>{c.feeLevelCount}</Descriptions.Item>
          <Descriptions.Item label={t('campaigns:fields.description')} span={2}>
            {c.description ?? '—'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k })}
        items={[
          { key: 'statistics', label: t('campaigns:tabs.statistics'), children: <StatisticsTab campaignId={c.id} /> },
          ...(canReports ? [{ key: 'payment-history', label: t('campaigns:tabs.history'), children: <PaymentHistoryTab campaignId={c.id} /> }] : []),
          { key: 'fee-levels', label: t('campaigns:tabs.feeLevels'), children: <FeeLevelsTab campaignId={c.id} editable={writable} onChanged={refetch} /> },
          { key: 'member-assignments', label: t('campaigns:tabs.assignments'), children: <AssignmentsTab campaignId={c.id} editable={writable && canManage} onChanged={refetch} /> },
          { key: 'payos-config', label: t('campaigns:tabs.payos'), children: <PayosConfigTab campaignId={c.id} editable={writable} onChanged={refetch} /> },
        ]}
      />
      <CampaignFormModal action="edit" modalProps={edit.modalProps} formProps={edit.formProps} />
    </section>
  );
}
