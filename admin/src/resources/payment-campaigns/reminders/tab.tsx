import { formatDateTime, formatVnd, fullName, type OutboxItem, type ReminderItem } from '@doanhoi/shared';
import { useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Card, Space, Table, Tag, Typography } from 'antd';
import './reminders.css';
import { ScheduleCard } from './schedule';

const EMAIL_COLORS = { OUTBOX: 'gold', QUEUED: 'processing', SENT: 'success', FAILED: 'error' } as const;

interface Props {
  campaignId: number;
  /** send_reminders in the campaign's organization: the schedule can be changed and the outbox read. */
  canSend: boolean;
  /** The campaign is not finished. */
  open: boolean;
}

/** The campaign's reminders tab: schedule, who was reminded when and by whom, and the e-mail outbox. */
export function RemindersTab({ campaignId, canSend, open }: Props) {
  return (
    <Space direction="vertical" className="full-width" data-testid="reminders-tab">
      <ScheduleCard campaignId={campaignId} editable={canSend && open} />
      <History campaignId={campaignId} />
      {canSend && <Outbox campaignId={campaignId} />}
    </Space>
  );
}

function History({ campaignId }: { campaignId: number }) {
  const t = useTranslate();
  const { tableProps } = useTable<ReminderItem>({
    resource: `payment-campaigns/${campaignId}/reminders`,
    syncWithLocation: false,
    meta: { listKey: 'data.reminders' },
    pagination: { pageSize: 10 },
    sorters: { mode: 'off' },
  });
  return (
    <Card size="small" title={t('reminders:history.title')}>
      <Table<ReminderItem>
        {...tableProps}
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('reminders:history.empty') }}
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        data-testid="reminder-history"
      >
        <Table.Column<ReminderItem> dataIndex="createdAt" title={t('reminders:history.sentAt')} render={(v: string) => formatDateTime(v)} />
        <Table.Column<ReminderItem>
          key="member"
          title={t('reminders:history.member')}
          render={(_, r) => `${fullName(r.user)} (${r.user.code})`}
        />
        <Table.Column<ReminderItem>
          dataIndex="amount"
          title={t('reminders:history.amount')}
          align="right"
          render={(v: number) => formatVnd(v)}
        />
        <Table.Column<ReminderItem>
          dataIndex="dueDate"
          title={t('reminders:history.dueDate')}
          render={(v: string | null) => (v ? formatDateTime(v) : '—')}
        />
        <Table.Column<ReminderItem>
          dataIndex="kind"
          title={t('reminders:history.kind')}
          render={(k: ReminderItem['kind']) => <Tag>{t(`reminders:history.kinds.${k}`)}</Tag>}
        />
        <Table.Column<ReminderItem>
          key="sentBy"
          title={t('reminders:history.sentBy')}
          render={(_, r) =>
            r.sentBy ? fullName(r.sentBy) : <Typography.Text type="secondary">{t('reminders:history.auto')}</Typography.Text>
          }
        />
        <Table.Column<ReminderItem>
          dataIndex="emailStatus"
          title={t('reminders:history.email')}
          render={(s: ReminderItem['emailStatus']) => (s ? <Tag color={EMAIL_COLORS[s]}>{t(`reminders:outbox.statuses.${s}`)}</Tag> : '—')}
        />
      </Table>
    </Card>
  );
}

function Outbox({ campaignId }: { campaignId: number }) {
  const t = useTranslate();
  const { tableProps } = useTable<OutboxItem>({
    resource: 'reminders/outbox',
    syncWithLocation: false,
    meta: { listKey: 'data.emails' },
    pagination: { pageSize: 10 },
    sorters: { mode: 'off' },
    filters: { permanent: [{ field: 'campaignId', operator: 'eq', value: campaignId }] },
  });
  return (
    <Card
      size="small"
      title={t('reminders:outbox.title')}
      extra={<Typography.Text type="secondary">{t('reminders:outbox.hint')}</Typography.Text>}
    >
      <Table<OutboxItem>
        {...tableProps}
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('reminders:outbox.empty') }}
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        // The whole message on demand: what the member would read, to forward by hand without SMTP.
        expandable={{ expandedRowRender: (e) => <pre className="outbox-text">{e.text}</pre> }}
        data-testid="reminder-outbox"
      >
        <Table.Column<OutboxItem> dataIndex="createdAt" title={t('reminders:outbox.createdAt')} render={(v: string) => formatDateTime(v)} />
        <Table.Column<OutboxItem> dataIndex="to" title={t('reminders:outbox.to')} />
        <Table.Column<OutboxItem> dataIndex="subject" title={t('reminders:outbox.subject')} />
        <Table.Column<OutboxItem>
          dataIndex="status"
          title={t('reminders:outbox.status')}
          render={(s: OutboxItem['status'], e) => (
            <Tag color={EMAIL_COLORS[s]} title={e.error ?? undefined}>
              {t(`reminders:outbox.statuses.${s}`)}
            </Tag>
          )}
        />
      </Table>
    </Card>
  );
}
