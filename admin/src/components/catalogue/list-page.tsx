/**
 * What the university-wide catalogue screens (departments, classes) share: the add menu (one or
 * from a file), the status filter, the bulk bar and the table with its selection, empty text,
 * status and action columns. Each screen brings its own filters, columns, dialogs and import.
 */
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslate, type BaseKey } from '@refinedev/core';
import { Button, Dropdown, Empty, Select, Table, type TableProps } from 'antd';
import type { Key, PropsWithChildren } from 'react';
import { BulkBar } from './bulk-bar';
import { RowActions } from './row-actions';
import { StatusTag } from './status-tag';
import type { useCatalogueActions } from './use-catalogue-actions';

const STATUS = ['all', 'true', 'false'] as const;

type Actions = ReturnType<typeof useCatalogueActions>;

/** "Add" with its two ways: one record in a dialog, or a file through the import wizard. */
export function CatalogueAddMenu({
  ns,
  testId,
  onSingle,
  onFile,
}: {
  ns: string;
  testId: string;
  onSingle: () => void;
  onFile: () => void;
}) {
  const t = useTranslate();
  return (
    <Dropdown
      menu={{
        items: [
          { key: 'single', label: t(`${ns}:add.single`), onClick: onSingle },
          { key: 'file', label: t(`${ns}:add.file`), onClick: onFile },
        ],
      }}
      trigger={['click']}
    >
      <Button type="primary" icon={<PlusOutlined />} data-testid={`${testId}-add`}>
        {t(`${ns}:add.button`)} <DownOutlined />
      </Button>
    </Dropdown>
  );
}

/** Active / inactive / all. */
export function StatusFilter({ ns, value, onChange }: { ns: string; value: string; onChange: (v: string) => void }) {
  const t = useTranslate();
  return (
    <Select
      value={value}
      onChange={onChange}
      options={STATUS.map((s) => ({ value: s, label: t(`${ns}:filters.status.${s}`) }))}
      className="status-filter"
      aria-label={t(`${ns}:fields.isActive`)}
    />
  );
}

interface TableOf<T> {
  ns: string;
  /** Prefix of the row buttons' test ids ("department"); the table's is `${ns}-table`. */
  testId: string;
  tableProps: TableProps<T>;
  actions: Actions;
  selected: Key[];
  setSelected: (keys: Key[]) => void;
  /** Whether a filter narrows the list (the empty text then says "no results"). */
  filtered: boolean;
  /** Why the server would refuse to delete this row; such a row cannot be picked for a bulk delete (issue 25 item 6). */
  deleteBlocked: (row: T) => string | null;
  onShow: (row: T) => void;
  onEdit: (id: BaseKey) => void;
}

/** The bulk bar and the table; the screen's own columns go between the name and the status. */
export function CatalogueTable<T extends { id: number; name: string; isActive: boolean }>({
  ns,
  testId,
  tableProps,
  actions: { can, confirmDelete, confirmBulkDelete, bulkDeleting },
  selected,
  setSelected,
  filtered,
  deleteBlocked,
  onShow,
  onEdit,
  children,
}: PropsWithChildren<TableOf<T>>) {
  const t = useTranslate();
  return (
    <>
      {can.delete && (
        <BulkBar
          count={selected.length}
          onDelete={() => confirmBulkDelete(selected as number[])}
          onClear={() => setSelected([])}
          loading={bulkDeleting}
        />
      )}

      <Table<T>
        {...tableProps}
        rowKey="id"
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        rowSelection={
          can.delete
            ? { selectedRowKeys: selected, onChange: setSelected, getCheckboxProps: (r) => ({ disabled: deleteBlocked(r) !== null }) }
            : undefined
        }
        locale={{
          emptyText: (
            <Empty description={t(filtered ? `${ns}:empty.noResults` : can.create ? `${ns}:empty.canCreate` : `${ns}:empty.none`)} />
          ),
        }}
        data-testid={`${ns}-table`}
      >
        {children}
        <Table.Column<T> dataIndex="isActive" title={t(`${ns}:fields.isActive`)} render={(v: boolean) => <StatusTag active={v} />} />
        {(can.show || can.edit || can.delete) && (
          <Table.Column<T>
            title={t('table.actions')}
            key="actions"
            render={(_, row) => (
              <RowActions
                can={can}
                onShow={() => onShow(row)}
                onEdit={() => onEdit(row.id)}
                onDelete={() => confirmDelete(row.id, row.name)}
                deleteBlocked={deleteBlocked(row)}
                testId={testId}
              />
            )}
          />
        )}
      </Table>
    </>
  );
}
