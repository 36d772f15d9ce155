import { ASSIGNMENT_EXPORT_FIELDS, ASSIGNMENT_SORT_FIELDS, ASSIGNMENT_STATUSES, formatDate, formatVnd, fullName, type Assignment, type FeeLevel } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { ExportDialog } from '../../../components/export-dialog';
import { apiRequest } from '../../../providers/http';
import { AssignModal } from './assign-modal';

const STATUS_COLORS = { PENDING: 'processing', PAID: 'success', OVERDUE: 'error' } as const;
const PAGE_SIZE = 10;

interface Filters {
  search: string;
  status?: string;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
}
const NO_FILTERS: Filters = { search: '', sortBy: 'createdAt', sortOrder: 'desc' };

interface Props {
  campaignId: number;
  /** Writes allowed: the caller manages assignments and the campaign is not finished. */
  editable: boolean;
  onChanged: () => void;
}

/** Member assignments tab (001 §2): filters, the assignments, assign members, mark paid, delete, export. */
export function AssignmentsTab({ campaignId, editable, onChanged }: Props) {
  const t = useTranslate();
  const { modal, notification } = App.useApp();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [searchText, setSearchText] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<'assign' | 'export' | null>(null);
  const query = new URLSearchParams({ campaignId: String(campaignId), page: String(page), limit: String(PAGE_SIZE), sortBy: filters.sortBy, sortOrder: filters.sortOrder });
  if (filters.search) query.set('search', filters.search);
  if (filters.status) query.set('status', filters.status);
  const list = useQuery({
    queryKey: ['payment-assignments', campaignId, query.toString()],
    queryFn: () => apiRequest<{ data: { assignments: Assignment[]; total: number } }>(`/payment/assignments?${query.toString()}`),
  });
  const levels = useQuery({ queryKey: ['payment-fee-levels', campaignId], queryFn: () => apiRequest<{ feeLevels: FeeLevel[] }>(`/payment-fee-levels/campaign/${campaignId}`) });
  const feeLevels = levels.data?.feeLevels ?? [];
  const refresh = () => {
    void list.refetch();
    onChanged();
  };
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  function act(a: Assignment, action: 'mark-paid' | 'delete') {
    modal.confirm({
      title: t(`campaigns:assignments.${action}.title`),
      content: t(`campaigns:assignments.${action}.message`, { name: fullName(a.user), amount: formatVnd(a.amount) }),
      okText: t(`campaigns:assignments.${action}.ok`),
      okButtonProps: { danger: action === 'delete' },
      cancelText: t('buttons.cancel'),
      onOk: async () => {
        try {
          if (action === 'mark-paid') await apiRequest(`/payment/assignments/${a.id}/mark-paid`, { method: 'PATCH', body: { method: 'cash' } });
          else await apiRequest(`/payment/assignments/${a.id}`, { method: 'DELETE' });
          refresh();
        } catch (e) {
          notification.error({ message: (e as Error).message });
        }
      },
    });
  }

  return (
    <Space direction="vertical" className="full-width" data-testid="assignments">
      {feeLevels.length === 0 && levels.isSuccess && <Alert type="warning" showIcon message={t('campaigns:assignments.noLevels')} />}
      <Space wrap className="filter-bar">
        <Input.Search value={searchText} onChange={(e) => setSearchText(e.target.value)} onSearch={(v) => set({ search: v.trim() })} placeholder={t('campaigns:assignments.search')} enterButton={t('buttons.filter')} allowClear />
        <Select
          value={filters.status ?? 'all'}
          onChange={(v) => set({ status: v === 'all' ? undefined : v })}
          options={[{ value: 'all', label: t('campaigns:filters.allStatuses') }, ...ASSIGNMENT_STATUSES.map((s) => ({ value: s, label: t(`campaigns:assignments.status.${s}`) }))]}
          className="status-filter"
        />
        <Select value={filters.sortBy} onChange={(v) => set({ sortBy: v })} options={ASSIGNMENT_SORT_FIELDS.map((f) => ({ value: f, label: t(`campaigns:assignments.sort.${f}`) }))} className="status-filter" />
        <Select value={filters.sortOrder} onChange={(v) => set({ sortOrder: v })} options={(['desc', 'asc'] as const).map((o) => ({ value: o, label: t(`campaigns:assignments.order.${o}`) }))} />
        <Button onClick={() => (setSearchText(''), set(NO_FILTERS))}>{t('campaigns:assignments.clear')}</Button>
        <Button onClick={() => setDialog('export')}>{t('buttons.export')}</Button>
        {editable && (
          <Button type="primary" disabled={feeLevels.length === 0} onClick={() => setDialog('assign')} data-testid="assign-open">
            {t('campaigns:assign.open')}
          </Button>
        )}
      </Space>
      <Table<Assignment>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.data.assignments ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.data.total ?? 0, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false }}
        data-testid="assignments-table"
      >
        <Table.Column<Assignment> key="member" title={t('campaigns:assignments.member')} render={(_, a) => `${fullName(a.user)} (${a.user.code})`} />
        <Table.Column<Assignment> key="level" title={t('campaigns:assignments.feeLevel')} render={(_, a) => a.feeLevel.levelName} />
        <Table.Column<Assignment> dataIndex="amount" title={t('campaigns:assignments.amount')} align="right" render={(v: number) => formatVnd(v)} />
        <Table.Column<Assignment> dataIndex="displayStatus" title={t('campaigns:fields.status')} render={(s: Assignment['status']) => <Tag color={STATUS_COLORS[s]}>{t(`campaigns:assignments.status.${s}`)}</Tag>} />
        <Table.Column<Assignment> dataIndex="createdAt" title={t('campaigns:assignments.created')} render={(v: string) => formatDate(v)} />
        {editable && (
          <Table.Column<Assignment>
            key="actions"
            title={t('table.actions')}
            render={(_, a) => (
              <Space size={4}>
                {a.status !== 'PAID' && (
                  <Button size="small" type="link" onClick={() => act(a, 'mark-paid')} data-testid="assignment-mark-paid">
                    {t('campaigns:assignments.mark-paid.ok')}
                  </Button>
                )}
                <Button size="small" type="link" danger onClick={() => act(a, 'delete')}>
                  {t('buttons.delete')}
                </Button>
              </Space>
            )}
          />
        )}
      </Table>
      <AssignModal
        open={dialog === 'assign'}
        campaignId={campaignId}
        feeLevels={feeLevels}
        onClose={() => setDialog(null)}
        onAssigned={(count) => {
          notification.success({ message: t('campaigns:assign.done', { count }) });
          setDialog(null);
          refresh();
        }}
      />
      {dialog === 'export' && (
        <ExportDialog open onClose={() => setDialog(null)} title={t('campaigns:assignments.exportTitle')} fields={ASSIGNMENT_EXPORT_FIELDS} path={`/export/payment-assignments/${campaignId}`} />
      )}
    </Space>
  );
}
