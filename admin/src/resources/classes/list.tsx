import { ClearOutlined, DownOutlined, PlusOutlined } from '@ant-design/icons';
import { CLASS_IMPORT_COLUMNS, type ClassItem, type Department } from '@doanhoi/shared';
import { getDefaultFilter, useSelect, useTable } from '@refinedev/antd';
import { useModalForm } from '../../components/form-errors';
import { useTranslate, type BaseKey } from '@refinedev/core';
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
import { ClassFormModal } from './form';
import { ClassShowModal } from './show';

const STATUS = ['all', 'true', 'false'] as const;
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
  const { can, confirmDelete, confirmBulkDelete, bulkDeleting } = useCatalogueActions('classes', () => setSelected([]));
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
  const anyRowAction = can.show || can.edit || can.delete;

  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="classes-error" />;

  return (
    <section data-testid="classes-page">
      <PageHeader
        title={t('classes:title')}
        subtitle={t('classes:subtitle')}
        extra={
          can.create && (
            <Dropdown
              menu={{
                items: [
                  { key: 'single', label: t('classes:add.single'), onClick: () => create.show() },
                  { key: 'file', label: t('classes:add.file'), onClick: () => setImporting(true) },
                ],
              }}
              trigger={['click']}
            >
              <Button type="primary" icon={<PlusOutlined />} data-testid="class-add">
                {t('classes:add.button')} <DownOutlined />
              </Button>
            </Dropdown>
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
        <Select
          value={status}
          onChange={(v) => setFilter('isActive', v)}
          options={STATUS.map((s) => ({ value: s, label: t(`classes:filters.status.${s}`) }))}
          className="status-filter"
          aria-label={t('classes:fields.isActive')}
        />
        <Button
          icon={<ClearOutlined />}
          disabled={!filtered}
          onClick={() => (setFilters([], 'replace'), table.setCurrentPage(1))}
          data-testid="class-clear-filters"
        >
          {t('classes:filters.clear')}
        </Button>
      </Space>

      {can.delete && (
        <BulkBar
          count={selected.length}
          onDelete={() => confirmBulkDelete(selected as number[])}
          onClear={() => setSelected([])}
          loading={bulkDeleting}
        />
      )}

      <Table<ClassItem>
        {...tableProps}
        rowKey="id"
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        // A class with students is refused by the server: it cannot be picked for deletion (issue 25 item 6).
        rowSelection={
          can.delete
            ? { selectedRowKeys: selected, onChange: setSelected, getCheckboxProps: (r) => ({ disabled: r.studentCount > 0 }) }
            : undefined
        }
        locale={{
          emptyText: (
            <Empty description={t(filtered ? 'classes:empty.noResults' : can.create ? 'classes:empty.canCreate' : 'classes:empty.none')} />
          ),
        }}
        data-testid="classes-table"
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
        <Table.Column<ClassItem>
          dataIndex="isActive"
          title={t('classes:fields.isActive')}
          render={(v: boolean) => <StatusTag active={v} />}
        />
        {anyRowAction && (
          <Table.Column<ClassItem>
            title={t('table.actions')}
            key="actions"
            render={(_, row) => (
              <RowActions
                can={can}
                onShow={() => setViewing(row.id)}
                onEdit={() => edit.show(row.id)}
                onDelete={() => confirmDelete(row.id, row.name)}
                // 000 §5: a class with students cannot be deleted.
                deleteBlocked={row.studentCount > 0 ? t('classes:delete.hasStudents') : null}
                testId="class"
              />
            )}
          />
        )}
      </Table>

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
