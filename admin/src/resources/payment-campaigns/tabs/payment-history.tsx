import { formatDateTime, formatVnd, fullName, ORDER_STATUSES } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { apiRequest } from '../../../providers/http';

/** A row of GET /payment-admin/payment-history/{campaignId} (001 §7 field names). */
interface HistoryItem {
  id: number;
  order_code: number;
  amount: number;
  status: string;
  payment_method: 'ONLINE' | 'MANUAL';
  manual_method: 'cash' | 'transfer' | null;
  paid_at: string | null;
  created_at: string;
  assignment: { user: { familyName: string; givenName: string; code: string } };
}

const PAGE_SIZE = 10;
const STATUS_COLORS: Record<string, string> = { PAID: 'success', PENDING: 'processing', CANCELLED: 'default', EXPIRED: 'warning' };

/** Payment history tab (001 §2): the campaign's orders, paid ones by default, with search and status. */
export function PaymentHistoryTab({ campaignId }: { campaignId: number }) {
  const t = useTranslate();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('PAID');
  const [page, setPage] = useState(1);
  const query = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE), status });
  if (search) query.set('search', search);
  const history = useQuery({
    queryKey: ['payment-campaigns', campaignId, 'history', query.toString()],
    queryFn: () => apiRequest<{ data: { items: HistoryItem[]; total: number } }>(`/payment-admin/payment-history/${campaignId}?${query.toString()}`),
  });
  return (
    <Space direction="vertical" className="full-width" data-testid="payment-history">
      <Space wrap className="filter-bar">
        <Input.Search allowClear placeholder={t('campaigns:history.search')} enterButton={t('buttons.filter')} onSearch={(v) => (setSearch(v.trim()), setPage(1))} />
        <Select
          value={status}
          onChange={(v) => (setStatus(v), setPage(1))}
          options={[{ value: 'ALL', label: t('campaigns:filters.allStatuses') }, ...ORDER_STATUSES.map((s) => ({ value: s, label: t(`campaigns:history.status.${s}`) }))]}
          className="status-filter"
        />
      </Space>
      <Table<HistoryItem>
        rowKey="id"
        size="small"
        loading={history.isLoading}
        dataSource={history.data?.data.items ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: history.data?.data.total ?? 0, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false }}
      >
        <Table.Column<HistoryItem> dataIndex="order_code" title={t('campaigns:history.orderCode')} />
        <Table.Column<HistoryItem> key="member" title={t('campaigns:assignments.member')} render={(_, r) => `${fullName(r.assignment.user)} (${r.assignment.user.code})`} />
        <Table.Column<HistoryItem> dataIndex="amount" title={t('campaigns:assignments.amount')} align="right" render={(v: number) => formatVnd(v)} />
        <Table.Column<HistoryItem> dataIndex="status" title={t('campaigns:fields.status')} render={(s: string) => <Tag color={STATUS_COLORS[s]}>{t(`campaigns:history.status.${s}`)}</Tag>} />
        <Table.Column<HistoryItem>
          key="method"
          title={t('campaigns:history.method')}
          render={(_, r) => t(r.payment_method === 'ONLINE' ? 'campaigns:history.online' : `campaigns:history.${r.manual_method ?? 'cash'}`)}
        />
        <Table.Column<HistoryItem> key="time" title={t('campaigns:history.time')} render={(_, r) => formatDateTime(r.paid_at ?? r.created_at)} />
      </Table>
    </Space>
  );
}
