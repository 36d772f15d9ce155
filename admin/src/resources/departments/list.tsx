import { DEPARTMENT_IMPORT_COLUMNS, type Department } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useModalForm } from '../../components/form-errors';
import { useTranslate } from '@refinedev/core';
import { Space, Table, Typography } from 'antd';
import { useState, type Key } from 'react';
import { CatalogueAddMenu, CatalogueTable, StatusFilter } from '../../components/catalogue/list-page';
import { PageHeader } from '../../components/page-header';
import { LoadError } from '../../components/catalogue/row-actions';
import { ImportWizard } from '../../components/import-wizard';
import { ListSearch, tableSearch } from '../../components/list-search';
import { useCatalogueActions } from '../../components/catalogue/use-catalogue-actions';
import { useForgetOnClose } from '../../components/catalogue/use-forget-on-close';
import { DepartmentFormModal } from './form';
import { DepartmentShowModal } from './show';

/** /departments (000 §2): search and status filters, paginated table, modals for each action. */
export function DepartmentList() {
  const t = useTranslate();
  const [selected, setSelected] = useState<Key[]>([]);
  const [importing, setImporting] = useState(false);
  const [viewing, setViewing] = useState<Department | null>(null);
  const table = useTable<Department>({ resource: 'departments', syncWithLocation: true });
  const { tableProps, filters, setFilters, tableQuery } = table;
  const actions = useCatalogueActions('departments', () => setSelected([]));
  const create = useModalForm<Department>({ resource: 'departments', action: 'create', redirect: false });
  const edit = useModalForm<Department>({ resource: 'departments', action: 'edit', redirect: false });
  useForgetOnClose(edit);

  const search = (getDefaultFilter('q', filters, 'contains') as string | undefined) ?? '';
  const status = String(getDefaultFilter('isActive', filters, 'eq') ?? 'all');
  const setFilter = (field: string, value: unknown, operator: 'contains' | 'eq') =>
    setFilters([{ field, operator, value: value === '' || value === 'all' ? undefined : value }], 'merge');

  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="departments-error" />;

  return (
    <section data-testid="departments-page">
      <PageHeader
        title={t('departments:title')}
        subtitle={t('departments:subtitle')}
        extra={
          actions.can.create && (
            <CatalogueAddMenu ns="departments" testId="department" onSingle={() => create.show()} onFile={() => setImporting(true)} />
          )
        }
      />

      <Space wrap className="filter-bar">
        <ListSearch {...tableSearch(table)} placeholder={t('departments:filters.search')} data-testid="department-search" />
        <StatusFilter ns="departments" value={status} onChange={(v) => setFilter('isActive', v, 'eq')} />
      </Space>

      <CatalogueTable<Department>
        ns="departments"
        testId="department"
        tableProps={tableProps}
        actions={actions}
        selected={selected}
        setSelected={setSelected}
        filtered={Boolean(search || status !== 'all')}
        // A department with classes is refused by the server.
        deleteBlocked={(row) => (row.classCount > 0 ? t('departments:deleteBlocked', { count: row.classCount }) : null)}
        onShow={setViewing}
        onEdit={(id) => edit.show(id)}
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
      </CatalogueTable>

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
