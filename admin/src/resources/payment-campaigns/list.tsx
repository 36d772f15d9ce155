import { PlusOutlined } from '@ant-design/icons';
import { CAMPAIGN_STATUSES, formatDateTime, fullName, SUPER_ADMIN_PERMISSION, type Campaign } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useModalForm } from '../../components/form-errors';
import { useCan, useGo, useTranslate } from '@refinedev/core';
import { Alert, Button, DatePicker, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { ListSearch, tableSearch } from '../../components/list-search';
import { LoadError } from '../../components/catalogue/row-actions';
import { useCurrentOrganization } from '../../context/current-organization';
import { CampaignFormModal, useCampaignEditForm } from './form';
import './payments.css';
import { useRights } from '../../components/permission-guard/use-allowed';
import { CAMPAIGN_RIGHTS, useCampaignRights } from './rights';
import { ACTIONS_BY_STATUS, CampaignStatusTag, useCampaignActions, type Transition } from './status';

type Actions = ReturnType<typeof useCampaignActions>;

const SUMMARY_CODES = [SUPER_ADMIN_PERMISSION, 'payment-campaigns.access', ...CAMPAIGN_RIGHTS.map((r) => `payment-campaigns.${r}`)];

/** 001 §2: the actions the caller may perform here; hidden for super admins and for callers without campaign access. */
function RightsSummary() {
  const t = useTranslate();
  const { has, ready } = useRights(SUMMARY_CODES);
  // A super admin (system.access_admin, global grants only) holds everything: nothing to sum up.
  if (!ready || has(SUPER_ADMIN_PERMISSION) || !has('payment-campaigns.access')) return null;
  const held = CAMPAIGN_RIGHTS.filter((r) => has(`payment-campaigns.${r}`));
  return (
    <Alert
      type="info"
      showIcon
      className="rights-box"
      data-testid="campaign-rights"
      message={t('campaigns:rights.title')}
      description={
        held.length === 0 ? (
          t('campaigns:rights.viewOnly')
        ) : (
          <Space size={[4, 4]} wrap>
            {held.map((r) => (
              <Tag key={r} data-right={r}>
                {t(`campaigns:rights.${r}`)}
              </Tag>
            ))}
          </Space>
        )
      }
    />
  );
}

/** A row's actions, each checked in the campaign's own organization (001 §2). */
function RowActions({ campaign: c, actions, onEdit }: { campaign: Campaign; actions: Actions; onEdit: (id: number) => void }) {
  const t = useTranslate();
  const rights = useCampaignRights(c.organizationId);
  const allowed = ACTIONS_BY_STATUS[c.status];
  return (
    <Space size={4} wrap>
      <Link to={`/admin/payment-campaigns/${c.id}`}>{t('buttons.show')}</Link>
      {rights.update && allowed.edit && (
        <Button size="small" type="link" onClick={() => onEdit(c.id)} data-testid="campaign-edit">
          {t('buttons.edit')}
        </Button>
      )}
      {rights.update &&
        allowed.transitions
          .filter((a): a is Exclude<Transition, 'activate'> => a !== 'activate')
          .map((a) => (
            <Button
              key={a}
              size="small"
              type="link"
              danger={a === 'cancel'}
              onClick={() => actions.transition(c, a)}
              data-testid={`campaign-${a}`}
            >
              {t(`campaigns:actions.${a}`)}
            </Button>
          ))}
      {/* A finished campaign holding payments is kept (issue 25 item 6): "Xóa" is not offered. */}
      {rights.delete && allowed.delete && c.canDelete && (
        <Button size="small" type="link" danger onClick={() => actions.remove(c)} data-testid="campaign-delete">
          {t('buttons.delete')}
        </Button>
      )}
    </Space>
  );
}

/** /admin/payment-campaigns (001 §2): filters, the campaigns table and the actions each status allows. */
export function CampaignList() {
  const t = useTranslate();
  const go = useGo();
  const table = useTable<Campaign>({ resource: 'payment-campaigns', syncWithLocation: true });
  const { tableProps, filters, setFilters, tableQuery } = table;
  const canCreate = useCan({ resource: 'payment-campaigns', action: 'create' }).data?.can ?? false;
  const { organizations, organizationsLoading } = useCurrentOrganization();
  const create = useModalForm<Campaign>({
    resource: 'payment-campaigns',
    action: 'create',
    redirect: false,
    // 001 §2: after saving, the new campaign's page.
    onMutationSuccess: (res) => go({ to: `/admin/payment-campaigns/${res.data.id}` }),
  });
  const edit = useCampaignEditForm();
  const actions = useCampaignActions(() => undefined);

  const value = (field: string) => getDefaultFilter(field, filters, field === 'q' ? 'contains' : 'eq') as string | number | undefined;
  const setFilter = (field: string, v: unknown) =>
    setFilters(
      [{ field, operator: field === 'q' ? 'contains' : 'eq', value: v === '' || v === 'all' || v == null ? undefined : v }],
      'merge',
    );

  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="campaigns-error" />;

  return (
    <section data-testid="campaigns-page">
      <PageHeader
        title={t('campaigns:title')}
        subtitle={t('campaigns:subtitle')}
        extra={
          canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => create.show()} data-testid="campaign-add">
              {t('campaigns:actions.create')}
            </Button>
          )
        }
      />

      <RightsSummary />
      <Space wrap className="filter-bar">
        <ListSearch {...tableSearch(table)} placeholder={t('campaigns:filters.search')} data-testid="campaign-search" />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          value={value('organizationId') === undefined ? undefined : Number(value('organizationId'))}
          onChange={(v) => setFilter('organizationId', v)}
          options={organizations.map((o) => ({ value: o.id, label: o.name }))}
          loading={organizationsLoading}
          notFoundContent={organizationsLoading ? <Spin size="small" /> : undefined}
          placeholder={t('campaigns:filters.organization')}
          className="department-filter"
        />
        <Select
          value={(value('status') as string | undefined) ?? 'all'}
          onChange={(v) => setFilter('status', v)}
          options={[
            { value: 'all', label: t('campaigns:filters.allStatuses') },
            ...CAMPAIGN_STATUSES.map((s) => ({ value: s, label: t(`campaigns:status.${s}`) })),
          ]}
          className="status-filter"
          data-testid="campaign-status-filter"
        />
        <DatePicker
          format="DD/MM/YYYY"
          placeholder={t('campaigns:filters.from')}
          value={value('startDate') ? dayjs(String(value('startDate'))) : null}
          onChange={(d) => setFilter('startDate', d?.format('YYYY-MM-DD'))}
        />
        <DatePicker
          format="DD/MM/YYYY"
          placeholder={t('campaigns:filters.to')}
          value={value('endDate') ? dayjs(String(value('endDate'))) : null}
          onChange={(d) => setFilter('endDate', d?.format('YYYY-MM-DD'))}
        />
      </Space>

      <Table<Campaign>
        {...tableProps}
        rowKey="id"
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        data-testid="campaigns-table"
      >
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
        <Table.Column<Campaign>
          key="organization"
          title={t('campaigns:fields.organization')}
          render={(_, c) => c.organization?.name ?? 'N/A'}
        />
        <Table.Column<Campaign>
          key="time"
          title={t('campaigns:fields.timeframe')}
          render={(_, c) => `${formatDateTime(c.startDate)} – ${formatDateTime(c.endDate)}`}
        />
        <Table.Column<Campaign>
          dataIndex="status"
          title={t('campaigns:fields.status')}
          render={(s: Campaign['status']) => <CampaignStatusTag status={s} />}
        />
        <Table.Column<Campaign>
          key="createdBy"
          title={t('campaigns:fields.createdBy')}
          render={(_, c) => (c.createdByUser ? fullName(c.createdByUser) : '—')}
        />
        <Table.Column<Campaign>
          key="actions"
          title={t('table.actions')}
          render={(_, c) => <RowActions campaign={c} actions={actions} onEdit={edit.show} />}
        />
      </Table>

      <CampaignFormModal action="create" modalProps={create.modalProps} formProps={create.formProps} />
      <CampaignFormModal action="edit" modalProps={edit.modalProps} formProps={edit.formProps} loading={edit.loading} />
    </section>
  );
}
