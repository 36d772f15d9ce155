import {
  ALLOWED_PARENTS,
  createOrganizationSchema,
  DEFAULT_PARENT_ROOT,
  ORGANIZATION_TYPES,
  type OrganizationRef,
  type OrganizationSummary,
  type OrganizationType,
} from '@doanhoi/shared';
import { useSelect } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Button, Form, Input, Modal, Select, Typography, type FormProps, type ModalProps } from 'antd';
import { zodRule } from '../../components/form-rules';
import { useDialogFocus } from '../../components/dialog-focus';

interface Props {
  action: 'create' | 'edit';
  modalProps: ModalProps;
  formProps: FormProps;
  /** The organization shown on the page: the new one goes under it (000 §5 "Parent on create"). */
  parent?: OrganizationRef | null;
}

const rule = zodRule(createOrganizationSchema);

/** 000 §5: the types offered under a given parent type; without one, every type (the parent is then chosen by type). */
export function typesUnder(parentType: OrganizationType | null | undefined): OrganizationType[] {
  if (parentType === undefined) return [...ORGANIZATION_TYPES];
  return ORGANIZATION_TYPES.filter((t) =>
    parentType === null ? ALLOWED_PARENTS[t].length === 0 : ALLOWED_PARENTS[t].includes(parentType),
  );
}

/**
 * Create and edit share this dialog (000 §2): name, code, type, description, and on create the
 * parent. On a detail page the parent is the organization shown; on the tree the parent is picked
 * among organizations of the type the chosen type sits under (the roots are defaults where 000 §5 has one).
 */
export function OrganizationFormModal({ action, modalProps, formProps, parent }: Props) {
  const t = useTranslate();
  const focus = useDialogFocus();
  const form = formProps.form!;
  const type = Form.useWatch('type', form) as OrganizationType | undefined;
  const name = Form.useWatch('name', form) as string | undefined;
  const code = Form.useWatch('code', form) as string | undefined;
  const editing = formProps.initialValues as OrganizationSummary | undefined;
  const parentType = ALLOWED_PARENTS[type ?? 'doan_truong'][0];
  const pickParent = action === 'create' && !parent && Boolean(type) && parentType !== undefined;
  const parents = useSelect<OrganizationSummary>({
    resource: 'organizations',
    optionLabel: (o) => `${o.name} (${o.code})`,
    optionValue: 'id',
    filters: [{ field: 'type', operator: 'eq', value: parentType }],
    pagination: { pageSize: 50, mode: 'server' },
    onSearch: (value) => [{ field: 'q', operator: 'contains', value }],
    queryOptions: { enabled: pickParent },
  });

  // On edit the type must still fit the parent it has (the API refuses a move); the parent type is unknown here, so the current type's siblings are offered.
  const options =
    action === 'create'
      ? typesUnder(parent ? parent.type : undefined)
      : editing
        ? ORGANIZATION_TYPES.filter((x) => JSON.stringify(ALLOWED_PARENTS[x]) === JSON.stringify(ALLOWED_PARENTS[editing.type]))
        : [...ORGANIZATION_TYPES];
  const suggestion = !name?.trim() && type && code?.trim() ? `${t(`organizations:types.${type}`)} ${code.trim()}` : null;

  return (
    <Modal
      {...modalProps}
      afterOpenChange={focus.afterOpenChange}
      title={t(`organizations:${action}.title`)}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      forceRender
    >
      <div ref={focus.ref}>
        <Form
          {...formProps}
          name={`organization-${action}`}
          layout="vertical"
          data-testid={`organization-${action}-form`}
          initialValues={action === 'create' ? { type: parent ? typesUnder(parent.type)[0] : undefined } : formProps.initialValues}
        >
          {action === 'create' && parent && (
            <Form.Item label={t('organizations:fields.parent')}>
              <Typography.Text strong data-testid="organization-form-parent">
                {parent.name}
              </Typography.Text>
            </Form.Item>
          )}
          <Form.Item label={t('organizations:fields.type')} name="type" rules={[rule]} required>
            <Select
              options={options.map((x) => ({ value: x, label: t(`organizations:types.${x}`) }))}
              disabled={options.length === 1}
              onChange={() => form.setFieldValue('parentId', undefined)}
              data-testid="organization-form-type"
            />
          </Form.Item>
          {pickParent && (
            <Form.Item
              label={t('organizations:fields.parent')}
              name="parentId"
              rules={DEFAULT_PARENT_ROOT[type!] ? [] : [{ required: true, message: t('organizations:form.parentRequired') }]}
              extra={
                DEFAULT_PARENT_ROOT[type!]
                  ? t('organizations:form.parentDefault', { type: t(`organizations:types.${DEFAULT_PARENT_ROOT[type!]}`) })
                  : undefined
              }
            >
              <Select {...parents.selectProps} allowClear data-testid="organization-form-parent-select" />
            </Form.Item>
          )}
          <Form.Item label={t('organizations:fields.code')} name="code" rules={[rule]} required>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item
            label={t('organizations:fields.name')}
            name="name"
            rules={[rule]}
            required
            extra={
              suggestion && (
                <Button
                  type="link"
                  size="small"
                  className="inline-link"
                  onClick={() => form.setFieldValue('name', suggestion)}
                  data-testid="organization-name-suggestion"
                >
                  {t('organizations:form.suggest', { name: suggestion })}
                </Button>
              )
            }
          >
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label={t('organizations:fields.description')} name="description" rules={[rule]}>
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Modal>
  );
}
