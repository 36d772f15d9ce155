import { MEMBERSHIP_END_REASONS, MEMBERSHIP_STATUSES, USER_TYPES, type ClassItem, type Department } from '@doanhoi/shared';
import type { UserBulkSet } from '@doanhoi/shared/schemas/users-bulk';
import { useSelect } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Checkbox, DatePicker, Form, Input, Select, type FormInstance } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { OrganizationPicker } from '../../components/organization-picker';

/** The fields a bulk edit may set (the dialog shows them in this order). */
type Field =
  | 'membershipStatus'
  | 'userType'
  | 'classId'
  | 'managementDepartmentId'
  | 'trainingDepartmentId'
  | 'isActive'
  | 'addToOrganizationId'
  | 'endMembership';
/** Adding to a unit and ending a membership are one change each: ticking one unticks the other. */
const MEMBERSHIP: Field[] = ['addToOrganizationId', 'endMembership'];
const NONE = 'none';

export interface BulkEditValues {
  change?: Partial<Record<Field, boolean>>;
  membershipStatus?: string;
  userType?: string;
  /** 'none' clears the class or department. */
  classId?: number | typeof NONE;
  managementDepartmentId?: number | typeof NONE;
  trainingDepartmentId?: number | typeof NONE;
  isActive?: 'true' | 'false';
  addToOrganizationId?: number;
  endOrganizationId?: number;
  endReason?: string;
  endedAt?: Dayjs | null;
  endNote?: string;
}

/** The request's `set` from the ticked fields. */
export function toSet(v: BulkEditValues): UserBulkSet {
  const on = (f: Field) => v.change?.[f] === true;
  const ref = (x: number | typeof NONE | undefined) => (x === NONE ? null : x);
  const set: Record<string, unknown> = {};
  if (on('membershipStatus')) set.membershipStatus = v.membershipStatus;
  if (on('userType')) set.userType = v.userType;
  for (const f of ['classId', 'managementDepartmentId', 'trainingDepartmentId'] as const) if (on(f)) set[f] = ref(v[f]);
  if (on('isActive')) set.isActive = v.isActive === 'true';
  if (on('addToOrganizationId')) set.addToOrganizationId = v.addToOrganizationId;
  if (on('endMembership')) {
    set.endMembership = {
      organizationId: v.endOrganizationId,
      reason: v.endReason,
      endedAt: v.endedAt ? v.endedAt.format('YYYY-MM-DD') : undefined,
      note: v.endNote?.trim() || undefined,
    };
  }
  return set as UserBulkSet;
}

const page = { pageSize: 1000, mode: 'server' as const };
const searchByQ = (value: string) => [{ field: 'q', operator: 'contains' as const, value }];

/** One row per field: a tick "change this", then its value (required once ticked). */
export function BulkEditFields({ form }: { form: FormInstance<BulkEditValues> }) {
  const t = useTranslate();
  const change = Form.useWatch('change', form) ?? {};
  const classes = useSelect<ClassItem>({
    resource: 'classes',
    optionLabel: 'name',
    optionValue: 'id',
    pagination: page,
    onSearch: searchByQ,
  });
  const departments = useSelect<Department>({
    resource: 'departments',
    optionLabel: 'name',
    optionValue: 'id',
    pagination: page,
    onSearch: searchByQ,
  });
  const none = { value: NONE, label: t('bulkEdit:ui.none') };
  const required = [{ required: true, message: t('bulkEdit:ui.required') }];
  const label = (f: Field) => t(`bulkEdit:ui.fields.${f}`);

  const tick = (f: Field) => (checked: boolean) => {
    if (checked && MEMBERSHIP.includes(f)) form.setFieldValue(['change', MEMBERSHIP.find((m) => m !== f)!], false);
  };
  const row = (f: Field, input: ReactNode, name: string = f) => (
    <div className="bulk-edit-row" key={f}>
      <Form.Item name={['change', f]} valuePropName="checked" noStyle>
        <Checkbox onChange={(e) => tick(f)(e.target.checked)} data-testid={`bulk-edit-change-${f}`}>
          {label(f)}
        </Checkbox>
      </Form.Item>
      {change[f] && (
        <Form.Item name={name} rules={required} aria-label={label(f)} className="bulk-edit-value">
          {input}
        </Form.Item>
      )}
    </div>
  );

  return (
    <Form form={form} layout="vertical" data-testid="bulk-edit-form">
      <p>{t('bulkEdit:ui.choose')}</p>
      {row(
        'membershipStatus',
        <Select
          aria-label={label('membershipStatus')}
          data-testid="bulk-edit-membershipStatus"
          options={MEMBERSHIP_STATUSES.map((v) => ({ value: v, label: t(`users:membership.${v}`) }))}
        />,
      )}
      {row(
        'userType',
        <Select
          aria-label={label('userType')}
          data-testid="bulk-edit-userType"
          options={USER_TYPES.map((v) => ({ value: v, label: t(`users:userType.${v}`) }))}
        />,
      )}
      {row(
        'classId',
        <Select {...classes.selectProps} aria-label={label('classId')} options={[none, ...(classes.selectProps.options ?? [])]} />,
      )}
      {row(
        'managementDepartmentId',
        <Select
          {...departments.selectProps}
          aria-label={label('managementDepartmentId')}
          options={[none, ...(departments.selectProps.options ?? [])]}
        />,
      )}
      {row(
        'trainingDepartmentId',
        <Select
          {...departments.selectProps}
          aria-label={label('trainingDepartmentId')}
          options={[none, ...(departments.selectProps.options ?? [])]}
        />,
      )}
      {row(
        'isActive',
        <Select
          aria-label={label('isActive')}
          data-testid="bulk-edit-isActive"
          options={[
            { value: 'true', label: t('catalogue.active') },
            { value: 'false', label: t('catalogue.inactive') },
          ]}
        />,
      )}
      {row('addToOrganizationId', <OrganizationPicker aria-label={label('addToOrganizationId')} data-testid="bulk-edit-add-org" />)}
      {row(
        'endMembership',
        <OrganizationPicker aria-label={label('endMembership')} data-testid="bulk-edit-end-org" />,
        'endOrganizationId',
      )}
      {change.endMembership && (
        <div className="bulk-edit-row">
          <Form.Item name="endReason" label={t('bulkEdit:ui.fields.reason')} rules={required}>
            <Select
              data-testid="bulk-edit-end-reason"
              options={MEMBERSHIP_END_REASONS.map((r) => ({ value: r, label: t(`bulkEdit:ui.reasons.${r}`) }))}
            />
          </Form.Item>
          <Form.Item name="endedAt" label={t('bulkEdit:ui.fields.endedAt')}>
            <DatePicker format="DD/MM/YYYY" />
          </Form.Item>
          <Form.Item name="endNote" label={t('bulkEdit:ui.fields.note')}>
            <Input maxLength={500} />
          </Form.Item>
        </div>
      )}
    </Form>
  );
}
