import type { ImportExecutionResult } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { List, Result, Statistic, Row, Col } from 'antd';

/** Errors shown on the result step (000 §2). */
const ERRORS_SHOWN = 5;

/** Step 4: what was written, skipped and failed, and the first errors. */
export function ResultStep({ result }: { result: ImportExecutionResult }) {
  const t = useTranslate();
  return (
    <div data-testid="import-result">
      <Result
        status={result.success ? (result.failedCount ? 'warning' : 'success') : 'error'}
        title={result.dryRun ? t('import.result.dryRun') : result.message}
      />
      <Row gutter={16}>
        <Col span={8}><Statistic title={t('import.result.imported')} value={result.importedCount} /></Col>
        <Col span={8}><Statistic title={t('import.result.skipped')} value={result.skippedCount} /></Col>
        <Col span={8}><Statistic title={t('import.result.failed')} value={result.failedCount} /></Col>
      </Row>
      {result.errors.length > 0 && (
        <List
          size="small"
          header={t('import.result.firstErrors', { count: Math.min(ERRORS_SHOWN, result.errors.length), total: result.errors.length })}
          dataSource={result.errors.slice(0, ERRORS_SHOWN)}
          renderItem={(e) => <List.Item>{t('import.preview.errorLine', { row: e.row, message: e.message })}</List.Item>}
        />
      )}
    </div>
  );
}
