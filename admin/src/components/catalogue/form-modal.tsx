import { useTranslate } from '@refinedev/core';
import { Form, Input, Modal, Switch, type FormItemProps, type FormProps, type ModalProps } from 'antd';
import type { ReactNode } from 'react';
import { useDialogFocus } from '../dialog-focus';

export interface CatalogueFormProps {
  action: 'create' | 'edit';
  modalProps: ModalProps;
  formProps: FormProps;
}

interface Props extends CatalogueFormProps {
  /** The resource's translation namespace and test-id prefix: `departments` / `department`. */
  ns: string;
  testId: string;
  /** The shared schema's rule (the API's own validation). */
  rule: NonNullable<FormItemProps['rules']>[number];
  /** What a new record starts with besides being active. */
  createDefaults?: Record<string, unknown>;
  /** The resource's own fields, between the code and the active switch. */
  children: ReactNode;
}

/** The create/edit dialog of a catalogue (departments, classes): name, code, their own fields, active. */
export function CatalogueFormModal({ action, modalProps, formProps, ns, testId, rule, createDefaults, children }: Props) {
  const t = useTranslate();
  const focus = useDialogFocus();
  return (
    <Modal
      {...modalProps}
      afterOpenChange={focus.afterOpenChange}
      title={t(`${ns}:${action}.title`)}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      forceRender
    >
      <div ref={focus.ref}>
        <Form
          {...formProps}
          name={`${testId}-${action}`}
          layout="vertical"
          data-testid={`${testId}-${action}-form`}
          initialValues={action === 'create' ? { isActive: true, ...createDefaults } : formProps.initialValues}
        >
          <Form.Item label={t(`${ns}:fields.name`)} name="name" rules={[rule]} required>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label={t(`${ns}:fields.code`)} name="code" rules={[rule]}>
            <Input maxLength={50} />
          </Form.Item>
          {children}
          <Form.Item label={t(`${ns}:fields.isActive`)} name="isActive" valuePropName="checked">
            <Switch />
          </Form.Item>
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Modal>
  );
}
