import { createCampaignSchema, VN_OFFSET_MS, type Campaign } from '@doanhoi/shared';
import { useModalForm } from '../../components/form-errors';
import { useTranslate, type BaseRecord, type GetOneResponse } from '@refinedev/core';
import { Col, DatePicker, Form, Input, Modal, Row, Select, Spin, TimePicker, type FormProps, type ModalProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useDialogFocus } from '../../components/dialog-focus';
import { zodRule } from '../../components/form-rules';
import { useRead } from '../../components/data/use-read';

interface Props {
  action: 'create' | 'edit';
  modalProps: ModalProps;
  formProps: FormProps;
  /** The record is still loading: nothing can be typed yet (it would be replaced by the loaded values). */
  loading?: boolean;
}

export interface CampaignFormValues {
  organizationId?: number;
  /** Shown (not sent) on edit, where the organization cannot change. */
  organizationName?: string;
  name?: string;
  description?: string;
  startDate?: Dayjs;
  startTime?: Dayjs;
  endDate?: Dayjs;
  endTime?: Dayjs;
}

const rule = zodRule(createCampaignSchema);
/** The instant shown as Vietnam wall-clock time (whatever the browser's zone), as the API reads a zone-less date-time (001 §4). */
const vnLocal = (iso: string) => dayjs(iso).add(VN_OFFSET_MS / 60_000 - dayjs(iso).utcOffset(), 'minute');

/** The API's campaign → the form's separate date and time fields. */
export function toFormValues(c: Campaign): CampaignFormValues {
  const s = vnLocal(c.startDate);
  const e = vnLocal(c.endDate);
  return {
    organizationId: c.organizationId,
    organizationName: c.organization?.name,
    name: c.name,
    description: c.description ?? undefined,
    startDate: s,
    startTime: s,
    endDate: e,
    endTime: e,
  };
}

/** The form's defaults (001 §2, §9): a cleared time means the start or the end of its day, never 00:00 of the end date. */
const START_TIME = '00:00';
const END_TIME = '23:59';

/** The form's fields → the API body ('YYYY-MM-DDTHH:mm:00', Vietnam time). */
export function toBody(v: CampaignFormValues) {
  const at = (d: Dayjs | undefined, time: Dayjs | null | undefined, fallback: string) =>
    d ? `${d.format('YYYY-MM-DD')}T${time ? time.format('HH:mm') : fallback}:00` : undefined;
  return {
    organizationId: v.organizationId,
    name: v.name,
    description: v.description,
    startDate: at(v.startDate, v.startTime, START_TIME),
    endDate: at(v.endDate, v.endTime, END_TIME),
  };
}

