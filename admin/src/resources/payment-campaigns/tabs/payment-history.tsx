import { formatDateTime, formatVnd, fullName, ORDER_STATUSES } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Input, Select, Space, Table, Tag, Typography } from 'antd';

/** A row of GET /payment-admin/payment-history/{campaignId} (001 §7 field names). */
export interface HistoryItem {
  id: number;
  order_code: number;
  amount: number;
  status: string;
  payment_method: 'ONLINE' | 'MANUAL';
  manual_method: 'cash' | 'transfer' | null;
  note?: string | null;
  paid_at: string | null;
  created_at: string;
  recorded_by?: { familyName: string; givenName: string } | null;
  assignment: { user: { familyName: string; givenName: string; code: string } };
}

const STATUS_COLORS: Record<string, string> = { PAID: 'success', PENDING: 'processing', CANCELLED: 'default', EXPIRED: 'warning' };

/** Payment history tab (001 §2): the campaign's orders, paid ones by default, with search and status kept in the URL. */
export function PaymentHistoryTab({ campaignId }: { campaignId: number }) {
  const t = useTranslate();
  const { tableProps, filters, setFilters } = useTable<HistoryItem>({
    resource: `payment-admin/payment-history/${campaignId}`,
    syncWithLocation: true,
    meta: { listKey: 'data.items' },
    pagination: { pageSize: 10 },
    filters: { initial: [{ field: 'status', operator: 'eq', value: 'PAID' }] },
  });
  const search = getDefaultFilter('q', filters, 'contains') as string | undefined;
  const status = (getDefaultFilter('status', filters, 'eq') as string | undefined) ?? 'PAID';
  return (
    <Space direction="vertical" className="full-width" data-testid="payment-history">
      <Space wrap className="filter-bar">
        <Input.Search
          key={search ?? ''}
          defaultValue={search}
          allowClear
          placeholder={t('campaigns:history.search')}
          enterButton={t('buttons.filter')}
          onSearch={(v) => setFilters([{ field: 'q', operator: 'contains', value: v.trim() || undefined }], 'merge')}
          data-testid="history-search"
        />
        <Select
          value={status}
          onChange={(v) => setFilters([{ field: 'status', operator: 'eq', value: v }], 'merge')}
          options={[{ value: 'ALL', label: t('campaigns:filters.allStatuses') }, ...ORDER_STATUSES.map((s) => ({ value: s, label: t(`campaigns:history.status.${s}`) }))]}
          className="status-filter"
          data-testid="history-status"
        />
      </Space>
      <Table<HistoryItem> {...tableProps} rowKey="id" size="small" pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}>
        <Table.Column<HistoryItem> dataIndex="order_code" title={t('campaigns:history.orderCode')} />
        <Table.Column<HistoryItem> key="member" title={t('campaigns:assignments.member')} render={(_, r) => `${fullName(r.assignment.user)} (${r.assignment.user.code})`} />
        <Table.Column<HistoryItem> dataIndex="amount" title={t('campaigns:assignments.amount')} align="right" render={(v: number) => formatVnd(v)} />
        <Table.Column<HistoryItem> dataIndex="status" title={t('campaigns:fields.status')} render={(s: string) => <Tag color={STATUS_COLORS[s]}>{t(`campaigns:history.status.${s}`)}</Tag>} />
        <Table.Column<HistoryItem>
          key="method"
          title={t('campaigns:history.method')}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <span>{t(r.payment_method === 'ONLINE' ? 'campaigns:history.online' : `campaigns:history.${r.manual_method ?? 'cash'}`)}</span>
              {r.note && <Typography.Text type="secondary">{r.note}</Typography.Text>}
            </Space>
          )}
        />
        <Table.Column<HistoryItem> key="time" title={t('campaigns:history.time')} render={(_, r) => formatDateTime(r.paid_at ?? r.created_at)} />
      </Table>
    </Space>
  );
}
