import type { OrganizationRef, Transfer, TransferCandidate } from '@doanhoi/shared';
import { useCustomMutation, useDataProvider, useTranslate } from '@refinedev/core';
import { Alert, App, DatePicker, Form, Input, Modal, Select, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useRead } from '../../components/data/use-read';
import { ApiError, API_URL } from '../../providers/http';

interface Values {
  code: string;
  fromOrganizationId?: number;
  toOrganizationId?: number;
  reason: string;
  effectiveDate: Dayjs;
}

type UnitRef = Pick<OrganizationRef, 'id' | 'name'> & Partial<OrganizationRef>;
const unitLabel = (o: UnitRef) => (o.code ? `${o.name} (${o.code})` : o.name);

/** The receiving-unit picker: every unit by name or code (a transfer goes beyond the caller's own tree). */
export function UnitSelect({
  value,
  onChange,
  fixed,
  testId,
}: {
  value?: number;
  onChange?: (v: number) => void;
  fixed?: UnitRef;
  testId: string;
}) {
  const [search, setSearch] = useState('');
  const units = useRead<OrganizationRef[]>('/transfers/units', { enabled: !fixed, query: { limit: 20, search } });
  const options: UnitRef[] = fixed ? [fixed] : (units.data ?? []);
  return (
    <Select
      showSearch
      value={value}
      onChange={onChange}
      disabled={!!fixed}
      filterOption={false}
      onSearch={setSearch}
      loading={units.query.isFetching}
      options={options.map((o) => ({ value: o.id, label: unitLabel(o) }))}
      data-testid={testId}
    />
  );
}

/**
 * "Tạo yêu cầu chuyển sinh hoạt" (issue 30 item 1): a member by code, one of their current units,
 * the receiving unit, a reason and the day. Opened from the transfers screen (the sending side) or
 * from an add-member refused as outside the caller's reach (the receiving side, `to` fixed).
 */
export function RequestTransferModal({
  open,
  onClose,
  onDone,
  code,
  to,
}: {
  open: boolean;
  onClose: () => void;
  onDone: (t: Transfer) => void;
  code?: string;
  to?: UnitRef;
}) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [candidate, setCandidate] = useState<TransferCandidate | null>(null);
  const [lookupError, setLookupError] = useState<string | null>(null);
  const dataProvider = useDataProvider();
  const { mutateAsync, mutation } = useCustomMutation<Transfer>();
  const saving = mutation.isPending;

  async function lookup(value: string) {
    setCandidate(null);
    setLookupError(null);
    if (!value.trim()) return;
    try {
      const { data } = await dataProvider().custom!({
        url: `${API_URL}/transfers/candidate`,
        method: 'get',
        query: { code: value.trim(), ...(to && { toOrganizationId: to.id }) },
      });
      const found = data as TransferCandidate;
      setCandidate(found);
      form.setFieldsValue({ fromOrganizationId: found.units[0]?.id });
    } catch (e) {
      setLookupError((e as Error).message);
    }
  }

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({ code: code ?? '', toOrganizationId: to?.id, effectiveDate: dayjs(), reason: '' });
    if (code) void lookup(code);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, code, to?.id]);

  async function save() {
    const v = await form.validateFields();
    if (!candidate) return setLookupError(t('organizations:members.noUser'));
    try {
      const { data: created } = await mutateAsync({
        url: `${API_URL}/transfers`,
        method: 'post',
        values: {
          userId: candidate.user.id,
          fromOrganizationId: v.fromOrganizationId,
          toOrganizationId: v.toOrganizationId,
          reason: v.reason,
          effectiveDate: v.effectiveDate.format('YYYY-MM-DD'),
        },
        successNotification: false,
        errorNotification: false,
      });
      notification.success({ message: t('organizations:transfers.created') });
      onDone(created);
      onClose();
    } catch (e) {
      const errors = e instanceof ApiError ? e.errors : undefined;
      if (errors)
        form.setFields(
          Object.entries(errors).map(([name, list]) => ({ name: (name === 'userId' ? 'code' : name) as keyof Values, errors: list })),
        );
      else notification.error({ message: (e as Error).message });
    }
  }

  return (
    <Modal
      open={open}
      title={t('organizations:transfers.new')}
      onOk={() => void save()}
      onCancel={onClose}
      okText={t('organizations:transfers.offer')}
      okButtonProps={{ 'data-testid': 'transfer-submit' } as ButtonProps}
      cancelText={t('buttons.cancel')}
      confirmLoading={saving}
      destroyOnHidden
    >
      {to && <Alert type="info" showIcon message={t('organizations:transfers.offerHint')} className="section-title" />}
      <Form form={form} layout="vertical" data-testid="transfer-form">
        <Form.Item
          label={t('organizations:transfers.memberCode')}
          name="code"
          rules={[{ required: true, whitespace: true, message: t('organizations:members.codeRequired') }]}
          validateStatus={lookupError ? 'error' : undefined}
          help={lookupError ?? (candidate ? `${candidate.user.familyName} ${candidate.user.givenName}` : undefined)}
        >
          <Input
            onBlur={(e) => void lookup(e.target.value)}
            onPressEnter={(e) => void lookup((e.target as HTMLInputElement).value)}
            data-testid="transfer-code"
          />
        </Form.Item>
        <Form.Item
          label={t('organizations:transfers.from')}
          name="fromOrganizationId"
          rules={[{ required: true, message: t('organizations:transfers.pickFrom') }]}
        >
          <Select options={(candidate?.units ?? []).map((o) => ({ value: o.id, label: unitLabel(o) }))} data-testid="transfer-from" />
        </Form.Item>
        <Form.Item
          label={t('organizations:transfers.to')}
          name="toOrganizationId"
          rules={[{ required: true, message: t('organizations:transfers.pickTo') }]}
        >
          <UnitSelect fixed={to} testId="transfer-to" />
        </Form.Item>
        <Form.Item
          label={t('organizations:transfers.reason')}
          name="reason"
          rules={[{ required: true, whitespace: true, message: t('validation:transferReason') }, { max: 500 }]}
        >
          <Input.TextArea rows={2} data-testid="transfer-reason" />
        </Form.Item>
        <Form.Item
          label={t('organizations:transfers.effectiveDate')}
          name="effectiveDate"
          rules={[{ required: true, message: t('validation:dayInvalid') }]}
        >
          <DatePicker format="DD/MM/YYYY" className="full-width" data-testid="transfer-date" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
