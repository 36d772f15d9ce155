import { formatDateTime, fullName, type AuditLog } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Descriptions, Drawer, Empty, Table, Typography } from 'antd';
import { fieldLabel, fieldValue, HIDDEN_FIELDS } from './fields';
import { auditSentence } from './sentence';

type Row = { key: string; before: unknown; after: unknown; changed: boolean };

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 1));

/**
 * One field per line, before beside after, changed lines marked: the two snapshots are what the
 * service recorded (secrets already masked by the API), so both columns show values as stored.
 */
export function diffRows(before: unknown, after: unknown): Row[] {
  if (!isRecord(before) && !isRecord(after)) {
    return before == null && after == null
      ? []
      : [{ key: '—', before: before ?? undefined, after: after ?? undefined, changed: show(before) !== show(after) }];
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => !HIDDEN_FIELDS.has(k));
  return keys.map((key) => ({ key, before: b[key], after: a[key], changed: show(b[key]) !== show(a[key]) }));
}

/** The before/after view of one audit row (issue 15), opened from the list, in the forms' words (issue 26). */
export function AuditChangeDrawer({ log, onClose }: { log: AuditLog | null; onClose: () => void }) {
  const t = useTranslate();
  const rows = log ? diffRows(log.before, log.after) : [];
  const cell = (key: string) => (v: unknown) =>
    v === undefined || !log ? (
      <Typography.Text type="secondary">—</Typography.Text>
    ) : (
      <pre className="audit-value">{fieldValue(log, log.entity, key, v, t)}</pre>
    );
  return (
    <Drawer open={!!log} onClose={onClose} width={760} title={t('audit:change.title')} destroyOnHidden data-testid="audit-change">
      {log && (
        <>
          <Descriptions size="small" column={1} bordered className="audit-meta">
            <Descriptions.Item label={t('audit:sentence')}>{auditSentence(log, t)}</Descriptions.Item>
            <Descriptions.Item label={t('audit:fields.time')}>{formatDateTime(log.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('audit:fields.actor')}>
              {log.actor ? `${fullName(log.actor)} (${log.actor.code})` : (log.labels?.actor ?? t('audit:system'))}
            </Descriptions.Item>
            <Descriptions.Item label={t('audit:fields.entity')}>
              {t(`audit:entities.${log.entity}`, { defaultValue: log.entity })}
              {log.labels?.target && `: ${log.labels.target}`}
            </Descriptions.Item>
            <Descriptions.Item label={t('audit:fields.organization')}>
              {log.organization ? `${log.organization.name} (${log.organization.code})` : (log.labels?.organization ?? '—')}
            </Descriptions.Item>
            {log.ip !== undefined && <Descriptions.Item label={t('audit:fields.ip')}>{log.ip ?? '—'}</Descriptions.Item>}
          </Descriptions>
          <Table<Row>
            className="audit-diff"
            dataSource={rows}
            rowKey="key"
            size="small"
            pagination={false}
            rowClassName={(r) => (r.changed ? 'audit-changed' : '')}
            locale={{ emptyText: <Empty description={t('audit:change.empty')} /> }}
            data-testid="audit-diff"
          >
            <Table.Column<Row>
              dataIndex="key"
              title={t('audit:change.field')}
              width={180}
              render={(k: string) => (
                <Typography.Text strong>
                  {k !== '—' ? fieldLabel(log.entity, k, t) : log.action.startsWith('user.roles.') ? t('audit:fieldNames.roleGrants') : k}
                </Typography.Text>
              )}
            />
            <Table.Column<Row> dataIndex="before" title={t('audit:change.before')} render={(v: unknown, r) => cell(r.key)(v)} />
            <Table.Column<Row> dataIndex="after" title={t('audit:change.after')} render={(v: unknown, r) => cell(r.key)(v)} />
          </Table>
        </>
      )}
    </Drawer>
  );
}
