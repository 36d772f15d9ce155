import { formatDate, formatDateTime, fullName, TRANSFER_STATUSES, type Transfer, type TransferStatus } from '@doanhoi/shared';
import { PlusOutlined } from '@ant-design/icons';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { App, Button, Empty, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { LoadError } from '../../components/catalogue/row-actions';
import { PageHeader } from '../../components/page-header';
import { useCurrentOrganization } from '../../context/current-organization';
import { API_URL } from '../../providers/http';
import { RequestTransferModal } from './request-dialog';

const STATUS_COLORS: Record<TransferStatus, string> = { PENDING: 'gold', ACCEPTED: 'success', REFUSED: 'error', CANCELLED: 'default' };

/** The refusal dialog: a reason is required (it is shown to the requesting side and the member). */
function RefuseModal({ transfer, onClose, onDone }: { transfer: Transfer | null; onClose: () => void; onDone: () => void }) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const { mutateAsync, mutation } = useCustomMutation();
  const saving = mutation.isPending;
  async function save() {
    const { reason } = await form.validateFields();
    try {
      await mutateAsync({
        url: `${API_URL}/transfers/${transfer!.id}/refuse`,
        method: 'post',
        values: { reason },
        successNotification: false,
        errorNotification: false,
      });
      notification.success({ message: t('organizations:transfers.refused') });
      onDone();
      onClose();
    } catch (e) {
      notification.error({ message: (e as Error).message });
    }
  }
  return (
    <Modal
      open={transfer !== null}
      title={t('organizations:transfers.refuseTitle')}
      onOk={() => void save()}
      onCancel={onClose}
      okText={t('organizations:transfers.refuse')}
      okButtonProps={{ danger: true, 'data-testid': 'transfer-refuse-confirm' } as ButtonProps}
      cancelText={t('buttons.cancel')}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item
          label={t('organizations:transfers.refuseReason')}
          name="reason"
          rules={[{ required: true, whitespace: true, message: t('validation:refuseReason') }, { max: 500 }]}
        >
          <Input.TextArea rows={3} autoFocus data-testid="transfer-refuse-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /transfers (issue 30 item 1): requests from and to the units the caller manages (the header's
 * unit narrows them to its subtree), newest first, with a status filter; the deciding side accepts
 * or refuses, the requesting side cancels. The API says per row what the caller may do.
 */
export function TransferList() {
  const t = useTranslate();
  const { notification } = App.useApp();
  const { organizationId } = useCurrentOrganization();
  const { tableProps, filters, setFilters, tableQuery } = useTable<Transfer>({
    resource: 'transfers',
    syncWithLocation: true,
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { permanent: organizationId ? [{ field: 'organizationId', operator: 'eq', value: organizationId }] : [] },
  });
  const status = getDefaultFilter('status', filters, 'eq') as TransferStatus | undefined;
  const [requesting, setRequesting] = useState(false);
  const [refusing, setRefusing] = useState<Transfer | null>(null);
  const refresh = () => void tableQuery.refetch();
  const { mutateAsync: decide } = useCustomMutation();
  const act = async (row: Transfer, action: 'accept' | 'cancel') => {
    try {
      await decide({
        url: `${API_URL}/transfers/${row.id}/${action}`,
        method: 'post',
        values: {},
        successNotification: false,
        errorNotification: false,
      });
      notification.success({ message: t(action === 'accept' ? 'organizations:transfers.accepted' : 'organizations:transfers.cancelled') });
    } catch (e) {
      notification.error({ message: (e as Error).message });
    }
    refresh();
  };
  if (tableQuery.isError) return <LoadError onRetry={refresh} testId="transfers-error" />;

  return (
    <section data-testid="transfers-page">
      <PageHeader
        title={t('organizations:transfers.title')}
        subtitle={t('organizations:transfers.subtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setRequesting(true)} data-testid="transfer-new">
            {t('organizations:transfers.new')}
          </Button>
        }
      />
      <Space wrap className="filter-bar">
        <Select
          value={status ?? 'ALL'}
          onChange={(v) => setFilters([{ field: 'status', operator: 'eq', value: v === 'ALL' ? undefined : v }], 'merge')}
          options={[
            { value: 'ALL', label: t('organizations:transfers.allStatuses') },
            ...TRANSFER_STATUSES.map((s) => ({ value: s, label: t(`organizations:transfers.statuses.${s}`) })),
          ]}
          className="status-filter"
          aria-label={t('organizations:transfers.status')}
          data-testid="transfer-status-filter"
        />
      </Space>
      <Table<Transfer>
        {...tableProps}
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        pagination={tableProps.pagination && { ...tableProps.pagination, showSizeChanger: false }}
        locale={{ emptyText: <Empty description={t('organizations:transfers.empty')} /> }}
        data-testid="transfers-table"
      >
        <Table.Column<Transfer>
          key="member"
          title={t('organizations:transfers.member')}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <Typography.Text strong>{fullName(r.user)}</Typography.Text>
              <Typography.Text type="secondary">{r.user.code}</Typography.Text>
            </Space>
          )}
        />
        <Table.Column<Transfer> key="from" title={t('organizations:transfers.from')} render={(_, r) => r.fromOrganization.name} />
        <Table.Column<Transfer> key="to" title={t('organizations:transfers.to')} render={(_, r) => r.toOrganization.name} />
        <Table.Column<Transfer>
          dataIndex="effectiveDate"
          title={t('organizations:transfers.effectiveDate')}
          render={(v: string) => formatDate(v)}
        />
        <Table.Column<Transfer>
          dataIndex="reason"
          title={t('organizations:transfers.reason')}
          render={(v: string) => <div className="transfer-reason">{v}</div>}
        />
        <Table.Column<Transfer>
          key="status"
          title={t('organizations:transfers.status')}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <Tag color={STATUS_COLORS[r.status]} data-testid="transfer-status">
                {t(`organizations:transfers.statuses.${r.status}`)}
              </Tag>
              {r.status === 'PENDING' && (
                <Typography.Text type="secondary">
                  {t('organizations:transfers.waitingFor', {
                    name: r.requestedSide === 'from' ? r.toOrganization.name : r.fromOrganization.name,
                  })}
                </Typography.Text>
              )}
              {r.refuseReason && (
                <Typography.Text type="secondary">{`${t('organizations:transfers.refuseReason')}: ${r.refuseReason}`}</Typography.Text>
              )}
            </Space>
          )}
        />
        <Table.Column<Transfer>
          key="requested"
          title={t('organizations:transfers.requestedBy')}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <span>{r.requestedBy ? fullName(r.requestedBy) : '—'}</span>
              <Typography.Text type="secondary">{`${t(`organizations:transfers.side.${r.requestedSide}`)} · ${formatDateTime(r.createdAt)}`}</Typography.Text>
            </Space>
          )}
        />
        <Table.Column<Transfer>
          key="actions"
          title={t('table.actions')}
          // Kept in view: on a laptop the reason and who-asked columns push the decision off the right edge.
          fixed="right"
          render={(_, r) => (
            <Space wrap>
              {r.canDecide && (
                <Popconfirm
                  title={t('organizations:transfers.accept')}
                  description={t('organizations:transfers.acceptConfirm', {
                    name: fullName(r.user),
                    from: r.fromOrganization.name,
                    to: r.toOrganization.name,
                    date: formatDate(r.effectiveDate),
                  })}
                  onConfirm={() => act(r, 'accept')}
                  okText={t('organizations:transfers.accept')}
                  cancelText={t('buttons.cancel')}
                  okButtonProps={{ 'data-testid': 'transfer-accept-confirm' } as ButtonProps}
                >
                  <Button size="small" type="primary" data-testid="transfer-accept">
                    {t('organizations:transfers.accept')}
                  </Button>
                </Popconfirm>
              )}
              {r.canDecide && (
                <Button size="small" danger onClick={() => setRefusing(r)} data-testid="transfer-refuse">
                  {t('organizations:transfers.refuse')}
                </Button>
              )}
              {r.canCancel && (
                <Popconfirm
                  title={t('organizations:transfers.cancelConfirm', { name: fullName(r.user) })}
                  onConfirm={() => act(r, 'cancel')}
                  okText={t('organizations:transfers.cancel')}
                  cancelText={t('buttons.cancel')}
                >
                  <Button size="small" data-testid="transfer-cancel">
                    {t('organizations:transfers.cancel')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          )}
        />
      </Table>
      <RequestTransferModal open={requesting} onClose={() => setRequesting(false)} onDone={refresh} />
      <RefuseModal transfer={refusing} onClose={() => setRefusing(null)} onDone={refresh} />
    </section>
  );
}
