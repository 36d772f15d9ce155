import { CheckCircleTwoTone, CloseCircleTwoTone, DownloadOutlined, WarningTwoTone } from '@ant-design/icons';
import type { ImportColumn, ImportRowResult, ImportValidationResult } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Alert, Button, Checkbox, Col, List, Row, Space, Statistic, Switch, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';

export interface ImportChoices {
  skipErrors: boolean;
  updateExisting: boolean;
  dryRun: boolean;
}

interface Props {
  result: ImportValidationResult;
  columns: readonly ImportColumn[];
  choices: ImportChoices;
  onChoices: (c: ImportChoices) => void;
  /** Downloads the refused rows with their reasons (an xlsx to fix and upload again). */
  onErrorRows: () => void;
  busy: boolean;
}

/** Errors listed before "show all". */
const ERRORS_SHOWN = 5;

function RowStatus({ row }: { row: ImportRowResult }) {
  if (!row.validation.isValid) return <CloseCircleTwoTone twoToneColor="#ff4d4f" />;
  if (row.validation.warnings.length) return <WarningTwoTone twoToneColor="#faad14" />;
  return <CheckCircleTwoTone twoToneColor="#52c41a" />;
}

/** Step 2: counts, the rows with their status (10 per page), the errors, and the three options. */
export function PreviewStep({ result, columns, choices, onChoices, onErrorRows, busy }: Props) {
  const t = useTranslate();
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [allErrors, setAllErrors] = useState(false);
  const rows = onlyErrors ? result.data.filter((r) => !r.validation.isValid) : result.data;
  const errors = allErrors ? result.errors : result.errors.slice(0, ERRORS_SHOWN);
  return (
    <Space direction="vertical" className="full-width" data-testid="import-preview">
      <Row gutter={16}>
        <Col span={6}><Statistic title={t('import.preview.total')} value={result.summary.total} /></Col>
        <Col span={6}><Statistic title={t('import.preview.valid')} value={result.summary.valid} valueStyle={{ color: '#52c41a' }} /></Col>
        <Col span={6}><Statistic title={t('import.preview.errors')} value={result.summary.invalid} valueStyle={{ color: result.summary.invalid ? '#ff4d4f' : undefined }} /></Col>
        <Col span={6}><Statistic title={t('import.preview.warnings')} value={result.warnings.length} /></Col>
      </Row>
      <Space>
        <Switch checked={onlyErrors} onChange={setOnlyErrors} size="small" aria-label={t('import.preview.onlyErrors')} />
        <Typography.Text>{t('import.preview.onlyErrors')}</Typography.Text>
      </Space>
      {/* One line per row, the reasons right after the status: nothing to scroll sideways for at 1366 px (000 §2). */}
      <Table<ImportRowResult>
        size="small"
        rowKey="rowIndex"
        dataSource={rows}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        tableLayout="fixed"
        className="import-preview-table"
        data-testid="import-preview-table"
      >
        <Table.Column<ImportRowResult> title={t('import.preview.row')} dataIndex="rowIndex" width={56} />
        <Table.Column<ImportRowResult> title={t('import.preview.status')} key="status" width={64} render={(_, r) => <RowStatus row={r} />} />
        <Table.Column<ImportRowResult>
          title={t('import.preview.messages')}
          key="messages"
          width="34%"
          ellipsis={{ showTitle: false }}
          render={(_, r) => {
            const text = [...r.validation.errors, ...r.validation.warnings].join('; ');
            return text ? (
              <Tooltip title={text} placement="topLeft">
                <Typography.Text type={r.validation.isValid ? 'warning' : 'danger'} data-testid="import-row-messages">
                  {text}
                </Typography.Text>
              </Tooltip>
            ) : null;
          }}
        />
        {columns.map((c) => (
          <Table.Column<ImportRowResult> key={c.key} title={c.header} ellipsis render={(_, r) => String(r.data[c.key] ?? '')} />
        ))}
      </Table>
      {result.errors.length > 0 && (
        <Alert
          type="error"
          message={t('import.preview.errorList', { count: result.errors.length })}
          action={
            <Button size="small" icon={<DownloadOutlined />} onClick={onErrorRows} loading={busy} data-testid="import-error-rows">
              {t('imports:errorRows.download')}
            </Button>
          }
          description={
            <List
              size="small"
              dataSource={errors}
              renderItem={(e) => <List.Item>{t('import.preview.errorLine', { row: e.row, message: e.message })}</List.Item>}
              footer={
                result.errors.length > ERRORS_SHOWN && (
                  <Typography.Link onClick={() => setAllErrors(!allErrors)}>{t(allErrors ? 'import.preview.showLess' : 'import.preview.showAll')}</Typography.Link>
                )
              }
            />
          }
        />
      )}
      <Space direction="vertical">
        {(['skipErrors', 'updateExisting', 'dryRun'] as const).map((k) => (
          <Checkbox key={k} checked={choices[k]} onChange={(e) => onChoices({ ...choices, [k]: e.target.checked })} data-testid={`import-${k}`}>
            {t(`import.options.${k}`)}
          </Checkbox>
        ))}
      </Space>
    </Space>
  );
}
