import { DownloadOutlined } from '@ant-design/icons';
import { formatDateTime, fullName, type AuditLog } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { App, Button, Empty, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { LoadError } from '../../components/catalogue/row-actions';
import { PageHeader } from '../../components/page-header';
import { AuditChangeDrawer } from './change';
import { downloadAuditExport } from './export';
import { AuditFilters, type AuditFilterValues } from './filters';

const FIELDS: (keyof AuditFilterValues)[] = ['actorId', 'action', 'entity', 'organizationId', 'from', 'to'];
const NUMERIC = new Set<keyof AuditFilterValues>(['actorId', 'organizationId']);

/**
 * /audit-logs (issue 15): who changed what and when, newest first, filtered on the server and
 * scoped there to the caller's organizations; one row opens its before/after view.
 */
export function AuditLogList() {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [viewing, setViewing] = useState<AuditLog | null>(null);
  const [exporting, setExporting] = useState(false);
  const { tableProps, filters, setFilters, tableQuery } = useTable<AuditLog>({
    resource: 'audit-logs',
    syncWithLocation: true,
    pagination: { pageSize: 20 },
  });

  const values = Object.fromEntries(
    FIELDS.map((f) => {
      const v = getDefaultFilter(f, filters, 'eq') as string | number | undefined;
      return [f, v === undefined || v === '' ? undefined : NUMERIC.has(f) ? Number(v) : String(v)];
    }),
  ) as AuditFilterValues;
  const onChange = (patch: AuditFilterValues) =>
    setFilters(Object.entries(patch).map(([field, value]) => ({ field, operator: 'eq' as const, value })), 'merge');

  async function exportRows() {
    setExporting(true);
    try {
      await downloadAuditExport({ ...values });
      notification.success({ message: t('export.done') });
    } catch (e) {
      notification.error({ message: t('export.failed'), description: (e as Error).message });
    } finally {
      setExporting(false);
    }
  }

  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="audit-error" />;
  const filtered = FIELDS.some((f) => values[f] !== undefined);

  return (
    <section data-testid="audit-page">
      <PageHeader
        title={t('audit:title')}
        subtitle={t('audit:subtitle')}
        extra={
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportRows()} data-testid="audit-export">
            {t('audit:export')}
          </Button>
        }
      />
      <AuditFilters values={values} onChange={onChange} />
      <Table<AuditLog>
        {...tableProps}
        rowKey="id"
        size="middle"
        scroll={{ x: 900 }}
        pagination={tableProps.pagination && { ...tableProps.pagination, showSizeChanger: false, showTotal: (n) => t('audit:total', { count: n }) }}
        locale={{ emptyText: <Empty description={t(filtered ? 'audit:empty.noResults' : 'audit:empty.none')} /> }}
        data-testid="audit-table"
      >
        <Table.Column<AuditLog> dataIndex="createdAt" title={t('audit:fields.time')} width={150} render={(v: string) => formatDateTime(v)} />
        <Table.Column<AuditLog>
          dataIndex="actor"
          title={t('audit:fields.actor')}
          render={(a: AuditLog['actor']) =>
            a ? (
              // Clicking a person shows only their changes.
              <>
                <Button type="link" size="small" className="audit-actor" onClick={() => onChange({ actorId: a.id })}>
                  {fullName(a)}
                </Button>
                <div>
                  <Typography.Text type="secondary">{a.code}</Typography.Text>
                </div>
              </>
            ) : (
              <Typography.Text type="secondary">{t('audit:system')}</Typography.Text>
            )
          }
        />
        <Table.Column<AuditLog> dataIndex="action" title={t('audit:fields.action')} render={(v: string) => <Tag className="audit-action">{v}</Tag>} />
        <Table.Column<AuditLog>
          dataIndex="entity"
          title={t('audit:fields.entity')}
          render={(v: string, row) => (
            <>
              {t(`audit:entities.${v}`, { defaultValue: v })}
              {row.entityId && <Typography.Text type="secondary"> #{row.entityId}</Typography.Text>}
            </>
          )}
        />
        <Table.Column<AuditLog>
          dataIndex="organization"
          title={t('audit:fields.organization')}
          render={(o: AuditLog['organization']) => (o ? `${o.name} (${o.code})` : <Typography.Text type="secondary">—</Typography.Text>)}
        />
        <Table.Column<AuditLog> dataIndex="ip" title={t('audit:fields.ip')} className="nowrap" render={(v: string | null) => v ?? '—'} />
        <Table.Column<AuditLog>
          key="details"
          title={t('table.actions')}
          render={(_, row) => (
            <Button size="small" onClick={() => setViewing(row)} data-testid={`audit-view-${row.id}`}>
              {t('audit:view')}
            </Button>
          )}
        />
      </Table>
      <AuditChangeDrawer log={viewing} onClose={() => setViewing(null)} />
    </section>
  );
}
