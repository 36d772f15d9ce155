import { EMAIL_STATUSES, formatDateTime, type EmailStatus, type OutboxItem } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Button, Empty, Select, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { LoadError } from '../../components/catalogue/row-actions';
import { PageHeader } from '../../components/page-header';
import { useCurrentOrganization } from '../../context/current-organization';
import '../payment-campaigns/reminders/reminders.css';
import { apiUrl } from '../payment-campaigns/use-refresh';

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
  // E-mails kept while SMTP was unset, or refused by the server, are sent again from here (issue 26 item 9).
  const { mutate, mutation } = useCustomMutation<{ data: { sent: number; failed: number } }>();
  const resend = (ids: number[]) =>
    mutate(
      {
        url: apiUrl(ids.length === 1 ? `/reminders/outbox/${ids[0]}/resend` : '/reminders/outbox/resend'),
        method: 'post',
        values: ids.length === 1 ? {} : { ids },
        successNotification: (res) => {
          const d = (res?.data as { data?: { sent: number; failed: number } } | undefined)?.data ?? { sent: 0, failed: 0 };
          return {
            type: d.failed ? 'error' : 'success',
            message: t(d.failed ? 'reminders:outbox.resentFailed' : 'reminders:outbox.resent', d),
          };
        },
      },
      { onSettled: () => void tableQuery.refetch() },
    );
  const resendable = (tableProps.dataSource ?? []).filter((e) => e.canResend).map((e) => e.id);
  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="outbox-error" />;

  return (
    <section data-testid="outbox-page">
      <PageHeader title={t('reminders:screen.title')} subtitle={t('reminders:screen.subtitle')} />
      <Space wrap className="filter-bar">
        <Select
          value={status ?? 'ALL'}
          onChange={(v) => setFilters([{ field: 'status', operator: 'eq', value: v === 'ALL' ? undefined : v }], 'merge')}
          options={[
            { value: 'ALL', label: t('reminders:screen.allStatuses') },
            ...EMAIL_STATUSES.map((s) => ({ value: s, label: t(`reminders:outbox.statuses.${s}`) })),
          ]}
          className="status-filter"
          aria-label={t('reminders:outbox.status')}
          data-testid="outbox-status"
        />
        {resendable.length > 1 && (
          <Button onClick={() => resend(resendable)} loading={mutation.isPending} data-testid="outbox-resend-all">
            {t('reminders:outbox.resendAll', { count: resendable.length })}
          </Button>
        )}
      </Space>
      <Table<OutboxItem>
        {...tableProps}
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        pagination={
          tableProps.pagination && {
            ...tableProps.pagination,
            showSizeChanger: false,
            showTotal: (n) => t('reminders:screen.total', { count: n }),
          }
        }
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
        <Table.Column<OutboxItem>
          dataIndex="sentAt"
          title={t('reminders:screen.sentAt')}
          render={(v: string | null) => (v ? formatDateTime(v) : '—')}
        />
        <Table.Column<OutboxItem>
          key="actions"
          title={t('reminders:outbox.actions')}
          render={(_, e) =>
            e.canResend ? (
              <Button size="small" onClick={() => resend([e.id])} disabled={mutation.isPending}>
                {t(e.status === 'FAILED' ? 'reminders:outbox.retry' : 'reminders:outbox.resend')}
              </Button>
            ) : e.resendBlockedReason ? (
              <Typography.Text type="secondary" className="outbox-error">
                {t(`reminders:outbox.blocked.${e.resendBlockedReason}`)}
              </Typography.Text>
            ) : null
          }
        />
      </Table>
    </section>
  );
}
