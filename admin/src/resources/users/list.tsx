import { DownOutlined, PlusOutlined, SafetyOutlined } from '@ant-design/icons';
import { formatDate, fullName, MEMBERSHIP_STATUSES, USER_EXPORT_FIELDS, USER_IMPORT_COLUMNS, USER_TYPES, type User, type UserDetail } from '@doanhoi/shared';
import { getDefaultFilter, useModalForm, useTable } from '@refinedev/antd';
import { useCan, useTranslate, type BaseKey } from '@refinedev/core';
import { Button, Dropdown, Empty, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState, type Key } from 'react';
import { BulkBar } from '../../components/catalogue/bulk-bar';
import { PageHeader } from '../../components/page-header';
import { LoadError, RowActions } from '../../components/catalogue/row-actions';
import { useCatalogueActions } from '../../components/catalogue/use-catalogue-actions';
import { ExportDialog } from '../../components/export-dialog';
import { ImportWizard } from '../../components/import-wizard';
import { UserFormModal } from './form';
import { RoleAssignmentsModal } from './role-assignments';
import { UserShowModal } from './show';

/** The edit form edits ids; the API returns the class and departments as objects. */
const toFormValues = (u: UserDetail) => ({
  ...u,
  classId: u.class?.id ?? null,
  managementDepartmentId: u.managementDepartment?.id ?? null,
  trainingDepartmentId: u.trainingDepartment?.id ?? null,
});

/** /users (000 §2): filters, the users table, and a dialog per action. */
export function UserList() {
  const t = useTranslate();
  const [selected, setSelected] = useState<Key[]>([]);
  const [viewing, setViewing] = useState<BaseKey | null>(null);
  const [dialog, setDialog] = useState<'import' | 'export' | null>(null);
  const { tableProps, filters, setFilters, tableQuery } = useTable<User>({ resource: 'users', syncWithLocation: true });
  const { can, confirmDelete, confirmBulkDelete, bulkDeleting } = useCatalogueActions('users', () => setSelected([]), 'users/bulk-delete');
  const canExport = useCan({ resource: 'users', action: 'export' }).data?.can ?? false;
  // "Assign roles" only with users.roles.manage (000 §2).
  const canAssign = useCan({ resource: 'users', action: 'roles.manage' }).data?.can ?? false;
  const [assigning, setAssigning] = useState<{ id: number; name: string } | null>(null);
  const create = useModalForm<User>({ resource: 'users', action: 'create', redirect: false });
  const edit = useModalForm<User>({
    resource: 'users',
    action: 'edit',
    redirect: false,
    queryOptions: { select: (res) => ({ ...res, data: toFormValues(res.data as unknown as UserDetail) as unknown as User }) },
  });

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
        extra={addItems.length > 0 && (
          <Dropdown menu={{ items: addItems }} trigger={['click']}>
            <Button type="primary" icon={<PlusOutlined />} data-testid="user-add">
              {t('users:add.button')} <DownOutlined />
            </Button>
          </Dropdown>
        )}
      />

      <Space wrap className="filter-bar">
        <Input.Search
          allowClear
          defaultValue={value('q')}
          placeholder={t('users:filters.search')}
          enterButton={t('buttons.filter')}
          onSearch={(v) => setFilter('q', v.trim())}
          data-testid="user-search"
        />
        {select('userType', USER_TYPES, (v) => t(`users:userType.${v}`))}
        {select('membershipStatus', MEMBERSHIP_STATUSES, (v) => t(`users:membership.${v}`))}
        {select('isActive', ['true', 'false'], (v) => t(v === 'true' ? 'catalogue.active' : 'catalogue.inactive'))}
      </Space>

      {can.delete && <BulkBar count={selected.length} onDelete={() => confirmBulkDelete(selected as number[])} onClear={() => setSelected([])} loading={bulkDeleting} />}

      <Table<User>
        {...tableProps}
        rowKey="id"
        // 000 §2: pagination only past one page, as previous / next / "page x of y".
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, simple: true, showSizeChanger: false }}
        rowSelection={can.delete ? { selectedRowKeys: selected, onChange: setSelected } : undefined}
        locale={{ emptyText: <Empty description={t(filtered ? 'users:empty.noResults' : 'users:empty.none')} /> }}
        data-testid="users-table"
      >
        <Table.Column<User>
          key="info"
          title={t('users:columns.info')}
          render={(_, u) => (
            <Space direction="vertical" size={0}>
              <Typography.Text strong>{fullName(u)}</Typography.Text>
              <Typography.Text type="secondary">{u.code}</Typography.Text>
            </Space>
          )}
        />
        <Table.Column<User>
          key="contact"
          title={t('users:columns.contact')}
          render={(_, u) => (
            <Space direction="vertical" size={0}>
              <Typography.Text>{u.email}</Typography.Text>
              <Typography.Text type="secondary">{u.phone ?? '—'}</Typography.Text>
            </Space>
          )}
        />
        <Table.Column<User> dataIndex="userType" title={t('users:fields.userType')} render={(v: string) => t(`users:userType.${v}`)} />
        <Table.Column<User>
          key="status"
          title={t('users:columns.status')}
          render={(_, u) => (
            <Space size={4} wrap>
              {u.membershipStatus !== 'none' && <Tag color="geekblue">{t(`users:membership.${u.membershipStatus}`)}</Tag>}
              <Tag color={u.isActive ? 'green' : 'default'}>{t(u.isActive ? 'catalogue.active' : 'catalogue.inactive')}</Tag>
            </Space>
          )}
        />
        <Table.Column<User> dataIndex="createdAt" title={t('users:fields.createdAt')} render={(v: string) => formatDate(v)} />
        {(can.show || can.edit || can.delete || canAssign) && (
          <Table.Column<User>
            key="actions"
            title={t('table.actions')}
            render={(_, u) => (
              <Space size={8}>
                <RowActions can={can} onShow={() => setViewing(u.id)} onEdit={() => edit.show(u.id)} onDelete={() => confirmDelete(u.id, fullName(u))} testId="user" />
                {canAssign && (
                  <Tooltip title={t('users:roles.button')}>
                    <Button size="small" icon={<SafetyOutlined />} aria-label={t('users:roles.button')} onClick={() => setAssigning({ id: u.id, name: fullName(u) })} data-testid="user-roles" />
                  </Tooltip>
                )}
              </Space>
            )}
          />
        )}
      </Table>

      <UserFormModal action="create" modalProps={create.modalProps} formProps={create.formProps} />
      <UserFormModal action="edit" modalProps={edit.modalProps} formProps={edit.formProps} />
      <UserShowModal id={viewing} onClose={() => setViewing(null)} />
      <RoleAssignmentsModal user={assigning} onClose={() => setAssigning(null)} />
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
          path="/export/users"
          filters={{ search: value('q'), userType: value('userType'), membershipStatus: value('membershipStatus') }}
        />
      )}
    </section>
  );
}
