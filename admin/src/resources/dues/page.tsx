import { useCustom, useTranslate } from '@refinedev/core';
import { Alert, Card, Empty, Select, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { OrganizationPicker } from '../../components/organization-picker';
import { useAllowed } from '../../components/permission-guard/use-allowed';
import { useCurrentOrganization } from '../../context/current-organization';
import { apiUrl } from '../payment-campaigns/use-refresh';
import { GenerateWizard } from './generate-wizard';
import { RatesCard } from './rates';
import { RemittancePanel } from './remittance-panel';
import { DUES_CODES, useDuesRights } from './rights';
import { SharesCard } from './shares';

interface CoveringCampaign {
  id: number;
  name: string;
  status: string;
  organizationName: string;
}

/** A unit's remittance for the campaigns of its own and upper levels (the campaign screen is the upper level's). */
function UnitRemittance({ organizationId }: { organizationId: number }) {
  const t = useTranslate();
  const [params, setParams] = useSearchParams();
  const { query, result } = useCustom<{ campaigns: CoveringCampaign[] }>({
    url: apiUrl('/remittances/campaigns'),
    method: 'get',
    config: { query: { organizationId } },
    errorNotification: false,
  });
  const campaigns = query.isSuccess ? (result.data as { campaigns: CoveringCampaign[] }).campaigns : [];
  const chosen = Number(params.get('campaign')) || campaigns[0]?.id;
  return (
    <Space direction="vertical" className="full-width">
      <Select
        className="full-width"
        placeholder={t('dues:remittance.chooseCampaign')}
        value={chosen}
        loading={query.isLoading}
        onChange={(v) => setParams((p) => (p.set('campaign', String(v)), p))}
        options={campaigns.map((c) => ({ value: c.id, label: `${c.name} — ${c.organizationName}` }))}
        data-testid="dues-remittance-campaign"
      />
      {chosen ? (
        <RemittancePanel key={`${chosen}:${organizationId}`} campaignId={chosen} organizationId={organizationId} />
      ) : (
        <Empty description={t('dues:remittance.noCampaigns')} />
      )}
    </Space>
  );
}

/** /dues: đoàn phí by rule (rates, generating a campaign) and trích nộp up the tree for the chosen unit (issue 30 items 4–5). */
export function DuesPage() {
  const t = useTranslate();
  const { organizationId: current, organizations } = useCurrentOrganization();
  const canEditShares = useAllowed(DUES_CODES.settings);
  const [picked, setPicked] = useState<number | undefined>();
  const [params, setParams] = useSearchParams();
  const organizationId = picked ?? current ?? undefined;
  const rights = useDuesRights(organizationId);
  const tab = params.get('tab') ?? 'rates';
  return (
    <section data-testid="dues-page">
      <Typography.Title level={3}>{t('dues:title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('dues:intro')}</Typography.Paragraph>
      <Card size="small" className="bulk-bar">
        <Space wrap>
          <Typography.Text>{t('dues:unit')}</Typography.Text>
          <OrganizationPicker
            className="org-picker-wide"
            value={organizationId}
            onChange={(v) => setPicked(v as number)}
            known={organizations.map((o) => ({ id: o.id, name: o.name, code: o.code ?? '' }))}
            placeholder={t('dues:chooseUnit')}
            data-testid="dues-unit"
          />
        </Space>
      </Card>
      {!organizationId ? (
        <Alert type="info" showIcon message={t('dues:chooseUnit')} />
      ) : (
        <Tabs
          activeKey={tab}
          destroyOnHidden
          onChange={(k) => setParams({ tab: k })}
          items={[
            { key: 'rates', label: t('dues:tabs.rates'), children: <RatesCard organizationId={organizationId} editable={rights.rates} /> },
            ...(rights.generate
              ? [
                  {
                    key: 'generate',
                    label: t('dues:tabs.generate'),
                    children: <GenerateWizard key={organizationId} organizationId={organizationId} />,
                  },
                ]
              : []),
            ...(rights.view
              ? [
                  {
                    key: 'remittance',
                    label: t('dues:tabs.remittance'),
                    children: <UnitRemittance key={organizationId} organizationId={organizationId} />,
                  },
                ]
              : []),
            { key: 'shares', label: t('dues:tabs.shares'), children: <SharesCard editable={canEditShares} /> },
          ]}
        />
      )}
    </section>
  );
}
