import type { ImportColumn, ImportHeadersResult, ImportMapping } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Alert, Select, Space, Table, Tag, Typography } from 'antd';

interface Props {
  columns: readonly ImportColumn[];
  headers: ImportHeadersResult;
  mapping: ImportMapping;
  onMapping: (m: ImportMapping) => void;
}

/** Required columns that no header of the file is mapped to (the Continue button waits for them). */
export function missingRequired(columns: readonly ImportColumn[], mapping: ImportMapping): ImportColumn[] {
  return columns.filter((c) => c.required && !mapping[c.key]);
}

/**
 * The mapping step (issue 15 part 5): one dropdown of the file's headers per column of ours,
 * filled with the server's suggestion (or this user's last mapping). A header already used by
 * another column is shown disabled, so each column of the file goes to one field.
 */
export function MappingStep({ columns, headers, mapping, onMapping }: Props) {
  const t = useTranslate();
  const used = new Set(Object.values(mapping).filter(Boolean));
  const missing = missingRequired(columns, mapping);
  return (
    <Space direction="vertical" className="full-width" data-testid="import-mapping">
      <Alert type="info" showIcon message={t('imports:mapping.intro')} description={headers.remembered.length ? t('imports:mapping.remembered') : undefined} />
      <Table<ImportColumn> size="small" rowKey="key" dataSource={[...columns]} pagination={false} tableLayout="fixed">
        <Table.Column<ImportColumn>
          title={t('imports:mapping.ourColumn')}
          key="ours"
          render={(_, c) => (
            <Space size={4} wrap>
              <Typography.Text strong>{c.header}</Typography.Text>
              {c.required && <Tag color="red">{t('imports:mapping.required')}</Tag>}
              <Typography.Text type="secondary" className="import-mapping-note">
                {c.note}
              </Typography.Text>
            </Space>
          )}
        />
        <Table.Column<ImportColumn>
          title={t('imports:mapping.fileColumn')}
          key="theirs"
          width="40%"
          render={(_, c) => (
            <Select<string>
              className="full-width"
              value={mapping[c.key] ?? ''}
              status={c.required && !mapping[c.key] ? 'error' : undefined}
              onChange={(v) => onMapping({ ...mapping, [c.key]: v || null })}
              options={[
                { value: '', label: t('imports:mapping.none') },
                ...headers.headers.map((h) => ({ value: h, label: h, disabled: used.has(h) && mapping[c.key] !== h })),
              ]}
              aria-label={c.header}
              data-testid={`import-map-${c.key}`}
            />
          )}
        />
      </Table>
      {missing.length > 0 && (
        <Alert type="warning" showIcon message={t('imports:mapping.missingRequired', { columns: missing.map((c) => c.header).join(', ') })} data-testid="import-mapping-missing" />
      )}
    </Space>
  );
}
