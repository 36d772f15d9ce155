import { formatDate, formatVnd, type Remittance, type RemittanceReport, type RemittanceUnit } from '@doanhoi/shared';
import { useCustom, useCustomMutation, useTranslate } from '@refinedev/core';
import { App, Breadcrumb, Button, DatePicker, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { downloadFile } from '../../providers/download';
import { apiUrl, usePaymentsRefresh } from '../payment-campaigns/use-refresh';
import { useDuesRights } from './rights';

const STATUS_COLOR = { PENDING: 'gold', CONFIRMED: 'green', CANCELLED: 'default' } as const;

function RecordModal({
  open,
  onClose,
  campaignId,
  unit,
  suggested,
}: {
  open: boolean;
  onClose: () => void;
  campaignId: number;
  unit: RemittanceUnit;
  suggested: number;
}) {
  const t = useTranslate();
  const [form] = Form.useForm();
  const refresh = usePaymentsRefresh();
  const { mutate, mutation } = useCustomMutation();
  const submit = (v: { amount: number; paidAt: dayjs.Dayjs; note?: string }) =>
    mutate(
      {
        url: apiUrl('/remittances'),
        method: 'post',
        values: {
          campaignId,
          fromOrganizationId: unit.organizationId,
          amount: v.amount,
          paidAt: v.paidAt.format('YYYY-MM-DD'),
          note: v.note || null,
        },
        successNotification: () => ({ type: 'success', message: t('dues:remittance.recorded') }),
      },
      {
        onSuccess: () => {
          onClose();
          refresh();
        },
      },
    );
  return (
    <Modal
      open={open}
      title={t('dues:remittance.recordTitle', { name: unit.name })}
      okText={t('dues:remittance.record')}
      cancelText={t('buttons.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={mutation.isPending}
      destroyOnHidden
      afterOpenChange={(o) => o && form.setFieldsValue({ amount: suggested, paidAt: dayjs(), note: '' })}
    >
      <Form form={form} layout="vertical" onFinish={submit} data-testid="remittance-form">
        {/* No min on the field: antd would turn a typed 0 into 1 ₫ and save it; the rule refuses it instead (issue 25 item 12). */}
        <Form.Item
          label={t('dues:remittance.amount')}
          name="amount"
          rules={[
            { required: true, message: t('dues:validation.amountRequired') },
            {
              validator: async (_, v: unknown) =>
                v == null || (Number.isInteger(v) && (v as number) >= 1)
                  ? undefined
                  : Promise.reject(new Error(t('dues:validation.amountPositive'))),
            },
          ]}
          extra={t('dues:remittance.amountHint', { amount: formatVnd(suggested) })}
        >
          <InputNumber step={1000} className="full-width" data-testid="remittance-amount" />
        </Form.Item>
        <Form.Item
          label={t('dues:remittance.paidAt')}
          name="paidAt"
          rules={[{ required: true, message: t('dues:validation.paidAtRequired') }]}
        >
          <DatePicker format="DD/MM/YYYY" className="full-width" disabledDate={(d) => d.isAfter(dayjs().endOf('day'))} />
        </Form.Item>
        <Form.Item label={t('dues:remittance.note')} name="note">
          <Input.TextArea rows={2} maxLength={1000} />
        </Form.Item>
        <button type="submit" hidden aria-hidden />
      </Form>
    </Modal>
  );
}

/**
 * One level of a campaign's remittance (issue 30 item 5): the unit and its direct units, what each
 * collected, keeps, owes up and has had confirmed; a unit's name opens its own level.
 */
export function RemittancePanel({ campaignId, organizationId }: { campaignId: number; organizationId?: number }) {
  const t = useTranslate();
  const { modal, message } = App.useApp();
  const refresh = usePaymentsRefresh();
  const [trail, setTrail] = useState<{ id: number; name: string }[]>([]);
  const unitId = trail.length ? trail[trail.length - 1]!.id : organizationId;
  const { query, result } = useCustom<RemittanceReport>({
    url: apiUrl(`/payment-campaigns/${campaignId}/remittance`),
    method: 'get',
    config: { query: unitId ? { organizationId: unitId } : undefined },
    errorNotification: false,
    queryOptions: { retry: false },
  });
  const report = query.isSuccess ? (result.data as RemittanceReport) : undefined;
  const self = report?.units[0];
  const rights = useDuesRights(self?.organizationId);
  const [recording, setRecording] = useState(false);
  const { mutate } = useCustomMutation();

  if (query.isError)
    return (
      <Typography.Text type="danger" data-testid="remittance-error">
        {query.error?.message}
      </Typography.Text>
    );
  if (!report || !self) return <Table loading columns={[]} dataSource={[]} />;

  const left = self.owedUp - self.confirmed - self.pending;
  const act = (r: Remittance, action: 'confirm' | 'cancel') =>
    modal.confirm({
      title: t(`dues:remittance.${action}Title`),
      content: t(`dues:remittance.${action}Message`, {
        amount: formatVnd(r.amount),
        from: r.fromOrganizationName,
        to: r.toOrganizationName,
      }),
      okText: t(`dues:remittance.${action}`),
      cancelText: t('buttons.cancel'),
      onOk: () =>
        new Promise<void>((resolve, reject) =>
          mutate(
            {
              url: apiUrl(`/remittances/${r.id}/${action}`),
              method: 'post',
              values: {},
              successNotification: () => ({ type: 'success', message: t(`dues:remittance.${action}Done`) }),
            },
            { onSuccess: () => (refresh(), resolve()), onError: () => reject() },
          ),
        ),
    });
  const money = (v: number) => formatVnd(v);
  const columns = [
    {
      title: t('dues:remittance.unit'),
      key: 'unit',
      render: (_: unknown, u: RemittanceUnit) =>
        u.isSelf ? (
          <strong>{u.name}</strong>
        ) : (
          <Button
            type="link"
            className="link-button"
            onClick={() => setTrail([...trail, { id: u.organizationId, name: u.name }])}
            data-testid={`remittance-open-${u.code}`}
          >
            {u.name}
          </Button>
        ),
    },
    { title: t('dues:remittance.collected'), dataIndex: 'collected', align: 'right' as const, render: money },
    { title: t('dues:remittance.dueFromBelow'), dataIndex: 'dueFromBelow', align: 'right' as const, render: money },
    {
      title: t('dues:remittance.kept'),
      key: 'kept',
      align: 'right' as const,
      render: (_: unknown, u: RemittanceUnit) =>
        `${money(u.kept)} (${u.parentId === null ? t('dues:remittance.keepsAll') : `${u.keepNumerator}/${u.keepDenominator}`})`,
    },
    { title: t('dues:remittance.owedUp'), dataIndex: 'owedUp', align: 'right' as const, render: money },
    { title: t('dues:remittance.receivedFromBelow'), dataIndex: 'receivedFromBelow', align: 'right' as const, render: money },
    { title: t('dues:remittance.confirmed'), dataIndex: 'confirmed', align: 'right' as const, render: money },
    { title: t('dues:remittance.pending'), dataIndex: 'pending', align: 'right' as const, render: money },
    {
      title: t('dues:remittance.outstanding'),
      dataIndex: 'outstanding',
      align: 'right' as const,
      render: (v: number) => (v > 0 ? <Typography.Text type="warning">{money(v)}</Typography.Text> : money(v)),
    },
  ];
  const rootName = trail.length ? undefined : self.name;
  return (
    <Space direction="vertical" className="full-width" data-testid="remittance-panel">
      <Breadcrumb
        items={[
          { title: trail.length ? <a onClick={() => setTrail([])}>{t('dues:remittance.top')}</a> : rootName },
          ...trail.map((s, i) => ({
            title: i === trail.length - 1 ? s.name : <a onClick={() => setTrail(trail.slice(0, i + 1))}>{s.name}</a>,
          })),
        ]}
      />
      <Typography.Paragraph type="secondary">{t('dues:remittance.rule')}</Typography.Paragraph>
      <Space wrap>
        {rights.remit && self.parentId !== null && left > 0 && (
          <Button type="primary" onClick={() => setRecording(true)} data-testid="remittance-record">
            {t('dues:remittance.recordButton', { amount: formatVnd(left) })}
          </Button>
        )}
        <Button
          onClick={() =>
            downloadFile(`/payment-campaigns/${campaignId}/remittance/export`, {
              query: { organizationId: self.organizationId },
              fallback: 'trich-nop.xlsx',
            }).catch((e: Error) => message.error(e.message))
          }
          data-testid="remittance-export"
        >
          {t('dues:remittance.export')}
        </Button>
      </Space>
      <Table<RemittanceUnit>
        rowKey="organizationId"
        size="small"
        pagination={false}
        scroll={{ x: true }}
        dataSource={report.units}
        columns={columns}
        rowClassName={(u) => (u.isSelf ? 'remittance-self' : '')}
        data-testid="remittance-units"
        summary={() =>
          report.units.length > 1 ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{t('dues:remittance.totals')}</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {money(report.totals.collected)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} />
              <Table.Summary.Cell index={3} align="right">
                {money(report.totals.kept)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                {money(report.totals.owedUp)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} />
              <Table.Summary.Cell index={6} align="right">
                {money(report.totals.confirmed)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={7} align="right">
                {money(report.totals.pending)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={8} align="right">
                {money(report.totals.outstanding)}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
      <Typography.Title level={5}>{t('dues:remittance.records')}</Typography.Title>
      <Table<Remittance>
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: true }}
        dataSource={report.remittances}
        data-testid="remittance-records"
        locale={{ emptyText: t('dues:remittance.noRecords') }}
        columns={[
          { title: t('dues:remittance.from'), dataIndex: 'fromOrganizationName' },
          { title: t('dues:remittance.to'), dataIndex: 'toOrganizationName' },
          { title: t('dues:remittance.amount'), dataIndex: 'amount', align: 'right', render: money },
          { title: t('dues:remittance.paidAt'), dataIndex: 'paidAt', render: (v: string) => formatDate(v) },
          { title: t('dues:remittance.note'), dataIndex: 'note', render: (v: string | null) => v ?? '—' },
          {
            title: t('dues:remittance.status'),
            dataIndex: 'status',
            render: (s: Remittance['status'], r) => (
              <span>
                <Tag color={STATUS_COLOR[s]}>{t(`dues:remittance.statuses.${s}`)}</Tag>
                {r.confirmedByName && <Typography.Text type="secondary">{r.confirmedByName}</Typography.Text>}
              </span>
            ),
          },
          {
            title: t('table.actions'),
            key: 'actions',
            render: (_: unknown, r: Remittance) => {
              if (r.status !== 'PENDING') return null;
              const receiving = r.toOrganizationId === self.organizationId;
              return (
                <Space>
                  {receiving && rights.confirm && (
                    <Button size="small" type="primary" onClick={() => act(r, 'confirm')} data-testid={`remittance-confirm-${r.id}`}>
                      {t('dues:remittance.confirm')}
                    </Button>
                  )}
                  {((receiving && rights.confirm) || (!receiving && rights.remit)) && (
                    <Button size="small" danger onClick={() => act(r, 'cancel')} data-testid={`remittance-cancel-${r.id}`}>
                      {t('dues:remittance.cancel')}
                    </Button>
                  )}
                </Space>
              );
            },
          },
        ]}
      />
      <RecordModal open={recording} onClose={() => setRecording(false)} campaignId={campaignId} unit={self} suggested={Math.max(0, left)} />
    </Space>
  );
}
