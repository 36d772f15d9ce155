import type { ImportColumn, ImportHeadersResult, ImportMapping } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Alert, Select, Space, Table, Tag, Typography } from 'antd';
import { useColumnLabel } from './columns';

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
  const label = useColumnLabel();
  const used = new Set(Object.values(mapping).filter(Boolean));
  /** One "Họ và tên" header may fill both name columns (the API splits it: the last word is the given name). */
  const pairOf = (key: string) => (key === 'familyName' ? 'givenName' : key === 'givenName' ? 'familyName' : null);
  const fullName = mapping.familyName && mapping.familyName === mapping.givenName ? mapping.familyName : null;
  const missing = missingRequired(columns, mapping);
  return (
    <Space direction="vertical" className="full-width" data-testid="import-mapping">
      <Alert
        type="info"
        showIcon
        message={t('imports:mapping.intro')}
        description={headers.remembered.length ? t('imports:mapping.remembered') : undefined}
      />
      <Table<ImportColumn> size="small" rowKey="key" dataSource={[...columns]} pagination={false} tableLayout="fixed">
        <Table.Column<ImportColumn>
          title={t('imports:mapping.ourColumn')}
          key="ours"
          render={(_, c) => (
            <Space size={4} wrap>
              <Typography.Text strong>{label(c)}</Typography.Text>
              {c.required && <Tag color="red">{t('imports:mapping.required')}</Tag>}
              {/* The notes are Vietnamese, like the template; in English the template's header is shown instead. */}
              <Typography.Text type="secondary" className="import-mapping-note">
                {label(c) === c.header ? c.note : c.header}
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
                ...headers.headers.map((h) => ({
                  value: h,
                  label: h,
                  disabled: used.has(h) && mapping[c.key] !== h && !(pairOf(c.key) && mapping[pairOf(c.key)!] === h),
                })),
              ]}
              aria-label={label(c)}
              data-testid={`import-map-${c.key}`}
            />
          )}
        />
      </Table>
      {fullName && (
        <Alert
          type="info"
          showIcon
          message={t('imports:mapping.fullNameSplit', { header: fullName })}
          data-testid="import-mapping-fullname"
        />
      )}
      {missing.length > 0 && (
        <Alert
          type="warning"
          showIcon
          message={t('imports:mapping.missingRequired', { columns: missing.map(label).join(', ') })}
          data-testid="import-mapping-missing"
        />
      )}
    </Space>
  );
}
