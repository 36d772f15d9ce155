import { DownloadOutlined } from '@ant-design/icons';
import { formatDateTime, type AuditLog } from '@doanhoi/shared';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { App, Button, Empty, Table, Typography } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { LoadError } from '../../components/catalogue/row-actions';
import { PageHeader } from '../../components/page-header';
import { AuditChangeDrawer } from './change';
import { downloadAuditExport } from './export';
import { AuditFilters, type AuditFilterValues } from './filters';
import { auditSentence } from './sentence';

const FIELDS: (keyof AuditFilterValues)[] = ['actorId', 'action', 'actions', 'entity', 'organizationId', 'from', 'to', 'excludeAuth'];
/** Filters holding a list (the actions chosen by name): kept in the URL with the `in` operator. */
const LISTS = new Set<keyof AuditFilterValues>(['actions']);
const NUMERIC = new Set<keyof AuditFilterValues>(['actorId', 'organizationId']);

/** Whether the URL's filters switch sign-ins on (excludeAuth=false), read before the table exists. */
function signInsInUrl(search: string): boolean {
  const q = new URLSearchParams(search);
  for (const [k, v] of q) {
    const i = /^filters\[(\d+)\]\[field\]$/.exec(k)?.[1];
    if (i !== undefined && v === 'excludeAuth') return q.get(`filters[${i}][value]`) === 'false';
  }
  return false;
}

/**
 * /audit-logs (issue 15): who changed what and when, newest first, filtered on the server and
 * scoped there to the caller's organizations; one row opens its before/after view. Each row reads
 * as a sentence (issue 26); sign-ins stay out unless the officer switches them on (excludeAuth=false
 * in the URL), and the IP column shows only when the API sent addresses.
 */
export function AuditLogList() {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [viewing, setViewing] = useState<AuditLog | null>(null);
  const [exporting, setExporting] = useState(false);
  const { search } = useLocation();
  const [signIns, setSignIns] = useState(() => signInsInUrl(search));
  const excludeAuth = signIns ? 'false' : 'true';
  const { tableProps, filters, setFilters, setCurrentPage, tableQuery } = useTable<AuditLog>({
    resource: 'audit-logs',
    syncWithLocation: true,
    pagination: { pageSize: 20 },
    // Sign-ins stay out unless switched on: the switch's filter (excludeAuth=false) in the URL says so, its absence means "leave them out".
    meta: { query: { excludeAuth } },
  });

  const values = Object.fromEntries(
    FIELDS.map((f) => {
      if (LISTS.has(f)) {
        const list = ([] as unknown[])
          .concat(getDefaultFilter(f, filters, 'in') ?? [])
          .map(String)
          .filter(Boolean);
        return [f, list.length ? list : undefined];
      }
      const v = getDefaultFilter(f, filters, 'eq') as string | number | undefined;
      return [f, v === undefined || v === '' ? undefined : NUMERIC.has(f) ? Number(v) : String(v)];
    }),
  ) as AuditFilterValues;
  const onChange = (patch: AuditFilterValues) => {
    if ('excludeAuth' in patch) setSignIns(patch.excludeAuth === 'false');
    setFilters(
      Object.entries(patch).map(([field, value]) => ({
        field,
        operator: LISTS.has(field as keyof AuditFilterValues) ? ('in' as const) : ('eq' as const),
        value,
      })),
      'merge',
    );
    // A narrower filter may have fewer pages than the one being read (issue 26 item 5).
    setCurrentPage(1);
  };

  async function exportRows() {
    setExporting(true);
    try {
      await downloadAuditExport({ ...values, actions: values.actions?.join(','), excludeAuth });
      notification.success({ message: t('export.done') });
    } catch (e) {
      notification.error({ message: t('export.failed'), description: (e as Error).message });
    } finally {
      setExporting(false);
    }
  }

  if (tableQuery.isError) return <LoadError onRetry={() => void tableQuery.refetch()} testId="audit-error" />;
  const filtered = FIELDS.some((f) => f !== 'excludeAuth' && values[f] !== undefined);
  const showIp = tableProps.dataSource?.some((l) => l.ip != null) ?? false;

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
        scroll={{ x: 'max-content' }}
        pagination={
          tableProps.pagination && { ...tableProps.pagination, showSizeChanger: false, showTotal: (n) => t('audit:total', { count: n }) }
        }
        locale={{ emptyText: <Empty description={t(filtered ? 'audit:empty.noResults' : 'audit:empty.none')} /> }}
        data-testid="audit-table"
      >
        <Table.Column<AuditLog>
          dataIndex="createdAt"
          title={t('audit:fields.time')}
          width={120}
          render={(v: string) => formatDateTime(v)}
        />
        <Table.Column<AuditLog>
          key="sentence"
          title={t('audit:sentence')}
          render={(_, row) => (
            <>
              <span className="audit-sentence">{auditSentence(row, t)}</span>
              {row.actor && (
                // Clicking a person shows only their changes.
                <div>
                  <Button type="link" size="small" className="audit-actor" onClick={() => onChange({ actorId: row.actor!.id })}>
                    {row.actor.code}
                  </Button>
                </div>
              )}
            </>
          )}
        />
        <Table.Column<AuditLog>
          dataIndex="organization"
          title={t('audit:fields.organization')}
          responsive={['md']}
          render={(o: AuditLog['organization'], row) =>
            o ? (
              `${o.name} (${o.code})`
            ) : row.labels?.organization ? (
              row.labels.organization
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            )
          }
        />
        {showIp && (
          <Table.Column<AuditLog>
            dataIndex="ip"
            title={t('audit:fields.ip')}
            className="nowrap"
            responsive={['lg']}
            render={(v: string | null | undefined) => v ?? '—'}
          />
        )}
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
