import { createClassSchema, type Department } from '@doanhoi/shared';
import { useSelect } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Form, Input, InputNumber, Modal, Select, Switch, type FormProps, type ModalProps } from 'antd';
import { zodRule } from '../../components/form-rules';
import { useDialogFocus } from '../../components/dialog-focus';

interface Props {
  action: 'create' | 'edit';
  modalProps: ModalProps;
  formProps: FormProps;
}

const rule = zodRule(createClassSchema);

/** Create and edit share this modal form; the rules are the API's own schema (shared). */
export function ClassFormModal({ action, modalProps, formProps }: Props) {
  const t = useTranslate();
  const focus = useDialogFocus();
  const { selectProps } = useSelect<Department>({
    resource: 'departments',
    optionLabel: 'name',
    optionValue: 'id',
    pagination: { pageSize: 1000, mode: 'server' },
    filters: [{ field: 'isActive', operator: 'eq', value: true }],
    // The API searches name and code through `search` (the data provider's `q`).
    onSearch: (value) => [{ field: 'q', operator: 'contains', value }],
  });
  return (
    <Modal
      {...modalProps}
      afterOpenChange={focus.afterOpenChange}
      title={t(`classes:${action}.title`)}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      forceRender
    >
      <div ref={focus.ref}>
        <Form
          {...formProps}
          name={`class-${action}`}
          layout="vertical"
          data-testid={`class-${action}-form`}
          initialValues={action === 'create' ? { isActive: true, year: new Date().getFullYear() } : formProps.initialValues}
        >
          <Form.Item label={t('classes:fields.name')} name="name" rules={[rule]} required>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label={t('classes:fields.code')} name="code" rules={[rule]}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item label={t('classes:fields.year')} name="year" rules={[rule]} required>
            <InputNumber className="full-width" />
          </Form.Item>
          <Form.Item label={t('classes:fields.department')} name="departmentId">
            <Select {...selectProps} allowClear placeholder={t('classes:fields.noDepartment')} />
          </Form.Item>
          <Form.Item label={t('classes:fields.isActive')} name="isActive" valuePropName="checked">
            <Switch />
          </Form.Item>
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Modal>
  );
}
