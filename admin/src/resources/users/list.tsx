import { DownOutlined, PlusOutlined, SafetyOutlined } from '@ant-design/icons';
import {
  formatDate,
  formatNumber,
  fullName,
  MEMBERSHIP_STATUSES,
  USER_EXPORT_FIELDS,
  USER_IMPORT_COLUMNS,
  USER_TYPES,
  type User,
  type UserDetail,
  type UserListItem,
} from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useModalForm } from '../../components/form-errors';
import { useCan, useCustomMutation, useGetIdentity, useGetLocale, useTranslate, type BaseKey } from '@refinedev/core';
import { App, Button, Dropdown, Empty, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState, type Key } from 'react';
import { useSearchParams } from 'react-router';
import type { KnownOrganization } from '../../components/organization-picker';
import { API_URL } from '../../providers/http';
import { BulkBar } from '../../components/catalogue/bulk-bar';
import { PageHeader } from '../../components/page-header';
import { LoadError, RowActions } from '../../components/catalogue/row-actions';
import { useCatalogueActions } from '../../components/catalogue/use-catalogue-actions';
import { useForgetOnClose } from '../../components/catalogue/use-forget-on-close';
import { useOpened } from '../../components/catalogue/use-opened';
import { ExportDialog } from '../../components/export-dialog';
import { ImportWizard } from '../../components/import-wizard';
import { ListSearch, tableSearch } from '../../components/list-search';
import { ANYWHERE, useRights } from '../../components/permission-guard/use-allowed';
import type { UserBulkFilterInput } from '@doanhoi/shared/schemas/users-bulk';
import { BulkEditMenu } from './bulk-edit';
import { UserFormModal } from './form';
import { RoleAssignmentsModal } from './role-assignments';
import { UserShowModal } from './show';
import { useUserRowRights } from './use-row-rights';

/** The edit form edits ids; the API returns the class, departments and memberships as objects. */
const toFormValues = (u: UserDetail) => ({
  ...u,
  classId: u.class?.id ?? null,
  managementDepartmentId: u.managementDepartment?.id ?? null,
  trainingDepartmentId: u.trainingDepartment?.id ?? null,
  organizationIds: activeMemberships(u).map((o) => o.id),
});

const activeMemberships = (u: UserDetail): KnownOrganization[] =>
  u.organizations.filter((m) => m.isActive).map((m) => ({ id: m.organization.id, name: m.organization.name, code: m.organization.code }));

/** Codes held anywhere that offer row actions or a bulk edit (the API checks every row itself). */
const BULK_EDIT_CODES = ['users.update', 'organizations.add_member', 'organizations.manage_members', 'organizations.end_membership'];
const ANYWHERE_CODES = [...BULK_EDIT_CODES, 'users.delete', 'users.roles.manage'];
const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

