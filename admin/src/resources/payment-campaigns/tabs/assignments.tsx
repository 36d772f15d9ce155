import {
  ASSIGNMENT_EXPORT_FIELDS,
  ASSIGNMENT_SORT_FIELDS,
  ASSIGNMENT_STATUSES,
  formatDate,
  formatVnd,
  fullName,
  type Assignment,
  type Campaign,
  type FeeLevel,
} from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useDelete, useGetIdentity, useList, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Card, Col, Row, Select, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { ExportDialog } from '../../../components/export-dialog';
import { ListSearch, tableSearch } from '../../../components/list-search';
import { useCampaignStatistics } from '../use-statistics';
import { usePaymentsRefresh } from '../use-refresh';
import { AdjustModal, type AdjustAction } from './adjust-modal';
import { RemindBar } from '../reminders/remind-bar';
import { AssignModal } from './assign-modal';
import { MarkPaidModal } from './mark-paid-modal';

const STATUS_COLORS = { PENDING: 'processing', PAID: 'success', OVERDUE: 'error', EXEMPTED: 'default' } as const;

interface Props {
  campaign: Campaign;
  /** Writes allowed: the caller manages assignments in the campaign's organization and the campaign is not finished. */
  editable: boolean;
  canExport: boolean;
  /** payment-campaigns.exempt / reverse_payment in the campaign's organization, campaign not finished. */
  canAdjust: boolean;
  canReverse: boolean;
  /** send_reminders in the campaign's organization and the campaign is ACTIVE. */
  canRemind?: boolean;
}

