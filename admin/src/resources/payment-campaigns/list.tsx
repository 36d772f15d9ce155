import { PlusOutlined } from '@ant-design/icons';
import { CAMPAIGN_STATUSES, formatDateTime, fullName, type Campaign } from '@doanhoi/shared';
import { getDefaultFilter, useModalForm, useTable } from '@refinedev/antd';
import { useCan, useGo, useInvalidate, useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Input, Select, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { LoadError } from '../../components/catalogue/row-actions';
import { apiRequest } from '../../providers/http';
import { CampaignFormModal, toFormValues } from './form';
import { ACTIONS_BY_STATUS, CampaignStatusTag, useCampaignActions } from './status';

/** /admin/payment-campaigns (001 §2): filters, the campaigns table and the actions each status allows. */
export function CampaignList() {
  const t = useTranslate();
  const go = useGo();
  const invalidate = useInvalidate();
  const { tableProps, filters, setFilters, tableQuery } = useTable<Campaign>({ resource: 'payment-campaigns', syncWithLocation: true });
  const can = {
    create: useCan({ resource: 'payment-campaigns', action: 'create' }).data?.can ?? false,
    edit: useCan({ resource: 'payment-campaigns', action: 'edit' }).data?.can ?? false,
    delete: useCan({ resource: 'payment-campaigns', action: 'delete' }).data?.can ?? false,
  };
  const orgs = useQuery({ queryKey: ['organizations', 'accessible'], queryFn: () => apiRequest<{ id: number; name: string }[]>('/organizations/accessible') });
  const create = useModalForm<Campaign>({
    resource: 'payment-campaigns',
    action: 'create',
    redirect: false,
    // 001 §2: after saving, the new campaign's page.
    onMutationSuccess: (res) => go({ to: `/admin/payment-campaigns/${res.data.id}` }),
  });
  const edit = useModalForm<Campaign>({
    resource: 'payment-campaigns',
    action: 'edit',
    redirect: false,
    queryOptions: { select: (res) => ({ ...res, data: toFormValues(res.data) as unknown as Campaign }) },
  });
  const actions = useCampaignActions(() => void invalidate({ resource: 'payment-campaigns', invalidates: ['list'] }));

  const value = (field: string) => getDefaultFilter(field, filters, field === 'q' ? 'contains' : 'eq') as string | number | undefined;
  const setFilter = (field: string, v: unknown) =>
    setFilters([{ field, operator: field === 'q' ? 'contains' : 'eq', value: v === '' || v === 'all' || v == null ? undefined : v }], 'merge');

  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="campaigns-error" />;

  return (
    <section data-testid="campaigns-page">
      <PageHeader
        title={t('campaigns:title')}
        subtitle={t('campaigns:subtitle')}
        extra={can.create && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => create.show()} data-testid="campaign-add">
            {t('campaigns:actions.create')}
          </Button>
        )}
      />

      <Space wrap className="filter-bar">
        <Input.Search allowClear defaultValue={value('q') as string | undefined} placeholder={t('campaigns:filters.search')} enterButton={t('buttons.filter')} onSearch={(v) => setFilter('q', v.trim())} data-testid="campaign-search" />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          value={value('organizationId') === undefined ? undefined : Number(value('organizationId'))}
          onChange={(v) => setFilter('organizationId', v)}
          options={(orgs.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
          loading={orgs.isLoading}
          placeholder={t('campaigns:filters.organization')}
          className="department-filter"
        />
        <Select
          value={(value('status') as string | undefined) ?? 'all'}
          onChange={(v) => setFilter('status', v)}
          options={[{ value: 'all', label: t('campaigns:filters.allStatuses') }, ...CAMPAIGN_STATUSES.map((s) => ({ value: s, label: t(`campaigns:status.${s}`) }))]}
          className="status-filter"
          data-testid="campaign-status-filter"
        />
        <DatePicker format="DD/MM/YYYY" placeholder={t('campaigns:filters.from')} value={value('startDate') ? dayjs(String(value('startDate'))) : null} onChange={(d) => setFilter('startDate', d?.format('YYYY-MM-DD'))} />
        <DatePicker format="DD/MM/YYYY" placeholder={t('campaigns:filters.to')} value={value('endDate') ? dayjs(String(value('endDate'))) : null} onChange={(d) => setFilter('endDate', d?.format('YYYY-MM-DD'))} />
      </Space>

      <Table<Campaign> {...tableProps} rowKey="id" pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }} data-testid="campaigns-table">
        <Table.Column<Campaign>
          key="name"
          title={t('campaigns:fields.name')}
          render={(_, c) => (
            <Space direction="vertical" size={0}>
              <Link to={`/admin/payment-campaigns/${c.id}`}>
                <Typography.Text strong>{c.name}</Typography.Text>
              </Link>
              {c.description && <Typography.Text type="secondary">{c.description}</Typography.Text>}
            </Space>
          )}
        />
        <Table.Column<Campaign> key="organization" title={t('campaigns:fields.organization')} render={(_, c) => c.organization?.name ?? 'N/A'} />
        <Table.Column<Campaign> key="time" title={t('campaigns:fields.timeframe')} render={(_, c) => `${formatDateTime(c.startDate)} – ${formatDateTime(c.endDate)}`} />
        <Table.Column<Campaign> dataIndex="status" title={t('campaigns:fields.status')} render={(s: Campaign['status']) => <CampaignStatusTag status={s} />} />
        <Table.Column<Campaign> key="createdBy" title={t('campaigns:fields.createdBy')} render={(_, c) => (c.createdByUser ? fullName(c.createdByUser) : '—')} />
        <Table.Column<Campaign>
          key="actions"
          title={t('table.actions')}
          render={(_, c) => {
            const allowed = ACTIONS_BY_STATUS[c.status];
            return (
              <Space size={4} wrap>
                <Link to={`/admin/payment-campaigns/${c.id}`}>{t('buttons.show')}</Link>
                {can.edit && allowed.edit && (
                  <Button size="small" type="link" onClick={() => edit.show(c.id)} data-testid="campaign-edit">
                    {t('buttons.edit')}
                  </Button>
                )}
                {can.edit &&
                  allowed.transitions
                    .filter((a) => a !== 'activate')
                    .map((a) => (
                      <Button key={a} size="small" type="link" danger={a === 'cancel'} onClick={() => actions.transition(c, a)} data-testid={`campaign-${a}`}>
                        {t(`campaigns:actions.${a}`)}
                      </Button>
                    ))}
                {can.delete && allowed.delete && (
                  <Button size="small" type="link" danger onClick={() => actions.remove(c)} data-testid="campaign-delete">
                    {t('buttons.delete')}
                  </Button>
                )}
              </Space>
            );
          }}
        />
      </Table>

      <CampaignFormModal action="create" modalProps={create.modalProps} formProps={create.formProps} />
      <CampaignFormModal action="edit" modalProps={edit.modalProps} formProps={edit.formProps} />
    </section>
  );
}