/** /users (000 §2): filters, the users table, and a dialog per action. */
export function UserList() {
  const t = useTranslate();
  const numberLocale = useGetLocale()() === 'en' ? 'en-US' : 'vi-VN';
  const [selected, setSelected] = useState<Key[]>([]);
  const [viewing, setViewing] = useState<BaseKey | null>(null);
  const [dialog, setDialog] = useState<'import' | 'export' | null>(null);
  const table = useTable<UserListItem>({ resource: 'users', syncWithLocation: true });
  const { tableProps, filters, setFilters, tableQuery } = table;
  const { can, confirmDelete, confirmBulkDelete, bulkDeleting } = useCatalogueActions('users', () => setSelected([]), 'users/bulk-delete');
  const canExport = useCan({ resource: 'users', action: 'export' }).data?.can ?? false;
  // "Assign roles" only with users.roles.manage (000 §2).
  const canAssign = useCan({ resource: 'users', action: 'roles.manage' }).data?.can ?? false;
  const [assigning, setAssigning] = useState<{ id: number; name: string } | null>(null);
  // Row actions follow the row user's organizations, not the header's (row-rights.ts); the roles are the same in every context.
  const rights = useUserRowRights(tableProps.dataSource ?? []);
  const anywhere = useRights(ANYWHERE_CODES, ANYWHERE).has;
  // The server refuses to delete the signed-in account (issue 25 item 6): not offered for it.
  const me = useGetIdentity<{ id: number }>().data?.id;
  // What the server refuses is not offered (issue 25 item 6): the own account, a user with paid fees.
  const deleteBlocked = (u: UserListItem) =>
    u.id === me ? t('users:deleteSelfBlocked') : u.hasPaidFees ? t('users:deletePaidBlocked') : null;
  const anyRowAction = can.show || ['users.update', 'users.delete', 'users.roles.manage'].some(anywhere);
  // Bulk edit (issue 30 item 6, bulk-edit.tsx): for whoever may change users or memberships somewhere; the API checks every row.
  const canBulkEdit = BULK_EDIT_CODES.some(anywhere);
  // Any row may be ticked for a bulk edit: the preview names the rows the caller may not change.
  const selectable = (u: UserListItem) => canBulkEdit || (rights(u).delete && !deleteBlocked(u));
  // Delete is offered only while every ticked row may be deleted (rows may now be ticked for a bulk edit).
  const selectedRows = (tableProps.dataSource ?? []).filter((u) => selected.includes(u.id));
  const deletableSelection = selectedRows.length === selected.length && selectedRows.every((u) => rights(u).delete && !deleteBlocked(u));
  const [granting, setGranting] = useState(false);
  const { notification } = App.useApp();
  const [params, setParams] = useSearchParams();
  const create = useModalForm<User>({
    resource: 'users',
    action: 'create',
    redirect: false,
    successNotification: () => ({ type: 'success', message: t('users:create.success') }),
    errorNotification: (e) => ({ type: 'error', message: t('users:create.failed'), description: e?.message }),
  });
  /** The organizations the edited user had, and those the form asks for; the membership step runs only when they differ. */
  const memberships = useRef<{ before: number[]; after: number[] | undefined }>({ before: [], after: undefined });
  const { mutateAsync: saveMemberships } = useCustomMutation<{ added: number; removed: number; keptParents: number }>();
  const edit = useModalForm<User>({
    resource: 'users',
    action: 'edit',
    redirect: false,
    queryOptions: { select: (res) => ({ ...res, data: toFormValues(res.data as unknown as UserDetail) as unknown as User }) },
    successNotification: false,
    errorNotification: (e) => ({ type: 'error', message: t('users:edit.failed'), description: e?.message }),
    // 000 §4: basic info first, then the memberships, then the user is read again; a failed second step says the first one held.
    onMutationSuccess: async (_data, _vars) => {
      const { before, after } = memberships.current;
      const id = editingId.current;
      if (after === undefined || id == null || sameSet(before, after)) {
        notification.success({ message: t('users:edit.success') });
        return;
      }
      try {
        const { data: res } = await saveMemberships({
          url: `${API_URL}/users/${id}/organizations`,
          method: 'put',
          values: { organizationIds: after },
          successNotification: false,
          errorNotification: false,
        });
        notification.success({ message: t('users:edit.success'), description: t('users:edit.membershipsChanged', res) });
      } catch (e) {
        notification.error({ message: t('users:edit.membershipFailed'), description: (e as Error).message, duration: 0 });
      } finally {
        void tableQuery.refetch();
      }
    },
  });
  useForgetOnClose(edit);
  // The two form dialogs (each a full form with class and department pickers) mount on first open, not with the table.
  const createOpened = useOpened(create.modalProps.open);
  const editOpened = useOpened(edit.modalProps.open);
  const editingId = useRef<BaseKey | null>(null);
  const editedUser = edit.query?.data?.data as unknown as (UserDetail & { organizationIds: number[] }) | undefined;
  const openEdit = (id: BaseKey) => {
    editingId.current = id;
    edit.show(id);
  };
  // A link to /users?edit=ID opens that user's edit dialog (deep link); the URL is not rewritten while editing.
  useEffect(() => {
    const wanted = params.get('edit');
    if (wanted && !edit.modalProps.open) openEdit(Number(wanted));
    // Only on arrival: later changes of the URL come from this screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Only a dialog that was open and closed drops ?edit= (on arrival the link itself opens it).
  const wasOpen = useRef(false);
  useEffect(() => {
    const closed = wasOpen.current && !edit.modalProps.open;
    wasOpen.current = Boolean(edit.modalProps.open);
    if (closed && params.has('edit')) {
      setParams(
        (p) => {
          p.delete('edit');
          return p;
        },
        { replace: true },
      );
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [edit.modalProps.open]);

  const value = (field: string) => getDefaultFilter(field, filters, field === 'q' ? 'contains' : 'eq') as string | undefined;
  const setFilter = (field: string, v: unknown) =>
    setFilters([{ field, operator: field === 'q' ? 'contains' : 'eq', value: v === '' || v === 'all' ? undefined : v }], 'merge');
  const filtered = ['q', 'userType', 'membershipStatus', 'isActive'].some((f) => value(f) !== undefined);
  const select = (field: string, values: readonly string[], label: (v: string) => string) => (
    <Select
      value={value(field) === undefined ? 'all' : String(value(field))}
      onChange={(v) => setFilter(field, v)}
      options={[{ value: 'all', label: t(`users:filters.all.${field}`) }, ...values.map((v) => ({ value: v, label: label(v) }))]}
      className="status-filter"
      aria-label={t(`users:fields.${field}`)}
      data-testid={`user-filter-${field}`}
    />
  );

  // A search past the API's count cap: "10.000+" (users/index-statements.ts countedMatches).
  const capped = tableQuery.data?.totalCapped === true;
  const countedTo = formatNumber(tableQuery.data?.total ?? 0, numberLocale);
  const shownTotal = capped ? `${countedTo}+` : (tableQuery.data?.total ?? 0);
  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="users-error" />;

  const addItems = [
    can.create && { key: 'single', label: t('users:add.single'), onClick: () => create.show() },
    can.create && { key: 'file', label: t('users:add.file'), onClick: () => setDialog('import') },
    canExport && { key: 'export', label: t('users:add.export'), onClick: () => setDialog('export') },
  ].filter((i): i is { key: string; label: string; onClick: () => void } => Boolean(i));

  return (
    <section data-testid="users-page">
      <PageHeader
        title={t('users:title')}
        subtitle={t('users:subtitle')}
        extra={
          <Space wrap>
            {/* 000 §2: "grant roles" is always visible; without users.roles.manage it says why instead of failing on save. */}
            <Tooltip title={canAssign ? undefined : t('users:grant.noPermission')}>
              <Button icon={<SafetyOutlined />} onClick={() => setGranting(true)} disabled={!canAssign} data-testid="user-grant">
                {t('users:grant.button')}
              </Button>
            </Tooltip>
            {addItems.length > 0 && (
              <Dropdown menu={{ items: addItems }} trigger={['click']}>
                <Button type="primary" icon={<PlusOutlined />} data-testid="user-add">
                  {t('users:add.button')} <DownOutlined />
                </Button>
              </Dropdown>
            )}
          </Space>
        }
      />

      <Space wrap className="filter-bar">
        <ListSearch {...tableSearch(table)} placeholder={t('users:filters.search')} data-testid="user-search" />
        {select('userType', USER_TYPES, (v) => t(`users:userType.${v}`))}
        {select('membershipStatus', MEMBERSHIP_STATUSES, (v) => t(`users:membership.${v}`))}
        {select('isActive', ['true', 'false'], (v) => t(v === 'true' ? 'catalogue.active' : 'catalogue.inactive'))}
        {canBulkEdit && (
          <BulkEditMenu
            selected={selected as number[]}
            filter={
              {
                search: value('q'),
                userType: value('userType'),
                membershipStatus: value('membershipStatus'),
                isActive: value('isActive'),
              } as UserBulkFilterInput
            }
            total={shownTotal}
            onDone={() => {
              setSelected([]);
              void tableQuery.refetch();
            }}
          />
        )}
      </Space>

      {anywhere('users.delete') && deletableSelection && (
        <BulkBar
          count={selected.length}
          onDelete={() => confirmBulkDelete(selected as number[])}
          onClear={() => setSelected([])}
          loading={bulkDeleting}
        />
      )}

      {capped && (
        <Typography.Text type="secondary" className="users-capped" data-testid="users-total-capped">
          {t('users:totalCapped', { count: countedTo })}
        </Typography.Text>
      )}
      <Table<UserListItem>
        {...tableProps}
        rowKey="id"
        // A phone scrolls the table in place instead of widening the page.
        scroll={{ x: 'max-content' }}
        // 000 §2: pagination only past one page, as previous / next / "page x of y".
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, simple: true, showSizeChanger: false }}
        rowSelection={
          anywhere('users.delete') || canBulkEdit
            ? { selectedRowKeys: selected, onChange: setSelected, getCheckboxProps: (u) => ({ disabled: !selectable(u) }) }
            : undefined
        }
        locale={{ emptyText: <Empty description={t(filtered ? 'users:empty.noResults' : 'users:empty.none')} /> }}
        data-testid="users-table"
      >
        <Table.Column<UserListItem>
          key="info"
          title={t('users:columns.info')}
          render={(_, u) => (
            <Space direction="vertical" size={0}>
              <Typography.Text strong>{fullName(u)}</Typography.Text>
              <Typography.Text type="secondary">{u.code}</Typography.Text>
            </Space>
          )}
        />
        <Table.Column<UserListItem>
          key="contact"
          title={t('users:columns.contact')}
          render={(_, u) => (
            <Space direction="vertical" size={0}>
              <Typography.Text>{u.email}</Typography.Text>
              <Typography.Text type="secondary">{u.phone ?? '—'}</Typography.Text>
            </Space>
          )}
        />
        <Table.Column<UserListItem>
          dataIndex="userType"
          title={t('users:fields.userType')}
          render={(v: string) => t(`users:userType.${v}`)}
        />
        <Table.Column<UserListItem>
          key="status"
          title={t('users:columns.status')}
          render={(_, u) => (
            <Space size={4} wrap>
              {u.membershipStatus !== 'none' && <Tag color="geekblue">{t(`users:membership.${u.membershipStatus}`)}</Tag>}
              <Tag color={u.isActive ? 'green' : 'default'}>{t(u.isActive ? 'catalogue.active' : 'catalogue.inactive')}</Tag>
            </Space>
          )}
        />
        <Table.Column<UserListItem> dataIndex="createdAt" title={t('users:fields.createdAt')} render={(v: string) => formatDate(v)} />
        {anyRowAction && (
          <Table.Column<UserListItem>
            key="actions"
            title={t('table.actions')}
            render={(_, u) => (
              <Space size={8}>
                <RowActions
                  can={{ show: can.show, edit: rights(u).edit, delete: rights(u).delete }}
                  onShow={() => setViewing(u.id)}
                  onEdit={() => openEdit(u.id)}
                  onDelete={() => confirmDelete(u.id, fullName(u))}
                  deleteBlocked={deleteBlocked(u)}
                  testId="user"
                />
                {rights(u).roles && (
                  <Tooltip title={t('users:roles.button')}>
                    <Button
                      size="small"
                      icon={<SafetyOutlined />}
                      aria-label={t('users:roles.button')}
                      onClick={() => setAssigning({ id: u.id, name: fullName(u) })}
                      data-testid="user-roles"
                    />
                  </Tooltip>
                )}
              </Space>
            )}
          />
        )}
      </Table>

      {createOpened && <UserFormModal action="create" modalProps={create.modalProps} formProps={create.formProps} />}
      {editOpened && (
        <UserFormModal
          action="edit"
          modalProps={edit.modalProps}
          formProps={{
            ...edit.formProps,
            onFinish: (values) => {
              const { organizationIds, ...basic } = values as { organizationIds?: number[] };
              memberships.current = { before: editedUser?.organizationIds ?? [], after: organizationIds };
              return edit.formProps.onFinish?.(basic);
            },
          }}
          memberships={editedUser ? activeMemberships(editedUser) : undefined}
        />
      )}
      <UserShowModal id={viewing} onClose={() => setViewing(null)} />
      <RoleAssignmentsModal user={assigning} open={assigning !== null} onClose={() => setAssigning(null)} />
      <RoleAssignmentsModal user={null} open={granting} onClose={() => setGranting(false)} />
      <ImportWizard
        open={dialog === 'import'}
        onClose={() => setDialog(null)}
        resource="users"
        columns={USER_IMPORT_COLUMNS}
        templateName="users_import_template.xlsx"
        title={t('users:import.title')}
      />
      {dialog === 'export' && (
        <ExportDialog
          open
          onClose={() => setDialog(null)}
          title={t('users:export.title')}
          fields={USER_EXPORT_FIELDS}
          kind="users"
          path="/export/users"
          filters={{ search: value('q'), userType: value('userType'), membershipStatus: value('membershipStatus') }}
        />
      )}
    </section>
  );
}