/** The end must come after the start (001 §5 rule 7), checked on the end date field with the defaults above. */
function endAfterStart(message: string) {
  return ({ getFieldsValue }: { getFieldsValue: (names: string[]) => CampaignFormValues }) => ({
    validator() {
      const b = toBody(getFieldsValue(['startDate', 'startTime', 'endDate', 'endTime']));
      return b.startDate && b.endDate && b.endDate <= b.startDate ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });
}

/**
 * Module-level, so its identity is stable: an inline `select` re-runs on every render and hands
 * Refine a new record each time, and Refine resets the form whenever the record changes, wiping
 * what the user has typed.
 */
function selectFormValues(res: GetOneResponse<BaseRecord>): GetOneResponse<BaseRecord> {
  return { ...res, data: toFormValues(res.data as Campaign) as unknown as BaseRecord };
}

/** The edit dialog's form: loaded once per opening, never re-filled behind the user's back. */
export function useCampaignEditForm(onSaved?: () => void) {
  const form = useModalForm<Campaign>({
    resource: 'payment-campaigns',
    action: 'edit',
    redirect: false,
    queryOptions: { select: selectFormValues as never, refetchOnWindowFocus: false, refetchOnReconnect: false },
    onMutationSuccess: () => onSaved?.(),
  });
  // Refine copies loaded values into the form in a passive effect (resetFields), which runs some
  // time after the render that brings the data: on a busy machine seconds later, wiping whatever
  // was typed meanwhile. This effect is declared after Refine's, so it runs after that reset in the
  // same flush; until then the form stays disabled.
  const data = form.query?.data?.data;
  const [filled, setFilled] = useState<unknown>(undefined);
  useEffect(() => setFilled(data), [data]);
  const loading = form.open && (form.query?.isFetching === true || data === undefined || filled !== data);
  return { ...form, loading };
}

/** Create and edit (001 §2): the organization is chosen once; start defaults to 00:00, end to 23:59. */
export function CampaignFormModal({ action, modalProps, formProps, loading = false }: Props) {
  const t = useTranslate();
  const orgs = useRead<{ data: { id: number; name: string; code: string }[] }>('/payment-campaigns/accessible-organizations', {
    enabled: action === 'create',
  });
  const editing = formProps.initialValues as CampaignFormValues | undefined;
  const options =
    action === 'create'
      ? (orgs.data?.data ?? []).map((o) => ({ value: o.id, label: `${o.name} (${o.code})` }))
      : [{ value: editing?.organizationId, label: editing?.organizationName ?? 'N/A' }];
  const focus = useDialogFocus();
  return (
    <Modal
      {...modalProps}
      afterOpenChange={focus.afterOpenChange}
      title={t(`campaigns:form.${action}`)}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      width={720}
      forceRender
      okButtonProps={{ ...modalProps.okButtonProps, disabled: loading }}
    >
      <Spin spinning={loading}>
        <div ref={focus.ref}>
          <Form
            {...formProps}
            disabled={loading}
            onFinish={(v) => formProps.onFinish?.(toBody(v as CampaignFormValues))}
            // Enter in a date or time field confirms the typed value there; it must not also submit the dialog.
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.target as HTMLElement).closest('.ant-picker')) e.preventDefault();
            }}
            name={`campaign-${action}`}
            layout="vertical"
            data-testid={`campaign-${action}-form`}
            initialValues={
              action === 'create' ? { startTime: dayjs(START_TIME, 'HH:mm'), endTime: dayjs(END_TIME, 'HH:mm') } : formProps.initialValues
            }
          >
            <Form.Item
              label={t('campaigns:fields.organization')}
              name="organizationId"
              rules={action === 'create' ? [{ required: true, message: t('validation:organizationRequired') }] : []}
            >
              <Select
                options={options}
                disabled={action === 'edit'}
                loading={orgs.query.isLoading}
                showSearch
                optionFilterProp="label"
                placeholder={t('campaigns:fields.organizationPlaceholder')}
              />
            </Form.Item>
            <Form.Item label={t('campaigns:fields.name')} name="name" rules={[rule]} required>
              <Input maxLength={200} />
            </Form.Item>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item
                  label={t('campaigns:fields.startDate')}
                  name="startDate"
                  rules={[{ required: true, message: t('validation:startDateRequired') }]}
                >
                  <DatePicker format="DD/MM/YYYY" className="full-width" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  label={t('campaigns:fields.startTime')}
                  name="startTime"
                  extra={t('campaigns:fields.timeDefault', { time: START_TIME })}
                >
                  <TimePicker format="HH:mm" className="full-width" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  label={t('campaigns:fields.endDate')}
                  name="endDate"
                  dependencies={['startDate', 'startTime', 'endTime']}
                  rules={[{ required: true, message: t('validation:endDateRequired') }, endAfterStart(t('validation:dateRange'))]}
                >
                  <DatePicker format="DD/MM/YYYY" className="full-width" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  label={t('campaigns:fields.endTime')}
                  name="endTime"
                  extra={t('campaigns:fields.timeDefault', { time: END_TIME })}
                >
                  <TimePicker format="HH:mm" className="full-width" />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item label={t('campaigns:fields.description')} name="description">
              <Input.TextArea rows={3} maxLength={2000} />
            </Form.Item>
            {/* Enter in a field submits the dialog (000 keyboard use). */}
            <button type="submit" hidden aria-hidden />
          </Form>
        </div>
      </Spin>
    </Modal>
  );
}