/** The assignment tiles (001 §2 "Stat tiles"): counts by status with the money they stand for. */
function AssignmentTiles({ campaignId }: { campaignId: number }) {
  const t = useTranslate();
  const { stats } = useCampaignStatistics(campaignId);
  if (!stats) return null;
  const tiles = [
    { key: 'total', value: stats.totalMembers, sub: formatVnd(stats.totalExpected) },
    { key: 'pending', value: stats.pendingCount, sub: formatVnd(stats.uncollected) },
    { key: 'paid', value: stats.paidCount, sub: formatVnd(stats.collected) },
    { key: 'overdue', value: stats.overdueCount, sub: null },
    // Fees settled by sandbox money: tests, apart from the paid ones (docs/decisions.md).
    ...(stats.testPaidCount > 0 ? [{ key: 'test', value: stats.testPaidCount, sub: formatVnd(stats.testReceived) }] : []),
  ];
  return (
    <Row gutter={[12, 12]} data-testid="assignment-tiles">
      {tiles.map((tile) => (
        <Col key={tile.key} xs={12} lg={6}>
          <Card size="small" data-testid={`assignment-tile-${tile.key}`}>
            <Statistic title={t(`campaigns:assignments.tiles.${tile.key}`)} value={tile.value} />
            {tile.sub && <span className="tile-sub">{tile.sub}</span>}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** Member assignments tab (001 §2): tiles, filters (kept in the URL), the assignments, assign, mark paid, remove, export. */
export function AssignmentsTab({ campaign, editable, canExport, canAdjust, canReverse, canRemind = false }: Props) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const refresh = usePaymentsRefresh();
  const { mutate: deleteOne } = useDelete();
  const [dialog, setDialog] = useState<'assign' | 'export' | null>(null);
  const [paying, setPaying] = useState<Assignment | null>(null);
  const [adjusting, setAdjusting] = useState<{ a: Assignment; action: AdjustAction } | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  // Four eyes (issue 25 item 10): the server refuses an officer's marking paid, exempting, reducing or deleting their own fee.
  const me = useGetIdentity<{ id: number }>().data?.id;
  const ownFee = t('campaigns:assignments.ownFeeBlocked');
  const table = useTable<Assignment>({
    resource: 'payment/assignments',
    syncWithLocation: true,
    meta: { listKey: 'data.assignments' },
    pagination: { pageSize: 10 },
    filters: { permanent: [{ field: 'campaignId', operator: 'eq', value: campaign.id }] },
    sorters: { initial: [{ field: 'createdAt', order: 'desc' }] },
  });
  const { tableProps, filters, setFilters, sorters, setSorters } = table;
  const levels = useList<FeeLevel>({
    resource: `payment-fee-levels/campaign/${campaign.id}`,
    meta: { listKey: 'feeLevels' },
    pagination: { mode: 'off' },
  });
  const feeLevels = levels.result.data;
  const status = getDefaultFilter('status', filters, 'eq') as string | undefined;
  const sorter = sorters[0] ?? { field: 'createdAt', order: 'desc' };
  const setFilter = (field: 'q' | 'status', value?: string) =>
    setFilters([{ field, operator: field === 'q' ? 'contains' : 'eq', value: value || undefined }], 'merge');

  function remove(a: Assignment) {
    modal.confirm({
      title: t('campaigns:assignments.delete.title'),
      content: t('campaigns:assignments.delete.message', { name: fullName(a.user), amount: formatVnd(a.amount) }),
      okText: t('campaigns:assignments.delete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('buttons.cancel'),
      onOk: () =>
        new Promise<void>((resolve) =>
          deleteOne(
            { resource: 'payment/assignments', id: a.id, successNotification: false },
            { onSuccess: refresh, onSettled: () => resolve() },
          ),
        ),
    });
  }

  return (
    <Space direction="vertical" className="full-width" data-testid="assignments">
      <AssignmentTiles campaignId={campaign.id} />
      {feeLevels.length === 0 && levels.query.isSuccess && <Alert type="warning" showIcon message={t('campaigns:assignments.noLevels')} />}
      {canRemind && <RemindBar campaignId={campaign.id} selectedIds={selected} onSent={() => (setSelected([]), refresh())} />}
      <Space wrap className="filter-bar">
        <ListSearch {...tableSearch(table)} placeholder={t('campaigns:assignments.search')} data-testid="assignments-search" />
        <Select
          value={status ?? 'all'}
          onChange={(v) => setFilter('status', v === 'all' ? undefined : v)}
          options={[
            { value: 'all', label: t('campaigns:filters.allStatuses') },
            ...ASSIGNMENT_STATUSES.map((s) => ({ value: s, label: t(`campaigns:assignments.status.${s}`) })),
          ]}
          className="status-filter"
          data-testid="assignments-status"
        />
        <Select
          value={sorter.field}
          onChange={(field) => setSorters([{ field, order: sorter.order }])}
          options={ASSIGNMENT_SORT_FIELDS.map((f) => ({ value: f, label: t(`campaigns:assignments.sort.${f}`) }))}
          className="status-filter"
        />
        <Select
          value={sorter.order}
          onChange={(order) => setSorters([{ field: sorter.field, order }])}
          options={(['desc', 'asc'] as const).map((o) => ({ value: o, label: t(`campaigns:assignments.order.${o}`) }))}
        />
        <Button onClick={() => (setFilters([], 'replace'), setSorters([{ field: 'createdAt', order: 'desc' }]))}>
          {t('campaigns:assignments.clear')}
        </Button>
        {canExport && <Button onClick={() => setDialog('export')}>{t('buttons.export')}</Button>}
        {editable && (
          <Button type="primary" disabled={feeLevels.length === 0} onClick={() => setDialog('assign')} data-testid="assign-open">
            {t('campaigns:assign.open')}
          </Button>
        )}
      </Space>
      <Table<Assignment>
        {...tableProps}
        rowKey="id"
        size="small"
        rowSelection={
          canRemind
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as number[]),
                getCheckboxProps: (a) => ({ disabled: a.status === 'PAID' }),
              }
            : undefined
        }
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        data-testid="assignments-table"
      >
        <Table.Column<Assignment>
          key="member"
          title={t('campaigns:assignments.member')}
          render={(_, a) => `${fullName(a.user)} (${a.user.code})`}
        />
        <Table.Column<Assignment> key="level" title={t('campaigns:assignments.feeLevel')} render={(_, a) => a.feeLevel.levelName} />
        <Table.Column<Assignment>
          key="amount"
          title={t('campaigns:assignments.amount')}
          align="right"
          render={(_, a) => (
            <Space direction="vertical" size={0}>
              {a.originalAmount != null && (
                <Typography.Text delete type="secondary" data-testid="assignment-original">
                  {formatVnd(a.originalAmount)}
                </Typography.Text>
              )}
              <span>{formatVnd(a.amount)}</span>
              {a.status !== 'PAID' && (a.paidAmount ?? 0) > 0 && (
                <Typography.Text type="secondary" data-testid="assignment-remaining">
                  {t('campaigns:assignments.remaining', {
                    remaining: formatVnd(a.remainingAmount ?? a.amount),
                    paid: formatVnd(a.paidAmount ?? 0),
                  })}
                </Typography.Text>
              )}
            </Space>
          )}
        />
        <Table.Column<Assignment>
          dataIndex="displayStatus"
          title={t('campaigns:fields.status')}
          render={(s: Assignment['status'], a) => (
            <Space size={4} wrap>
              <Tag color={STATUS_COLORS[s]}>{t(`campaigns:assignments.status.${s}`)}</Tag>
              {a.adjustment === 'REDUCED' && (
                <Tooltip title={a.adjustmentReason}>
                  <Tag color="gold" data-testid="assignment-adjustment">
                    {t('adjustments:tag.REDUCED')}
                  </Tag>
                </Tooltip>
              )}
              {a.adjustment === 'EXEMPTED' && a.adjustmentReason && (
                <Typography.Text type="secondary" className="adjust-reason" data-testid="assignment-adjustment-reason">
                  {a.adjustmentReason}
                </Typography.Text>
              )}
              {a.isTestPayment && (
                <Tag color="purple" data-testid="test-badge">
                  {t('campaigns:history.test')}
                </Tag>
              )}
              {a.attention && (
                <Tag color={a.attention === 'REFUND_DUE' ? 'red' : 'orange'} data-testid="assignment-attention">
                  {t(`campaigns:attention.short.${a.attention}`)}
                </Tag>
              )}
            </Space>
          )}
        />
        <Table.Column<Assignment>
          dataIndex="dueDate"
          title={t('campaigns:assignments.dueDate')}
          render={(v: string | null) => (v ? formatDate(v) : '—')}
        />
        <Table.Column<Assignment> dataIndex="createdAt" title={t('campaigns:assignments.created')} render={(v: string) => formatDate(v)} />
        {(editable || canAdjust || canReverse) && (
          <Table.Column<Assignment>
            key="actions"
            title={t('table.actions')}
            render={(_, a) => (
              <Space size={4} wrap>
                {editable && a.status !== 'PAID' && a.status !== 'EXEMPTED' && (
                  <Tooltip title={a.userId === me ? ownFee : undefined}>
                    <Button
                      size="small"
                      type="link"
                      disabled={a.userId === me}
                      onClick={() => setPaying(a)}
                      data-testid="assignment-mark-paid"
                    >
                      {t('campaigns:assignments.mark-paid.ok')}
                    </Button>
                  </Tooltip>
                )}
                {canAdjust && a.status !== 'PAID' && a.status !== 'EXEMPTED' && (
                  <Tooltip title={a.userId === me ? ownFee : undefined}>
                    <Button
                      size="small"
                      type="link"
                      disabled={a.userId === me}
                      onClick={() => setAdjusting({ a, action: 'adjust' })}
                      data-testid="assignment-adjust"
                    >
                      {t('adjustments:open.adjust')}
                    </Button>
                  </Tooltip>
                )}
                {canAdjust && a.adjustment && (
                  <Button size="small" type="link" onClick={() => setAdjusting({ a, action: 'revoke' })} data-testid="assignment-revoke">
                    {t('adjustments:open.revoke')}
                  </Button>
                )}
                {/* Only cash/transfer recorded here can be reversed; payOS money goes through the refund flow. */}
                {canReverse && a.paymentMethod === 'MANUAL' && (a.paidAmount ?? 0) > 0 && (
                  <Button
                    size="small"
                    type="link"
                    danger
                    onClick={() => setAdjusting({ a, action: 'reverse' })}
                    data-testid="assignment-reverse"
                  >
                    {t('adjustments:open.reverse')}
                  </Button>
                )}
                {/* A fee with money on it, a reversed payment included, is kept (the server refuses): no "Xóa" (issue 25 item 6). */}
                {editable && a.canDelete && (
                  <Tooltip title={a.userId === me ? ownFee : undefined}>
                    <Button
                      size="small"
                      type="link"
                      danger
                      disabled={a.userId === me}
                      onClick={() => remove(a)}
                      data-testid="assignment-delete"
                    >
                      {t('buttons.delete')}
                    </Button>
                  </Tooltip>
                )}
              </Space>
            )}
          />
        )}
      </Table>
      <AssignModal
        open={dialog === 'assign'}
        campaign={campaign}
        feeLevels={feeLevels}
        onClose={() => setDialog(null)}
        onAssigned={() => {
          setDialog(null);
          refresh();
        }}
      />
      <AdjustModal
        assignment={adjusting?.a ?? null}
        action={adjusting?.action ?? 'adjust'}
        onClose={() => setAdjusting(null)}
        onDone={() => (setAdjusting(null), refresh())}
      />
      <MarkPaidModal assignment={paying} onClose={() => setPaying(null)} onDone={() => (setPaying(null), refresh())} />
      {dialog === 'export' && (
        <ExportDialog
          open
          onClose={() => setDialog(null)}
          title={t('campaigns:assignments.exportTitle')}
          fields={ASSIGNMENT_EXPORT_FIELDS}
          kind="assignments"
          path={`/export/payment-assignments/${campaign.id}`}
        />
      )}
    </Space>
  );
}
