import { EMAIL_STATUSES, formatDateTime, type EmailStatus, type OutboxItem } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Empty, Select, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { LoadError } from '../../components/catalogue/row-actions';
import { PageHeader } from '../../components/page-header';
import { useCurrentOrganization } from '../../context/current-organization';
import '../payment-campaigns/reminders/reminders.css';

const EMAIL_COLORS = { OUTBOX: 'gold', QUEUED: 'processing', SENT: 'success', FAILED: 'error' } as const;

/**
 * /email-outbox (issue 15.2): every reminder e-mail within the caller's reach, newest first —
 * waiting in the outbox (no SMTP), being sent, sent or failed with the server's answer. The API
 * scopes the rows (send_reminders in the campaign's organization, or a global system.view_logs);
 * the header's organization narrows them to its subtree.
 */
export function EmailOutboxList() {
  const t = useTranslate();
  const { organizationId } = useCurrentOrganization();
  const { tableProps, filters, setFilters, tableQuery } = useTable<OutboxItem>({
    resource: 'reminders/outbox',
    syncWithLocation: true,
    meta: { listKey: 'data.emails' },
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { permanent: organizationId ? [{ field: 'organizationId', operator: 'eq', value: organizationId }] : [] },
  });
  const status = getDefaultFilter('status', filters, 'eq') as EmailStatus | undefined;
  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="outbox-error" />;

  return (
    <section data-testid="outbox-page">
      <PageHeader title={t('reminders:screen.title')} subtitle={t('reminders:screen.subtitle')} />
      <Space wrap className="filter-bar">
        <Select
          value={status ?? 'ALL'}
          onChange={(v) => setFilters([{ field: 'status', operator: 'eq', value: v === 'ALL' ? undefined : v }], 'merge')}
          options={[{ value: 'ALL', label: t('reminders:screen.allStatuses') }, ...EMAIL_STATUSES.map((s) => ({ value: s, label: t(`reminders:outbox.statuses.${s}`) }))]}
          className="status-filter"
          aria-label={t('reminders:outbox.status')}
          data-testid="outbox-status"
        />
      </Space>
      <Table<OutboxItem>
        {...tableProps}
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        pagination={tableProps.pagination && { ...tableProps.pagination, showSizeChanger: false, showTotal: (n) => t('reminders:screen.total', { count: n }) }}
        locale={{ emptyText: <Empty description={t('reminders:outbox.empty')} /> }}
        // The whole message on demand: what the member would read, to forward by hand without SMTP.
        // The subject repeats the campaign and amount, so it opens with the text instead of widening the table.
        expandable={{
          expandedRowRender: (e) => (
            <Space direction="vertical" size={4}>
              <Typography.Text strong>{e.subject}</Typography.Text>
              <pre className="outbox-text">{e.text}</pre>
            </Space>
          ),
        }}
        data-testid="outbox-table"
      >
        <Table.Column<OutboxItem> dataIndex="createdAt" title={t('reminders:outbox.createdAt')} render={(v: string) => formatDateTime(v)} />
        {/* Status second: on a phone it stays in view with the time. */}
        <Table.Column<OutboxItem>
          dataIndex="status"
          title={t('reminders:outbox.status')}
          render={(s: OutboxItem['status'], e) => (
            <Space direction="vertical" size={0}>
              <Tag color={EMAIL_COLORS[s]}>{t(`reminders:outbox.statuses.${s}`)}</Tag>
              {e.error && (
                <Typography.Text type="danger" className="outbox-error" data-testid="outbox-failure">
                  {e.error}
                </Typography.Text>
              )}
            </Space>
          )}
        />
        <Table.Column<OutboxItem> dataIndex="to" title={t('reminders:outbox.to')} />
        <Table.Column<OutboxItem>
          key="campaign"
          title={t('reminders:screen.campaign')}
          className="outbox-campaign"
          render={(_, e) =>
            e.campaign ? (
              <Space direction="vertical" size={0}>
                <Link to={`/admin/payment-campaigns/${e.campaign.id}?tab=reminders`}>{e.campaign.name}</Link>
                {e.organization && <Typography.Text type="secondary">{e.organization.name}</Typography.Text>}
              </Space>
            ) : (
              '—'
            )
          }
        />
        <Table.Column<OutboxItem> dataIndex="sentAt" title={t('reminders:screen.sentAt')} render={(v: string | null) => (v ? formatDateTime(v) : '—')} />
      </Table>
    </section>
  );
}
