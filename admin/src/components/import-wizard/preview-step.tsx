import { DownloadOutlined } from '@ant-design/icons';
import type { ImportColumn, ImportValidationResult } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Alert, Button, Checkbox, Col, List, Row, Space, Statistic, Switch, Typography } from 'antd';
import { useState } from 'react';
import { PreviewRows } from './preview-rows';

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
  /** Headers of the file that go to no column (a date of birth, "STT"…): said, not silently dropped. */
  ignoredColumns?: readonly string[];
}

/** Errors listed before "show all". */
const ERRORS_SHOWN = 5;

/** Step 2: counts, the rows with their status (10 per page), the errors, and the three options. */
export function PreviewStep({ result, columns, choices, onChoices, onErrorRows, busy, ignoredColumns = [] }: Props) {
  const t = useTranslate();
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [allErrors, setAllErrors] = useState(false);
  const rows = onlyErrors ? result.data.filter((r) => !r.validation.isValid) : result.data;
  const errors = allErrors ? result.errors : result.errors.slice(0, ERRORS_SHOWN);
  return (
    <Space direction="vertical" className="full-width" data-testid="import-preview">
      <Row gutter={16}>
        <Col xs={12} sm={6}>
          <Statistic title={t('import.preview.total')} value={result.summary.total} />
        </Col>
        <Col xs={12} sm={6}>
          <Statistic title={t('import.preview.valid')} value={result.summary.valid} valueStyle={{ color: '#52c41a' }} />
        </Col>
        <Col xs={12} sm={6}>
          <Statistic
            title={t('import.preview.errors')}
            value={result.summary.invalid}
            valueStyle={{ color: result.summary.invalid ? '#ff4d4f' : undefined }}
          />
        </Col>
        <Col xs={12} sm={6}>
          <Statistic title={t('import.preview.warnings')} value={result.warnings.length} />
        </Col>
      </Row>
      {ignoredColumns.length > 0 && (
        <Alert
          type="info"
          showIcon
          message={t('imports:preview.ignored', { columns: ignoredColumns.join(', ') })}
          data-testid="import-ignored"
        />
      )}
      <Typography.Text type="secondary">{t('imports:preview.detailHint')}</Typography.Text>
      <Space>
        <Switch checked={onlyErrors} onChange={setOnlyErrors} size="small" aria-label={t('import.preview.onlyErrors')} />
        <Typography.Text>{t('import.preview.onlyErrors')}</Typography.Text>
      </Space>
      <PreviewRows rows={rows} columns={columns} />
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
                  <Typography.Link onClick={() => setAllErrors(!allErrors)}>
                    {t(allErrors ? 'import.preview.showLess' : 'import.preview.showAll')}
                  </Typography.Link>
                )
              }
            />
          }
        />
      )}
      <Space direction="vertical">
        {(['skipErrors', 'updateExisting', 'dryRun'] as const).map((k) => (
          <Checkbox
            key={k}
            checked={choices[k]}
            onChange={(e) => onChoices({ ...choices, [k]: e.target.checked })}
            data-testid={`import-${k}`}
          >
            {t(`import.options.${k}`)}
          </Checkbox>
        ))}
      </Space>
    </Space>
  );
}
