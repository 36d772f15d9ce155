import { createUserSchema, EMAIL_MAX, MEMBERSHIP_STATUSES, USER_TYPES, type ClassItem, type Department } from '@doanhoi/shared';
import { useSelect } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Col, Form, Input, Modal, Row, Select, Switch, type FormProps, type ModalProps } from 'antd';
import { zodRule } from '../../components/form-rules';
import { OrganizationPicker, type KnownOrganization } from '../../components/organization-picker';
import { useDialogFocus } from '../../components/dialog-focus';
import { MemberRecordFields } from './record-fields';

interface Props {
  action: 'create' | 'edit';
  modalProps: ModalProps;
  formProps: FormProps;
  /** Edit: the user's current organizations, so the picker shows them before any search. */
  memberships?: KnownOrganization[];
}

const rule = zodRule(createUserSchema);
const searchByQ = (value: string) => [{ field: 'q', operator: 'contains' as const, value }];

/**
 * Create and edit share this form. A new user joins one organization (and its parents); editing
 * changes the whole list of organizations (PUT /users/{id}/organizations after the basic info, 000 §4).
 */
export function UserFormModal({ action, modalProps, formProps, memberships }: Props) {
  const t = useTranslate();
  const focus = useDialogFocus();
  const page = { pageSize: 1000, mode: 'server' as const };
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
  return (
    <Modal
      {...modalProps}
      afterOpenChange={focus.afterOpenChange}
      title={t(`users:${action}.title`)}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      width={760}
      forceRender
    >
      <div ref={focus.ref}>
        <Form
          {...formProps}
          name={`user-${action}`}
          layout="vertical"
          data-testid={`user-${action}-form`}
          initialValues={action === 'create' ? { userType: 'student', membershipStatus: 'none', isActive: true } : formProps.initialValues}
        >
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item label={t('users:fields.code')} name="code" rules={[rule]} required>
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col xs={24} md={10}>
              <Form.Item label={t('users:fields.familyName')} name="familyName" rules={[rule]} required>
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item label={t('users:fields.givenName')} name="givenName" rules={[rule]} required>
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={t('users:fields.email')} name="email" rules={[rule]} required>
                <Input maxLength={EMAIL_MAX} type="email" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={t('users:fields.phone')} name="phone" rules={[rule]} required>
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                label={t(action === 'create' ? 'users:fields.password' : 'users:fields.newPassword')}
                name="password"
                rules={[rule]}
                extra={t(`users:fields.passwordHint.${action}`)}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item label={t('users:fields.userType')} name="userType">
                <Select options={USER_TYPES.map((v) => ({ value: v, label: t(`users:userType.${v}`) }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item label={t('users:fields.isActive')} name="isActive" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={t('users:fields.membershipStatus')} name="membershipStatus">
                <Select options={MEMBERSHIP_STATUSES.map((v) => ({ value: v, label: t(`users:membership.${v}`) }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={t('users:fields.class')} name="classId">
                <Select {...classes.selectProps} allowClear placeholder={t('users:fields.none')} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={t('users:fields.managementDepartment')} name="managementDepartmentId">
                <Select {...departments.selectProps} allowClear placeholder={t('users:fields.none')} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={t('users:fields.trainingDepartment')} name="trainingDepartmentId">
                <Select {...departments.selectProps} allowClear placeholder={t('users:fields.none')} />
              </Form.Item>
            </Col>
            <MemberRecordFields />
            {action === 'create' ? (
              <Col span={24}>
                <Form.Item
                  label={t('users:fields.organization')}
                  name="organizationId"
                  rules={[rule]}
                  extra={t('users:fields.organizationHint')}
                >
                  <OrganizationPicker allowClear placeholder={t('users:fields.none')} />
                </Form.Item>
              </Col>
            ) : (
              <Col span={24}>
                <Form.Item label={t('users:fields.organizations')} name="organizationIds" extra={t('users:fields.organizationsHint')}>
                  <OrganizationPicker
                    mode="multiple"
                    allowClear
                    known={memberships}
                    placeholder={t('users:fields.none')}
                    data-testid="user-organizations"
                  />
                </Form.Item>
              </Col>
            )}
          </Row>
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Modal>
  );
}
