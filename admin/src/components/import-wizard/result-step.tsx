import type { ImportExecutionResult } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { List, Result, Statistic, Row, Col } from 'antd';

/** Errors shown on the result step (000 §2). */
const ERRORS_SHOWN = 5;

/** 000 §4: success when nothing failed, partial when some rows were imported and some failed, else failure. */
export function outcome(r: Pick<ImportExecutionResult, 'importedCount' | 'failedCount'>): 'success' | 'partial' | 'failure' {
  if (r.failedCount === 0) return 'success';
  return r.importedCount > 0 ? 'partial' : 'failure';
}

const STATUS = { success: 'success', partial: 'warning', failure: 'error' } as const;

/** Step 4: what was written (or, for a dry run, would be), skipped and failed, the first errors and how to fix them. */
export function ResultStep({ result }: { result: ImportExecutionResult }) {
  const t = useTranslate();
  const kind = outcome(result);
  const prefix = result.dryRun ? 'import.result.dry' : 'import.result';
  return (
    <div data-testid="import-result" data-outcome={kind}>
      <Result
        status={STATUS[kind]}
        title={t(`${prefix}.${kind}`, { imported: result.importedCount, failed: result.failedCount, skipped: result.skippedCount })}
        subTitle={kind !== 'success' ? t('import.result.howToFix') : undefined}
      />
      <Row gutter={16}>
        <Col span={8}>
          <Statistic title={t(result.dryRun ? 'import.result.wouldImport' : 'import.result.imported')} value={result.importedCount} />
        </Col>
        <Col span={8}>
          <Statistic title={t('import.result.skipped')} value={result.skippedCount} />
        </Col>
        <Col span={8}>
          <Statistic title={t('import.result.failed')} value={result.failedCount} />
        </Col>
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
