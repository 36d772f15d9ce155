import { formatDateTime, formatVnd, fullName, ORDER_STATUSES } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useGetIdentity, useTranslate } from '@refinedev/core';
import { Button, Select, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { ListSearch, tableSearch } from '../../../components/list-search';
import { usePaymentsRefresh } from '../use-refresh';
import { ResolveModal } from './resolve-modal';
import { ReverseOrderModal, reversible } from './reverse-order-modal';

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
  /** Money that actually arrived (payments API, issue 11): may differ from amount. */
  received_amount?: number | null;
  /** Sandbox money: never real. */
  is_test?: boolean;
  attention?: 'REFUND_DUE' | 'BALANCE_DUE' | null;
  attention_reason?: 'DUPLICATE' | 'AFTER_CLOSE' | 'OVERPAID' | 'UNDERPAID' | 'AFTER_EXEMPTION' | null;
  attention_amount?: number | null;
  resolution?: 'REFUNDED' | 'ACCEPTED' | 'SETTLED' | null;
  resolved_at?: string | null;
  resolved_by?: { familyName: string; givenName: string } | null;
  resolution_note?: string | null;
  /** A reversed mark-paid, and the reversing entry pointing at it (issue 15.3). */
  reversed_at?: string | null;
  reversal_reason?: string | null;
  reverses_order_id?: number | null;
  assignment: { id: number; user: { familyName: string; givenName: string; code: string } };
}

/** The history filtered to orders whose money still needs the treasurer (Refine's URL filter format). */
export const ATTENTION_HISTORY_QUERY =
  'tab=payment-history&filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=ALL&filters[1][field]=attention&filters[1][operator]=eq&filters[1][value]=OPEN';

/** The attention cell: what is due and why, the resolve button, or how it was resolved. */
function AttentionCell({ r, canResolve, own, onResolve }: { r: HistoryItem; canResolve: boolean; own: boolean; onResolve: () => void }) {
  const t = useTranslate();
  if (!r.attention) return null;
  const amount = formatVnd(r.attention_amount ?? 0);
  if (r.resolution) {
    return (
      <Space direction="vertical" size={0} data-testid="attention-resolved">
        <Tag color="default">{t(`campaigns:attention.resolutions.${r.resolution}`, { amount })}</Tag>
        {r.resolved_by && (
          <Typography.Text type="secondary">
            {fullName(r.resolved_by)}
            {r.resolved_at ? `, ${formatDateTime(r.resolved_at)}` : ''}
          </Typography.Text>
        )}
        {r.resolution_note && <Typography.Text type="secondary">{r.resolution_note}</Typography.Text>}
      </Space>
    );
  }
  return (
    <Space direction="vertical" size={2} data-testid="attention-open" data-attention={r.attention}>
      <Tag color={r.attention === 'REFUND_DUE' ? 'red' : 'orange'}>{t(`campaigns:attention.kinds.${r.attention}`, { amount })}</Tag>
      {r.attention_reason && <Typography.Text type="secondary">{t(`campaigns:attention.reasons.${r.attention_reason}`)}</Typography.Text>}
      {/* Four eyes (issue 25 item 10): the server refuses resolving a flag on one's own fee. */}
      {canResolve && (
        <Tooltip title={own ? t('campaigns:assignments.ownFeeBlocked') : undefined}>
          <Button size="small" disabled={own} onClick={onResolve} data-testid="attention-resolve">
            {t('campaigns:attention.resolve')}
          </Button>
        </Tooltip>
      )}
    </Space>
  );
}

const STATUS_COLORS: Record<string, string> = { PAID: 'success', PENDING: 'processing', CANCELLED: 'default', EXPIRED: 'warning' };

/**
 * Payment history tab (001 §2): the campaign's orders, paid ones by default, with search, status,
 * "needs attention" and "hide test payments" kept in the URL. Money that did not fit its fee is
 * flagged on its row with the resolve action (allowed on finished campaigns too: a payment after
 * cancel is refunded after the cancel). A mistaken cash/transfer record can be reversed here too
 * (payment-campaigns.reverse_payment, open campaigns only, as on the assignments tab).
 */
