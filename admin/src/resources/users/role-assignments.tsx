import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  fullName,
  MAX_ROLE_ASSIGNMENT_ROWS,
  type AvailableRole,
  type GrantRolesResponse,
  type OrganizationListItem,
  type RoleAssignmentLink,
  type User,
  type UserDetail,
} from '@doanhoi/shared';
import { useCustomMutation, useInvalidate, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Checkbox, Col, Form, Grid, Modal, Row, Select, Space, Spin, Typography, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { GLOBAL_ORGANIZATION as GLOBAL, OrganizationPicker, type KnownOrganization } from '../../components/organization-picker';
import { useRead } from '../../components/data/use-read';
import { API_URL } from '../../providers/http';
import { UserSearchSelect } from './user-search-select';

interface AssignmentRow {
  roleId?: number;
  organizationIds: number[];
}

interface Props {
  /** Assign roles: the user is given. Grant roles: null, and the dialog starts with a user search. */
  user: { id: number; name: string } | null;
  open: boolean;
  onClose: () => void;
}

/** Links → one form row per role: its organizations, or "global". */
function toRows(links: RoleAssignmentLink[]): AssignmentRow[] {
  const byRole = new Map<number, number[]>();
  for (const l of links.filter((x) => x.isActive)) byRole.set(l.roleId, [...(byRole.get(l.roleId) ?? []), l.organizationId ?? GLOBAL]);
  return [...byRole.entries()].map(([roleId, organizationIds]) => ({ roleId, organizationIds }));
}

/**
 * "Global" and organizations exclude each other in one row: choosing an organization after the
 * default "global" keeps the organization only (the old picker kept both and the row was saved global).
 */
export function nextScope(previous: number[], next: number[]): number[] {
  const addedGlobal = next.includes(GLOBAL) && !previous.includes(GLOBAL);
  if (addedGlobal) return [GLOBAL];
  return next.filter((id) => id !== GLOBAL);
}

/** The API's validation messages name the field path ("roleAssignments.1: …"); users see the message only. */
const withoutPath = (message: string) => message.replace(/^[\w.]+\.\d+:\s*/, '');

/**
 * Where a role may be granted by the caller (GET /users/available-roles' grantableIn): anywhere when
 * they may grant it globally, else in a listed organization or beneath it.
 */
const grantableIn = (role: AvailableRole | undefined) => (o: Pick<OrganizationListItem, 'id' | 'ancestorIds'>) =>
  Boolean(
    role &&
    (role.grantableIn.global ||
      role.grantableIn.organizationIds.includes(o.id) ||
      o.ancestorIds.some((a) => role.grantableIn.organizationIds.includes(a))),
  );

type OwnOrganization = { id: number; name: string; code: string; parentName: string | null; ancestorIds: number[] };

/**
 * The user's active organizations for the "apply to the user's organizations" shortcut (000 §4),
 * each with the ancestors its memberships name (joining a unit joins its parents, so the chain is
 * normally whole; a missing link only leaves that unit out, it never offers one the API would refuse).
 */
function ownOrganizations(detail: UserDetail | undefined): OwnOrganization[] {
  const active = (detail?.organizations ?? []).filter((m) => m.isActive).map((m) => m.organization);
  const byId = new Map(active.map((o) => [o.id, o]));
  return active.map((o) => {
    const ancestorIds: number[] = [];
    for (let p = o.parentId; p != null && !ancestorIds.includes(p); p = byId.get(p)?.parentId ?? null) ancestorIds.push(p);
    // The picker shows each unit's parent (000 §2); the parent is one of the memberships as a rule.
    return {
      id: o.id,
      name: o.name,
      code: o.code,
      parentName: o.parentId != null ? (byId.get(o.parentId)?.name ?? null) : null,
      ancestorIds,
    };
  });
}

/**
 * Assign roles and grant roles (000 §2): the user's role links as rows of a role and where it
 * applies (global or organizations); saving replaces them. Only roles the caller may grant are
 * offered, and for each only the scopes the caller may grant it in.
 */
export function RoleAssignmentsModal({ user: given, open, onClose }: Props) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const invalidate = useInvalidate();
  const [form] = Form.useForm<{ rows: AssignmentRow[] }>();
  const [picked, setPicked] = useState<{ id: number; name: string } | null>(null);
  const { mutateAsync, mutation } = useCustomMutation<GrantRolesResponse>();
  const saving = mutation.isPending;
  const [error, setError] = useState<string | null>(null);
  const user = given ?? picked;
  const grantMode = given === null;
  // Read afresh each time the dialog opens: it shows what was just saved (a refetch left running at close would be cancelled).
  const links = useRead<RoleAssignmentLink[]>(`/users/${user?.id}/roles`, { enabled: open && user !== null, fresh: true });
  const available = useRead<AvailableRole[]>('/users/available-roles', { enabled: open });
  // 000 §4: the user's organizations, for the shortcut; a caller who may not read the user only loses the shortcut.
  const detail = useRead<UserDetail>(`/users/${user?.id}`, { enabled: open && user !== null, retry: false });
  const own = ownOrganizations(detail.data);
  const [applyOwn, setApplyOwn] = useState(false);
  const rows = Form.useWatch('rows', form) ?? [];
  // On a phone (390 px) the two columns left the scope 0 px wide: each row stacks the role over its scope there.
  const phone = !Grid.useBreakpoint().sm;

  useEffect(() => {
    if (links.data) form.setFieldsValue({ rows: toRows(links.data) });
  }, [links.data, form]);
  useEffect(() => {
    if (!open) {
      setPicked(null);
      setError(null);
    }
  }, [open]);
  useEffect(() => setApplyOwn(false), [open, user?.id]);

  const roleById = new Map((available.data ?? []).map((r) => [r.id, r]));
  const linked: KnownOrganization[] = (links.data ?? [])
    .filter((l) => l.organization)
    .map((l) => ({ id: l.organization!.id, name: l.organization!.name, code: '' }));
  // The user's own units label a row's picker only where that row's role may be granted: never offered elsewhere.
  const knownFor = (role: AvailableRole | undefined): KnownOrganization[] => [
    ...linked,
    ...own.filter((o) => grantableIn(role)(o) && !linked.some((k) => k.id === o.id)),
  ];
  const inactive = t('users:roles.inactive');
  // A role the user holds but the caller cannot grant (or one switched off) is not in available-roles: it
  // keeps its name, "(inactive)" when switched off (000 §3), instead of showing its bare id.
  const roleOptions = [
    ...(available.data ?? []).map((r) => ({
      value: r.id,
      label: r.isActive ? r.displayName : `${r.displayName} ${inactive}`,
      title: r.description ?? r.displayName,
    })),
    ...[...new Map((links.data ?? []).filter((l) => l.isActive && !roleById.has(l.roleId)).map((l) => [l.roleId, l.role])).values()].map(
      (r) => ({
        value: r.id,
        label: r.isActive ? r.displayName : `${r.displayName} ${inactive}`,
        title: r.description ?? r.displayName,
        disabled: true,
      }),
    ),
  ];

  /** The user's organizations where this row's role may be granted (none while no role is chosen: the role fills it). */
  const ownFor = (roleId: number | undefined) => {
    const role = roleId === undefined ? undefined : roleById.get(roleId);
    return own.filter(grantableIn(role)).map((o) => o.id);
  };
  /** Ticking fills every row with the user's organizations, unticking clears them (000 §4). */
  function toggleOwn(checked: boolean) {
    setApplyOwn(checked);
    const current: AssignmentRow[] = form.getFieldValue('rows') ?? [];
    form.setFieldValue(
      'rows',
      current.map((r) => {
        const fill = ownFor(r.roleId);
        return { ...r, organizationIds: checked ? (fill.length ? fill : r.organizationIds) : [] };
      }),
    );
  }

  function duplicate(all: AssignmentRow[]): string | null {
    const seen = new Set<string>();
    for (const r of all) {
      for (const org of r.organizationIds.length ? r.organizationIds : [GLOBAL]) {
        const key = `${r.roleId}:${org}`;
        if (seen.has(key)) return t('users:roles.duplicate', { role: roleById.get(r.roleId!)?.displayName ?? '' });
        seen.add(key);
      }
    }
    return null;
  }

  async function save() {
    if (!user) return;
    const { rows: values = [] } = await form.validateFields();
    const dup = duplicate(values);
    if (dup) return setError(dup);
    setError(null);
    try {
      // Global only when "Toàn hệ thống" was chosen: an empty scope never becomes global (the validator refuses it first).
      const roleAssignments = values.map((r) => {
        const isGlobal = r.organizationIds.includes(GLOBAL);
        return { roleIds: [r.roleId!], organizationIds: isGlobal ? [] : r.organizationIds, isGlobal };
      });
      const { data: res } = await mutateAsync({
        url: grantMode ? `${API_URL}/roles/grant-roles` : `${API_URL}/users/${user.id}/roles`,
        method: 'post',
        values: grantMode ? { userId: user.id, roleAssignments } : { roleAssignments },
        successNotification: false,
        errorNotification: false,
      });
      notification.success({ message: res.message });
      void invalidate({ resource: 'users', invalidates: ['detail'], id: user.id });
      onClose();
    } catch (e) {
      setError(withoutPath((e as Error).message));
    }
  }

  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      okButtonProps={{ disabled: !user, 'data-testid': 'assignment-save' } as ButtonProps}
      confirmLoading={saving}
      title={grantMode ? t('users:grant.title') : t('users:roles.title', { name: user?.name ?? '' })}
      width={860}
      destroyOnHidden
    >
      {grantMode && (
        <Form layout="vertical">
          <Form.Item label={t('users:grant.user')} required>
            <UserSearchSelect
              autoFocus
              value={picked?.id}
              onPick={(u: User | null) => setPicked(u ? { id: u.id, name: fullName(u) } : null)}
              data-testid="grant-user"
            />
          </Form.Item>
        </Form>
      )}
      {!user ? (
        grantMode && <Typography.Text type="secondary">{t('users:grant.pickUser')}</Typography.Text>
      ) : links.query.isLoading || available.query.isLoading ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" data-testid="role-assignments">
          {error && <Alert type="error" showIcon message={error} className="section-title" data-testid="assignment-error" />}
          <Form.Item>
            <Checkbox
              checked={applyOwn}
              disabled={own.length === 0}
              onChange={(e) => toggleOwn(e.target.checked)}
              data-testid="assignment-apply-own"
            >
              {own.length ? t('users:roles.applyOwn', { count: own.length }) : t('users:roles.applyOwnNone')}
            </Checkbox>
          </Form.Item>
          {!phone && (
            <Row gutter={8} className="assignment-head">
              <Col flex="300px">
                <Typography.Text strong>{t('users:roles.role')}</Typography.Text>
              </Col>
              <Col flex="auto">
                <Typography.Text strong>{t('users:roles.where')}</Typography.Text>
              </Col>
            </Row>
          )}
          <Form.List name="rows">
            {(fields, { add, remove }) => (
              <Space direction="vertical" className="full-width">
                {fields.length === 0 && <Typography.Text type="secondary">{t('users:roles.none')}</Typography.Text>}
                {fields.map((field) => {
                  const role = roleById.get(rows[field.name]?.roleId ?? -1);
                  return (
                    <Row key={field.key} gutter={8} wrap={phone} className="assignment-row" data-testid="assignment-row">
                      <Col flex={phone ? '1 1 0' : '300px'} className="assignment-role-col">
                        <Form.Item
                          name={[field.name, 'roleId']}
                          label={phone ? t('users:roles.role') : undefined}
                          rules={[{ required: true, message: t('users:roles.roleRequired') }]}
                        >
                          <Select
                            options={roleOptions}
                            placeholder={t('users:roles.role')}
                            className="assignment-role"
                            popupMatchSelectWidth={false}
                            aria-label={t('users:roles.role')}
                            onChange={(roleId: number) =>
                              form.setFieldValue(['rows', field.name, 'organizationIds'], applyOwn ? ownFor(roleId) : [])
                            }
                          />
                        </Form.Item>
                      </Col>
                      <Col flex={phone ? '0 0 100%' : 'auto'} order={phone ? 3 : undefined} className="assignment-scope-col">
                        <Form.Item
                          name={[field.name, 'organizationIds']}
                          label={phone ? t('users:roles.where') : undefined}
                          required
                          getValueFromEvent={(next: number[]) => nextScope(rows[field.name]?.organizationIds ?? [], next)}
                          rules={[
                            {
                              validator: async (_, v: number[] = []) => {
                                if (v.length > 0) return;
                                throw new Error(
                                  t(role?.grantableIn.global ? 'users:roles.scopeRequired' : 'users:roles.organizationRequired'),
                                );
                              },
                            },
                          ]}
                        >
                          <OrganizationPicker
                            mode="multiple"
                            known={knownFor(role)}
                            allow={grantableIn(role)}
                            globalLabel={role?.grantableIn.global ? t('users:roles.global') : undefined}
                            placeholder={role?.grantableIn.global ? t('users:roles.chooseScope') : t('users:roles.chooseOrganizations')}
                            className="assignment-orgs"
                            aria-label={t('users:roles.where')}
                          />
                        </Form.Item>
                      </Col>
                      <Col flex="none" order={phone ? 2 : undefined} className={phone ? 'assignment-delete-phone' : undefined}>
                        <Button icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={t('buttons.delete')} />
                      </Col>
                    </Row>
                  );
                })}
                <Space>
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => add({ organizationIds: [] })}
                    disabled={fields.length >= MAX_ROLE_ASSIGNMENT_ROWS}
                    data-testid="assignment-add"
                  >
                    {t('users:roles.add')}
                  </Button>
                  {fields.length >= MAX_ROLE_ASSIGNMENT_ROWS && (
                    <Typography.Text type="warning" data-testid="assignment-max">
                      {t('users:roles.maxReached', { count: MAX_ROLE_ASSIGNMENT_ROWS })}
                    </Typography.Text>
                  )}
                </Space>
              </Space>
            )}
          </Form.List>
        </Form>
      )}
    </Modal>
  );
}
