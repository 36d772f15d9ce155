import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_ROLE_ASSIGNMENT_ROWS, type AvailableRole, type GrantRolesResponse, type RoleAssignmentLink } from '@doanhoi/shared';
import { useInvalidate, useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Form, Modal, Select, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../providers/http';

/** The "global" choice of the organization picker (a real organization id is never 0). */
const GLOBAL = 0;

interface Row {
  roleId?: number;
  organizationIds: number[];
}

interface Props {
  user: { id: number; name: string } | null;
  onClose: () => void;
}

/** Links → one form row per role: its organizations, or "global". */
function toRows(links: RoleAssignmentLink[]): Row[] {
  const byRole = new Map<number, number[]>();
  for (const l of links.filter((x) => x.isActive)) byRole.set(l.roleId, [...(byRole.get(l.roleId) ?? []), l.organizationId ?? GLOBAL]);
  return [...byRole.entries()].map(([roleId, organizationIds]) => ({ roleId, organizationIds }));
}

/**
 * Assign roles (000 §2): the user's role links as rows of a role and where it applies (global or
 * organizations); saving replaces them (POST /users/{id}/roles). Only roles the caller may grant are offered.
 */
export function RoleAssignmentsModal({ user, onClose }: Props) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const invalidate = useInvalidate();
  const [form] = Form.useForm<{ rows: Row[] }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = user !== null;
  const links = useQuery({ queryKey: ['users', user?.id, 'roles'], queryFn: () => apiRequest<RoleAssignmentLink[]>(`/users/${user!.id}/roles`), enabled: open });
  const available = useQuery({ queryKey: ['users', 'available-roles'], queryFn: () => apiRequest<AvailableRole[]>('/users/available-roles'), enabled: open });
  const organizations = useQuery({
    queryKey: ['organizations', 'accessible'],
    queryFn: () => apiRequest<{ id: number; name: string; code: string }[]>('/organizations/accessible'),
    enabled: open,
  });

  useEffect(() => {
    if (links.data) form.setFieldsValue({ rows: toRows(links.data) });
  }, [links.data, form]);

  async function save() {
    const { rows } = await form.validateFields();
    setSaving(true);
    setError(null);
    try {
      const roleAssignments = rows.map((r) => {
        const isGlobal = r.organizationIds.includes(GLOBAL) || r.organizationIds.length === 0;
        return { roleIds: [r.roleId!], organizationIds: isGlobal ? [] : r.organizationIds, isGlobal };
      });
      const res = await apiRequest<GrantRolesResponse>(`/users/${user!.id}/roles`, { method: 'POST', body: { roleAssignments } });
      notification.success({ message: res.message });
      void invalidate({ resource: 'users', invalidates: ['detail'], id: user!.id });
      void links.refetch();
      onClose();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  }

  const roleOptions = (available.data ?? []).map((r) => ({ value: r.id, label: r.displayName }));
  const orgOptions = [{ value: GLOBAL, label: t('users:roles.global') }, ...(organizations.data ?? []).map((o) => ({ value: o.id, label: `${o.name} (${o.code})` }))];

  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      confirmLoading={saving}
      title={t('users:roles.title', { name: user?.name ?? '' })}
      width={760}
      destroyOnHidden
    >
      {links.isLoading || available.isLoading ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" data-testid="role-assignments">
          {error && <Alert type="error" showIcon message={error} className="section-title" />}
          <Form.List name="rows">
            {(fields, { add, remove }) => (
              <Space direction="vertical" className="full-width">
                {fields.map((field) => (
                  <Space key={field.key} align="start" className="assignment-row">
                    <Form.Item name={[field.name, 'roleId']} rules={[{ required: true, message: t('users:roles.roleRequired') }]}>
                      <Select options={roleOptions} placeholder={t('users:roles.role')} className="assignment-role" aria-label={t('users:roles.role')} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'organizationIds']}>
                      <Select
                        mode="multiple"
                        options={orgOptions}
                        optionFilterProp="label"
                        placeholder={t('users:roles.global')}
                        className="assignment-orgs"
                        aria-label={t('users:roles.where')}
                      />
                    </Form.Item>
                    <Button icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={t('buttons.delete')} />
                  </Space>
                ))}
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ organizationIds: [GLOBAL] })}
                  disabled={fields.length >= MAX_ROLE_ASSIGNMENT_ROWS}
                  data-testid="assignment-add"
                >
                  {t('users:roles.add')}
                </Button>
              </Space>
            )}
          </Form.List>
        </Form>
      )}
    </Modal>
  );
}