export function PaymentHistoryTab({
  campaignId,
  canResolve,
  canReverse = false,
}: {
  campaignId: number;
  canResolve: boolean;
  canReverse?: boolean;
}) {
  const t = useTranslate();
  const refresh = usePaymentsRefresh();
  const [resolving, setResolving] = useState<HistoryItem | null>(null);
  const [reversing, setReversing] = useState<HistoryItem | null>(null);
  // Codes are unique: the row's member is the signed-in officer.
  const myCode = useGetIdentity<{ code: string }>().data?.code;
  const table = useTable<HistoryItem>({
    resource: `payment-admin/payment-history/${campaignId}`,
    syncWithLocation: true,
    meta: { listKey: 'data.items' },
    pagination: { pageSize: 10 },
    filters: { initial: [{ field: 'status', operator: 'eq', value: 'PAID' }] },
  });
  const { tableProps, filters, setFilters } = table;
  const status = (getDefaultFilter('status', filters, 'eq') as string | undefined) ?? 'PAID';
  const attention = getDefaultFilter('attention', filters, 'eq') as string | undefined;
  const hideTest = getDefaultFilter('includeTest', filters, 'eq') === 'false';
  return (
    <Space direction="vertical" className="full-width" data-testid="payment-history">
      <Space wrap className="filter-bar">
        <ListSearch {...tableSearch(table)} placeholder={t('campaigns:history.search')} data-testid="history-search" />
        <Select
          value={status}
          onChange={(v) => setFilters([{ field: 'status', operator: 'eq', value: v }], 'merge')}
          options={[
            { value: 'ALL', label: t('campaigns:filters.allStatuses') },
            ...ORDER_STATUSES.map((s) => ({ value: s, label: t(`campaigns:history.status.${s}`) })),
          ]}
          className="status-filter"
          data-testid="history-status"
        />
        <Select
          value={attention ?? 'any'}
          onChange={(v) => setFilters([{ field: 'attention', operator: 'eq', value: v === 'any' ? undefined : v }], 'merge')}
          options={(['any', 'OPEN', 'RESOLVED'] as const).map((v) => ({ value: v, label: t(`campaigns:attention.filter.${v}`) }))}
          className="status-filter"
          data-testid="history-attention"
        />
        <Space>
          <Switch
            size="small"
            checked={hideTest}
            onChange={(on) => setFilters([{ field: 'includeTest', operator: 'eq', value: on ? 'false' : undefined }], 'merge')}
            aria-label={t('campaigns:history.hideTest')}
          />
          {t('campaigns:history.hideTest')}
        </Space>
      </Space>
      <Table<HistoryItem>
        {...tableProps}
        rowKey="id"
        size="small"
        data-testid="history-table"
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
      >
        <Table.Column<HistoryItem> dataIndex="order_code" title={t('campaigns:history.orderCode')} />
        <Table.Column<HistoryItem>
          key="member"
          title={t('campaigns:assignments.member')}
          render={(_, r) => `${fullName(r.assignment.user)} (${r.assignment.user.code})`}
        />
        <Table.Column<HistoryItem>
          key="amount"
          title={t('campaigns:assignments.amount')}
          align="right"
          render={(_, r) =>
            // What arrived when it differs from what was asked (under- or overpayment).
            r.received_amount != null && r.received_amount > 0 && r.received_amount !== r.amount ? (
              <Space direction="vertical" size={0} data-testid="history-received">
                <span>{formatVnd(r.received_amount)}</span>
                <Typography.Text type="secondary">{t('campaigns:history.asked', { amount: formatVnd(r.amount) })}</Typography.Text>
              </Space>
            ) : (
              formatVnd(r.amount)
            )
          }
        />
        <Table.Column<HistoryItem>
          dataIndex="status"
          title={t('campaigns:fields.status')}
          render={(s: string, r) => (
            <Space size={4} wrap>
              <Tag color={STATUS_COLORS[s]}>{t(`campaigns:history.status.${s}`)}</Tag>
              {r.is_test && (
                <Tag color="purple" data-testid="test-badge">
                  {t('campaigns:history.test')}
                </Tag>
              )}
              {r.reversed_at && (
                <Tag color="red" data-testid="history-reversed" title={r.reversal_reason ?? undefined}>
                  {t('adjustments:history.reversed', { date: formatDateTime(r.reversed_at) })}
                </Tag>
              )}
              {r.reverses_order_id != null && (
                <Tag color="volcano" data-testid="history-reversal" title={r.note ?? undefined}>
                  {t('adjustments:history.reversal')}
                </Tag>
              )}
            </Space>
          )}
        />
        <Table.Column<HistoryItem>
          key="method"
          title={t('campaigns:history.method')}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <span>
                {t(r.payment_method === 'ONLINE' ? 'campaigns:history.online' : `campaigns:history.${r.manual_method ?? 'cash'}`)}
              </span>
              {r.note && <Typography.Text type="secondary">{r.note}</Typography.Text>}
            </Space>
          )}
        />
        <Table.Column<HistoryItem>
          key="time"
          title={t('campaigns:history.time')}
          render={(_, r) => formatDateTime(r.paid_at ?? r.created_at)}
        />
        <Table.Column<HistoryItem>
          key="attention"
          title={t('campaigns:attention.column')}
          render={(_, r) => (
            <AttentionCell r={r} canResolve={canResolve} own={r.assignment.user.code === myCode} onResolve={() => setResolving(r)} />
          )}
        />
        {canReverse && (
          <Table.Column<HistoryItem>
            key="actions"
            title={t('table.actions')}
            render={(_, r) =>
              reversible(r) && (
                <Button size="small" type="link" danger onClick={() => setReversing(r)} data-testid="history-reverse">
                  {t('adjustments:history.reverse')}
                </Button>
              )
            }
          />
        )}
      </Table>
      <ResolveModal order={resolving} onClose={() => setResolving(null)} onDone={() => (setResolving(null), refresh())} />
      <ReverseOrderModal order={reversing} onClose={() => setReversing(null)} onDone={() => (setReversing(null), refresh())} />
    </Space>
  );
}
