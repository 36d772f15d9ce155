import { PlusOutlined } from '@ant-design/icons';
import type { Role, RoleDetail } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useModalForm } from '../../components/form-errors';
import { useTranslate, type BaseKey } from '@refinedev/core';
import { Alert, Button, Empty, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState, type Key } from 'react';
import { BulkBar } from '../../components/catalogue/bulk-bar';
import { ListSearch, tableSearch } from '../../components/list-search';
import { PageHeader } from '../../components/page-header';
import { LoadError, RowActions } from '../../components/catalogue/row-actions';
import { StatusTag } from '../../components/catalogue/status-tag';
import { useCatalogueActions } from '../../components/catalogue/use-catalogue-actions';
import { useForgetOnClose } from '../../components/catalogue/use-forget-on-close';
import { RoleFormModal } from './form';
import { RoleShowModal } from './show';

const STATUS = ['all', 'true', 'false'] as const;
/** 000 §9: the roles search waits for 300 ms of quiet typing (every other list 500 ms). */
const ROLE_SEARCH_DELAY_MS = 300;

const withPermissionIds = (r: RoleDetail) => ({ ...r, permissionIds: r.permissions.map((p) => p.id) });

/** /permissions (000 §2): roles with their permission counts; create, view, edit and delete them. */
export function RoleList() {
  const t = useTranslate();
  const [selected, setSelected] = useState<Key[]>([]);
  const [viewing, setViewing] = useState<BaseKey | null>(null);
  const table = useTable<Role>({ resource: 'roles', syncWithLocation: true });
  const { tableProps, filters, setFilters, tableQuery } = table;
  const search = tableSearch(table);
  const { can, confirmDelete, confirmBulkDelete, bulkDeleting } = useCatalogueActions(
    'roles',
    () => setSelected([]),
    'roles',
    'permissions',
  );
  const create = useModalForm<Role>({ resource: 'roles', action: 'create', redirect: false });
  const edit = useModalForm<Role>({
    resource: 'roles',
    action: 'edit',
    redirect: false,
    // Only the save is a PUT (000 §7); simple-rest would send the record's GET with the same method.
    mutationMeta: { method: 'put' },
    queryOptions: { select: (res) => ({ ...res, data: withPermissionIds(res.data as unknown as RoleDetail) as unknown as Role }) },
  });
  useForgetOnClose(edit);

  const applied = String(search.value ?? '');
  const status = String(getDefaultFilter('isActive', filters, 'eq') ?? 'all');
  const setFilter = (field: string, value: unknown, operator: 'contains' | 'eq') =>
    setFilters([{ field, operator, value: value === '' || value === 'all' ? undefined : value }], 'merge');

  const rows = tableQuery.data?.data ?? [];
  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="roles-error" />;
  if (tableQuery.isLoading && rows.length === 0) return <Spin size="large" className="page-spin" />;

  const deleteContent = (r: Role) => (
    <Space direction="vertical">
      <Typography.Text>{t('permissions:delete.message', { name: r.displayName })}</Typography.Text>
      <ul className="consequences">
        <li>{t('permissions:delete.assignments', { count: r.assignmentCount })}</li>
        <li>{t('permissions:delete.permissions', { count: r.permissionCount })}</li>
      </ul>
      <Alert type="warning" showIcon message={t('permissions:delete.permanent')} />
    </Space>
  );

  return (
    <section data-testid="roles-page">
      <PageHeader
        title={t('permissions:title')}
        subtitle={t('permissions:subtitle')}
        extra={
          can.create && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => create.show()} data-testid="role-add">
              {t('permissions:create.button')}
            </Button>
          )
        }
      />

      <Space wrap className="filter-bar">
        <ListSearch {...search} delay={ROLE_SEARCH_DELAY_MS} placeholder={t('permissions:filters.search')} data-testid="role-search" />
        <Select
          value={status}
          onChange={(v) => setFilter('isActive', v, 'eq')}
          options={STATUS.map((s) => ({ value: s, label: t(`permissions:filters.status.${s}`) }))}
          className="status-filter"
          aria-label={t('permissions:fields.isActive')}
        />
      </Space>

      {can.delete && (
        <BulkBar
          count={selected.length}
          onDelete={() => confirmBulkDelete(selected as number[])}
          onClear={() => setSelected([])}
          loading={bulkDeleting}
        />
      )}

      <Table<Role>
        {...tableProps}
        rowKey="id"
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        rowSelection={
          can.delete
            ? { selectedRowKeys: selected, onChange: setSelected, getCheckboxProps: (r) => ({ disabled: r.isSystemRole }) }
            : undefined
        }
        locale={{
          // A status filter that matches nothing says so and offers every status (it is not "no roles yet").
          emptyText: applied ? (
            <Empty description={t('permissions:empty.noResults', { search: applied })}>
              <Space wrap>
                <Typography.Link onClick={() => search.onSearch('')}>{t('permissions:empty.clearSearch')}</Typography.Link>
                {status !== 'all' && (
                  <Typography.Link onClick={() => setFilter('isActive', 'all', 'eq')}>{t('permissions:empty.allStatuses')}</Typography.Link>
                )}
              </Space>
            </Empty>
          ) : status !== 'all' ? (
            <Empty description={t(status === 'true' ? 'permissions:empty.noActive' : 'permissions:empty.noInactive')}>
              <Typography.Link onClick={() => setFilter('isActive', 'all', 'eq')}>{t('permissions:empty.allStatuses')}</Typography.Link>
            </Empty>
          ) : (
            <Empty description={t('permissions:empty.none')} />
          ),
        }}
        data-testid="roles-table"
      >
        <Table.Column<Role>
          dataIndex="name"
          title={t('permissions:fields.name')}
          render={(v: string) => <Typography.Text code>{v}</Typography.Text>}
        />
        <Table.Column<Role>
          dataIndex="displayName"
          title={t('permissions:fields.displayName')}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <Space size={4} wrap>
                <Typography.Text strong>{r.displayName}</Typography.Text>
                {r.isSystemRole && <Tag color="purple">{t('permissions:system')}</Tag>}
              </Space>
              {r.description && <Typography.Text type="secondary">{r.description}</Typography.Text>}
            </Space>
          )}
        />
        <Table.Column<Role> dataIndex="permissionCount" title={t('permissions:fields.permissionCount')} align="right" />
        <Table.Column<Role>
          dataIndex="isActive"
          title={t('permissions:fields.isActive')}
          render={(v: boolean) => <StatusTag active={v} />}
        />
        <Table.Column<Role>
          title={t('table.actions')}
          key="actions"
          render={(_, row) => (
            <RowActions
              can={{ show: true, edit: can.edit && !row.isSystemRole, delete: can.delete && !row.isSystemRole }}
              onShow={() => setViewing(row.id)}
              onEdit={() => edit.show(row.id)}
              onDelete={() => confirmDelete(row.id, row.displayName, deleteContent(row))}
              testId="role"
            />
          )}
        />
      </Table>

      <RoleFormModal action="create" modalProps={create.modalProps} formProps={create.formProps} />
      <RoleFormModal action="edit" modalProps={edit.modalProps} formProps={edit.formProps} />
      <RoleShowModal id={viewing} onClose={() => setViewing(null)} />
    </section>
  );
}
