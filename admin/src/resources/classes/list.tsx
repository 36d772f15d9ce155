import { ClearOutlined } from '@ant-design/icons';
import { CLASS_IMPORT_COLUMNS, type ClassItem, type Department } from '@doanhoi/shared';
import { getDefaultFilter, useSelect, useTable } from '@refinedev/antd';
import { useModalForm } from '../../components/form-errors';
import { useTranslate, type BaseKey } from '@refinedev/core';
import { Button, Select, Space, Table, Typography } from 'antd';
import { useState, type Key } from 'react';
import { CatalogueAddMenu, CatalogueTable, StatusFilter } from '../../components/catalogue/list-page';
import { PageHeader } from '../../components/page-header';
import { LoadError } from '../../components/catalogue/row-actions';
import { ImportWizard } from '../../components/import-wizard';
import { ListSearch, tableSearch } from '../../components/list-search';
import { useCatalogueActions } from '../../components/catalogue/use-catalogue-actions';
import { useForgetOnClose } from '../../components/catalogue/use-forget-on-close';
import { ClassFormModal } from './form';
import { ClassShowModal } from './show';

/** 000 §9: the year filter lists 10 years, newest first (from this year; see docs/decisions.md). */
const YEARS = Array.from({ length: 10 }, (_, i) => new Date().getFullYear() - i);

/** The edit form edits departmentId; the API returns the department object. */
const toFormValues = (c: ClassItem) => ({ ...c, departmentId: c.department?.id ?? null });

/** /classes (000 §2): search, year, department and status filters; table; a modal per action. */
export function ClassList() {
  const t = useTranslate();
  const [selected, setSelected] = useState<Key[]>([]);
  const [importing, setImporting] = useState(false);
  const [viewing, setViewing] = useState<BaseKey | null>(null);
  const table = useTable<ClassItem>({ resource: 'classes', syncWithLocation: true });
  const { tableProps, filters, setFilters, tableQuery } = table;
  const actions = useCatalogueActions('classes', () => setSelected([]));
  const create = useModalForm<ClassItem>({ resource: 'classes', action: 'create', redirect: false });
  const edit = useModalForm<ClassItem>({
    resource: 'classes',
    action: 'edit',
    redirect: false,
    queryOptions: { select: (res) => ({ ...res, data: toFormValues(res.data) as ClassItem }) },
  });
  useForgetOnClose(edit);
  const { selectProps: departmentProps } = useSelect<Department>({
    resource: 'departments',
    optionLabel: 'name',
    optionValue: 'id',
    pagination: { pageSize: 1000, mode: 'server' },
  });

  const search = (getDefaultFilter('q', filters, 'contains') as string | undefined) ?? '';
  const year = getDefaultFilter('year', filters, 'eq') as number | undefined;
  const departmentId = getDefaultFilter('departmentId', filters, 'eq') as number | undefined;
  const status = String(getDefaultFilter('isActive', filters, 'eq') ?? 'all');
  const filtered = Boolean(search || year || departmentId || status !== 'all');
  const setFilter = (field: string, value: unknown, operator: 'contains' | 'eq' = 'eq') =>
    setFilters([{ field, operator, value: value === '' || value === 'all' || value === null ? undefined : value }], 'merge');

  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="classes-error" />;

  return (
    <section data-testid="classes-page">
      <PageHeader
        title={t('classes:title')}
        subtitle={t('classes:subtitle')}
        extra={
          actions.can.create && (
            <CatalogueAddMenu ns="classes" testId="class" onSingle={() => create.show()} onFile={() => setImporting(true)} />
          )
        }
      />

      {/* Every input here follows the filters, so the clear button empties them (no remount: it would take the focus from the search). */}
      <Space wrap className="filter-bar">
        <ListSearch {...tableSearch(table)} placeholder={t('classes:filters.search')} data-testid="class-search" />
        <Select
          value={year === undefined ? undefined : Number(year)}
          allowClear
          options={YEARS.map((y) => ({ value: y, label: String(y) }))}
          placeholder={t('classes:filters.year')}
          onChange={(v) => setFilter('year', v)}
          className="year-filter"
          aria-label={t('classes:fields.year')}
          data-testid="class-year"
        />
        <Select
          options={departmentProps.options}
          loading={departmentProps.loading}
          value={departmentId}
          onChange={(v) => setFilter('departmentId', v)}
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={t('classes:filters.department')}
          className="department-filter"
          aria-label={t('classes:fields.department')}
          data-testid="class-department-filter"
        />
        <StatusFilter ns="classes" value={status} onChange={(v) => setFilter('isActive', v)} />
        <Button
          icon={<ClearOutlined />}
          disabled={!filtered}
          onClick={() => (setFilters([], 'replace'), table.setCurrentPage(1))}
          data-testid="class-clear-filters"
        >
          {t('classes:filters.clear')}
        </Button>
      </Space>

      <CatalogueTable<ClassItem>
        ns="classes"
        testId="class"
        tableProps={tableProps}
        actions={actions}
        selected={selected}
        setSelected={setSelected}
        filtered={filtered}
        // 000 §5: a class with students cannot be deleted (the server refuses it).
        deleteBlocked={(row) => (row.studentCount > 0 ? t('classes:delete.hasStudents') : null)}
        onShow={(row) => setViewing(row.id)}
        onEdit={(id) => edit.show(id)}
      >
        <Table.Column<ClassItem>
          dataIndex="name"
          title={t('classes:fields.name')}
          render={(v: string) => <Typography.Text strong>{v}</Typography.Text>}
        />
        <Table.Column<ClassItem> dataIndex="year" title={t('classes:fields.year')} />
        <Table.Column<ClassItem>
          dataIndex={['department', 'name']}
          title={t('classes:fields.department')}
          render={(v?: string) => v ?? '—'}
        />
        <Table.Column<ClassItem> dataIndex="studentCount" title={t('classes:fields.studentCount')} align="right" />
      </CatalogueTable>

      <ClassFormModal action="create" modalProps={create.modalProps} formProps={create.formProps} />
      <ClassFormModal action="edit" modalProps={edit.modalProps} formProps={edit.formProps} />
      <ClassShowModal id={viewing} onClose={() => setViewing(null)} />
      <ImportWizard
        open={importing}
        onClose={() => setImporting(false)}
        resource="classes"
        columns={CLASS_IMPORT_COLUMNS}
        templateName="classes_import_template.xlsx"
        title={t('classes:import.title')}
      />
    </section>
  );
}
