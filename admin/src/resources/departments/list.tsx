import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { DEPARTMENT_IMPORT_COLUMNS, type Department } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useModalForm } from '../../components/form-errors';
import { useTranslate } from '@refinedev/core';
import { Button, Dropdown, Empty, Select, Space, Table, Typography } from 'antd';
import { useState, type Key } from 'react';
import { BulkBar } from '../../components/catalogue/bulk-bar';
import { PageHeader } from '../../components/page-header';
import { LoadError, RowActions } from '../../components/catalogue/row-actions';
import { StatusTag } from '../../components/catalogue/status-tag';
import { ImportWizard } from '../../components/import-wizard';
import { ListSearch, tableSearch } from '../../components/list-search';
import { useCatalogueActions } from '../../components/catalogue/use-catalogue-actions';
import { useForgetOnClose } from '../../components/catalogue/use-forget-on-close';
import { DepartmentFormModal } from './form';
import { DepartmentShowModal } from './show';

const STATUS = ['all', 'true', 'false'] as const;

/** /departments (000 §2): search and status filters, paginated table, modals for each action. */
export function DepartmentList() {
  const t = useTranslate();
  const [selected, setSelected] = useState<Key[]>([]);
  const [importing, setImporting] = useState(false);
  const [viewing, setViewing] = useState<Department | null>(null);
  const table = useTable<Department>({ resource: 'departments', syncWithLocation: true });
  const { tableProps, filters, setFilters, tableQuery } = table;
  const { can, confirmDelete, confirmBulkDelete, bulkDeleting } = useCatalogueActions('departments', () => setSelected([]));
  const create = useModalForm<Department>({ resource: 'departments', action: 'create', redirect: false });
  const edit = useModalForm<Department>({ resource: 'departments', action: 'edit', redirect: false });
  useForgetOnClose(edit);

  const search = (getDefaultFilter('q', filters, 'contains') as string | undefined) ?? '';
  const status = String(getDefaultFilter('isActive', filters, 'eq') ?? 'all');
  const setFilter = (field: string, value: unknown, operator: 'contains' | 'eq') =>
    setFilters([{ field, operator, value: value === '' || value === 'all' ? undefined : value }], 'merge');
  const anyRowAction = can.show || can.edit || can.delete;

  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="departments-error" />;

  return (
    <section data-testid="departments-page">
      <PageHeader
        title={t('departments:title')}
        subtitle={t('departments:subtitle')}
        extra={
          can.create && (
            <Dropdown
              menu={{
                items: [
                  { key: 'single', label: t('departments:add.single'), onClick: () => create.show() },
                  { key: 'file', label: t('departments:add.file'), onClick: () => setImporting(true) },
                ],
              }}
              trigger={['click']}
            >
              <Button type="primary" icon={<PlusOutlined />} data-testid="department-add">
                {t('departments:add.button')} <DownOutlined />
              </Button>
            </Dropdown>
          )
        }
      />

      <Space wrap className="filter-bar">
        <ListSearch {...tableSearch(table)} placeholder={t('departments:filters.search')} data-testid="department-search" />
        <Select
          value={status}
          onChange={(v) => setFilter('isActive', v, 'eq')}
          options={STATUS.map((s) => ({ value: s, label: t(`departments:filters.status.${s}`) }))}
          className="status-filter"
          aria-label={t('departments:fields.isActive')}
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

      <Table<Department>
        {...tableProps}
        rowKey="id"
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        // A department with classes is refused by the server: it cannot be picked for deletion (issue 25 item 6).
        rowSelection={
          can.delete
            ? { selectedRowKeys: selected, onChange: setSelected, getCheckboxProps: (r) => ({ disabled: r.classCount > 0 }) }
            : undefined
        }
        locale={{
          emptyText: (
            <Empty
              description={t(
                search || status !== 'all'
                  ? 'departments:empty.noResults'
                  : can.create
                    ? 'departments:empty.canCreate'
                    : 'departments:empty.none',
              )}
            />
          ),
        }}
        data-testid="departments-table"
      >
        <Table.Column<Department>
          dataIndex="name"
          title={t('departments:fields.name')}
          render={(v: string) => <Typography.Text strong>{v}</Typography.Text>}
        />
        <Table.Column<Department> dataIndex="code" title={t('departments:fields.code')} render={(v: string | null) => v ?? '—'} />
        <Table.Column<Department>
          dataIndex="description"
          title={t('departments:fields.description')}
          ellipsis
          render={(v: string | null) => v ?? '—'}
        />
        <Table.Column<Department>
          dataIndex="isActive"
          title={t('departments:fields.isActive')}
          render={(v: boolean) => <StatusTag active={v} />}
        />
        {anyRowAction && (
          <Table.Column<Department>
            title={t('table.actions')}
            key="actions"
            render={(_, row) => (
              <RowActions
                can={can}
                onShow={() => setViewing(row)}
                onEdit={() => edit.show(row.id)}
                onDelete={() => confirmDelete(row.id, row.name)}
                deleteBlocked={row.classCount > 0 ? t('departments:deleteBlocked', { count: row.classCount }) : null}
                testId="department"
              />
            )}
          />
        )}
      </Table>

      <DepartmentFormModal action="create" modalProps={create.modalProps} formProps={create.formProps} />
      <DepartmentFormModal action="edit" modalProps={edit.modalProps} formProps={edit.formProps} />
      <DepartmentShowModal department={viewing} onClose={() => setViewing(null)} />
      <ImportWizard
        open={importing}
        onClose={() => setImporting(false)}
        resource="departments"
        columns={DEPARTMENT_IMPORT_COLUMNS}
        templateName="departments_import_template.xlsx"
        title={t('departments:import.title')}
      />
    </section>
  );
}
