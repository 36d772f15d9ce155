import { formatDateTime, fullName, type Campaign } from '@doanhoi/shared';
import { useGo, useShow, useTranslate } from '@refinedev/core';
import { Alert, Button, Card, Descriptions, Result, Space, Spin, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CampaignFormModal, useCampaignEditForm } from './form';
import './payments.css';
import { RemindersTab } from './reminders/tab';
import { RemittanceTab } from './remittance/tab';
import { useCampaignRights } from './rights';
import { WithReason } from '../../components/blocked';
import { ACTIONS_BY_STATUS, CampaignStatusTag, useBlockReasons, useCampaignActions } from './status';
import { AssignmentsTab } from './tabs/assignments';
import { FeeLevelsTab } from './tabs/fee-levels';
import { PaymentHistoryTab } from './tabs/payment-history';
import { PayosConfigTab } from './tabs/payos-config';
import { StatisticsTab } from './tabs/statistics';

const TABS = ['statistics', 'payment-history', 'fee-levels', 'member-assignments', 'reminders', 'payos-config', 'remittance'] as const;

/** /admin/payment-campaigns/{id} (001 §2): header with the status actions, info card, tabs by ?tab=. Rights are those held in the campaign's organization. */
export function CampaignShowPage() {
  const t = useTranslate();
  const go = useGo();
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const [activationError, setActivationError] = useState<string | null>(null);
  const { query } = useShow<Campaign>({ resource: 'payment-campaigns', id, queryOptions: { retry: false }, errorNotification: false });
  const c = query.data?.data;
  const rights = useCampaignRights(c ? c.organizationId : undefined);
  const edit = useCampaignEditForm();
  const blocked = useBlockReasons();
  const actions = useCampaignActions(
    (changed) => {
      setActivationError(null);
      if (!changed) go({ to: '/admin/payment-campaigns' });
    },
    (message) => setActivationError(message),
  );

  if (query.isLoading) return <Spin />;
  if (!c) {
    return (
      <div data-testid="campaign-not-found">
        <Result
          status="404"
          title={t('campaigns:notFound')}
          extra={<Link to="/admin/payment-campaigns">{t('campaigns:backToList')}</Link>}
        />
      </div>
    );
  }
  const allowed = ACTIONS_BY_STATUS[c.status];
  // 001 §4: a finished campaign's levels, assignments and payOS config are read-only.
  const open = c.status !== 'COMPLETED' && c.status !== 'CANCELLED';
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
          {rights.update && allowed.edit && (
            <Button onClick={() => edit.show(c.id)} data-testid="campaign-edit">
              {t('buttons.edit')}
            </Button>
          )}
          {rights.update &&
            allowed.transitions.map((a) => {
              // What the server would refuse is shown disabled with its reason (issue 25 item 6).
              const reason = a === 'activate' ? blocked.activate(c) : null;
              return (
                <WithReason key={a} reason={reason} visible testId="campaign-activate-blocked">
                  <Button
                    type={a === 'activate' ? 'primary' : 'default'}
                    danger={a === 'cancel'}
                    disabled={reason !== null}
                    onClick={() => actions.transition(c, a)}
                    data-testid={`campaign-${a}`}
                  >
                    {t(`campaigns:actions.${a}`)}
                  </Button>
                </WithReason>
              );
            })}
          {rights.delete && allowed.delete && (
            <WithReason reason={blocked.remove(c)} visible testId="campaign-delete-blocked">
              <Button danger disabled={!c.canDelete} onClick={() => actions.remove(c)} data-testid="campaign-delete">
                {t('buttons.delete')}
              </Button>
            </WithReason>
          )}
        </Space>
      </Space>
      {activationError && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setActivationError(null)}
          message={activationError}
          data-testid="campaign-error"
          className="bulk-bar"
        />
      )}
      <Card data-testid="campaign-info">
        <Descriptions column={{ xs: 1, sm: 2 }} size="small" className="phone-stack">
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
        // Each tab keeps its filters in the URL; only the visible one is mounted so they never mix.
        destroyOnHidden
        onChange={(k) => setParams({ tab: k })}
        items={[
          {
            key: 'statistics',
            label: t('campaigns:tabs.statistics'),
            children: <StatisticsTab campaignId={c.id} canSeeHistory={rights.view_reports} status={c.status} />,
          },
          ...(rights.view_reports
            ? [
                {
                  key: 'payment-history',
                  label: t('campaigns:tabs.history'),
                  children: (
                    <PaymentHistoryTab
                      campaignId={c.id}
                      canResolve={rights.manage_assignments}
                      canReverse={open && rights.reverse_payment}
                    />
                  ),
                },
              ]
            : []),
          {
            key: 'fee-levels',
            label: t('campaigns:tabs.feeLevels'),
            children: <FeeLevelsTab campaignId={c.id} editable={open && rights.update} />,
          },
          {
            key: 'member-assignments',
            label: t('campaigns:tabs.assignments'),
            children: (
              <AssignmentsTab
                campaign={c}
                editable={open && rights.manage_assignments}
                canExport={rights.export}
                canAdjust={open && rights.exempt}
                canReverse={open && rights.reverse_payment}
                canRemind={rights.send_reminders && c.status === 'ACTIVE'}
              />
            ),
          },
          ...(rights.read || rights.send_reminders
            ? [
                {
                  key: 'reminders',
                  label: t('reminders:tab'),
                  children: <RemindersTab campaignId={c.id} canSend={rights.send_reminders} open={open} />,
                },
              ]
            : []),
          {
            key: 'payos-config',
            label: t('campaigns:tabs.payos'),
            children: <PayosConfigTab campaignId={c.id} editable={open && rights.update} canReveal={rights.update} />,
          },
          // Shown only where the API answers it: view_remittance in the campaign's organization (its default level).
          ...(rights.view_remittance
            ? [{ key: 'remittance', label: t('dues:remittance.tab'), children: <RemittanceTab campaign={c} /> }]
            : []),
        ]}
      />
      <CampaignFormModal action="edit" modalProps={edit.modalProps} formProps={edit.formProps} loading={edit.loading} />
    </section>
  );
}
