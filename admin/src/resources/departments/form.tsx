import { createDepartmentSchema } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Form, Input, Modal, Switch, type FormProps, type ModalProps } from 'antd';
import { zodRule } from '../../components/form-rules';
import { useDialogFocus } from '../../components/dialog-focus';

interface Props {
  action: 'create' | 'edit';
  modalProps: ModalProps;
  formProps: FormProps;
}

const rule = zodRule(createDepartmentSchema);

/** Create and edit share this modal form; the rules are the API's own schema (shared). */
export function DepartmentFormModal({ action, modalProps, formProps }: Props) {
  const t = useTranslate();
  const focus = useDialogFocus();
  return (
    <Modal
      {...modalProps}
      afterOpenChange={focus.afterOpenChange}
      title={t(`departments:${action}.title`)}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      forceRender
    >
      <div ref={focus.ref}>
        <Form
          {...formProps}
          name={`department-${action}`}
          layout="vertical"
          data-testid={`department-${action}-form`}
          initialValues={action === 'create' ? { isActive: true } : formProps.initialValues}
        >
          <Form.Item label={t('departments:fields.name')} name="name" rules={[rule]} required>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label={t('departments:fields.code')} name="code" rules={[rule]}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item label={t('departments:fields.description')} name="description" rules={[rule]}>
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
          <Form.Item label={t('departments:fields.isActive')} name="isActive" valuePropName="checked">
            <Switch />
          </Form.Item>
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Modal>
  );
}
