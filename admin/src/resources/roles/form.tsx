import { createRoleSchema, type Permission } from '@doanhoi/shared';
import { useList, useTranslate } from '@refinedev/core';
import { Form, Input, Modal, Switch, type FormProps, type ModalProps } from 'antd';
import { zodRule } from '../../components/form-rules';
import { PermissionMatrix } from './permission-matrix';
import { useDialogFocus } from '../../components/dialog-focus';

interface Props {
  action: 'create' | 'edit';
  modalProps: ModalProps;
  formProps: FormProps;
}

const rule = zodRule(createRoleSchema);

/** Create and edit share this form; a role's name is its key and cannot change once created. */
export function RoleFormModal({ action, modalProps, formProps }: Props) {
  const t = useTranslate();
  const focus = useDialogFocus();
  const { result } = useList<Permission>({ resource: 'roles/available-permissions', pagination: { mode: 'off' } });
  return (
    <Modal
      {...modalProps}
      afterOpenChange={focus.afterOpenChange}
      title={t(`permissions:${action}.title`)}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      width={860}
      forceRender
    >
      <div ref={focus.ref}>
        <Form
          {...formProps}
          name={`role-${action}`}
          layout="vertical"
          data-testid={`role-${action}-form`}
          initialValues={action === 'create' ? { isActive: true, permissionIds: [] } : formProps.initialValues}
        >
          <Form.Item
            label={t('permissions:fields.name')}
            name="name"
            rules={action === 'create' ? [rule] : []}
            extra={t('permissions:fields.nameHint')}
            required
          >
            <Input maxLength={50} disabled={action === 'edit'} />
          </Form.Item>
          <Form.Item label={t('permissions:fields.displayName')} name="displayName" rules={[rule]} required>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item label={t('permissions:fields.description')} name="description" rules={[rule]}>
            <Input.TextArea rows={2} maxLength={1000} />
          </Form.Item>
          <Form.Item label={t('permissions:fields.isActive')} name="isActive" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label={t('permissions:fields.permissions')} name="permissionIds">
            <PermissionMatrix permissions={result.data ?? []} />
          </Form.Item>
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Modal>
  );
}
