import type { ImportColumn, ImportExecutionResult, ImportHeadersResult, ImportMapping, ImportValidationResult } from '@doanhoi/shared';
import { useGetLocale, useInvalidate, useTranslate } from '@refinedev/core';
import { Alert, Button, Modal, Progress, Space, Spin, Steps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useImportApi, type ImportPaths, type Uploaded } from './api';
import { MappingStep, missingRequired } from './mapping-step';
import { PreviewStep, type ImportChoices } from './preview-step';
import { ResultStep } from './result-step';
import { UploadStep } from './upload-step';

interface Props {
  open: boolean;
  onClose: () => void;
  /** The Refine resource and API path, e.g. "departments" (→ /api/departments/import/...). */
  resource: string;
  columns: readonly ImportColumn[];
  templateName: string;
  title: string;
  /** Calls that do not follow `/<resource>/import/...` (organization members). */
  paths?: ImportPaths;
}

type Step = 'upload' | 'mapping' | 'preview' | 'importing' | 'result';
const STEPS: Step[] = ['upload', 'preview', 'importing', 'result'];
/** With a file whose headers differ from the template, a mapping step comes second (issue 15 part 5). */
const MAPPED_STEPS: Step[] = ['upload', 'mapping', 'preview', 'importing', 'result'];
const DEFAULT_CHOICES: ImportChoices = { skipErrors: true, updateExisting: false, dryRun: false };

/**
 * The four-step import dialog of 000 §2 (upload → preview → importing → result) over the API's
 * upload / validate / execute / status calls, with a column-mapping step when the file's headers
 * differ from the template. Nothing is written before the import step.
 */
export function ImportWizard({ open, onClose, resource, columns, templateName, title, paths }: Props) {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const lang = useGetLocale()() ?? 'vi';
  const api = useImportApi(`/${resource}`, paths, lang);
  const [step, setStep] = useState<Step>('upload');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [ignored, setIgnored] = useState<string[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<ImportHeadersResult | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [validation, setValidation] = useState<ImportValidationResult | null>(null);
  const [choices, setChoices] = useState(DEFAULT_CHOICES);
  const [progress, setProgress] = useState(0);
  const [result, setResult] = useState<ImportExecutionResult | null>(null);
  const poll = useRef<ReturnType<typeof setInterval> | null>(null);

  const stopPolling = () => {
    if (poll.current) clearInterval(poll.current);
    poll.current = null;
  };
  useEffect(() => stopPolling, []);

  function reset() {
    stopPolling();
    setStep('upload');
    setBusy(false);
    setError(null);
    setSessionId(null);
    setIgnored([]);
    setFile(null);
    setHeaders(null);
    setMapping({});
    setValidation(null);
    setChoices(DEFAULT_CHOICES);
    setProgress(0);
    setResult(null);
  }

  async function run(task: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const validateSession = async ({ sessionId: id, ignoredColumns }: Uploaded) => {
    setSessionId(id);
    setIgnored(ignoredColumns ?? []);
    setValidation(await api.validate(id));
    setStep('preview');
  };

  const showMapping = (f: File, h: ImportHeadersResult) => {
    setFile(f);
    setHeaders(h);
    setMapping(h.suggestion);
    setStep('mapping');
  };

  /**
   * A template file goes straight through (one upload, as before). The headers are asked for only
   * when the upload is refused (a required column missing) or left columns of the file unread.
   */
  const onFile = (f: File) =>
    run(async () => {
      let uploaded: Uploaded;
      try {
        uploaded = await api.upload(f);
      } catch (e) {
        const h = await api.headers(f).catch(() => null);
        if (!h?.needsMapping) throw e;
        return showMapping(f, h);
      }
      if (uploaded.ignoredColumns?.length) {
        const h = await api.headers(f);
        if (h.needsMapping) return showMapping(f, h);
      }
      await validateSession(uploaded);
    });

  const onMapped = () =>
    run(async () => {
      if (file) await validateSession(await api.upload(file, mapping));
    });

  const onErrorRows = () =>
    run(async () => {
      if (sessionId) await api.downloadErrorRows(sessionId, templateName.replace(/(_template)?\.xlsx$/, '_errors.xlsx'));
    });

  const onImport = () =>
    run(async () => {
      if (!sessionId) return;
      setStep('importing');
      setProgress(0);
      poll.current = setInterval(() => {
        void api
          .status(sessionId)
          .then((s) => setProgress(s.totalRows ? Math.round((100 * s.processedRows) / s.totalRows) : 0))
          .catch(() => undefined);
      }, 500);
      try {
        setResult(await api.execute(sessionId, choices));
        setStep('result');
        if (!choices.dryRun) void invalidate({ resource, invalidates: ['list'] });
      } catch (e) {
        setStep('preview');
        throw e;
      } finally {
        stopPolling();
      }
    });

  const close = () => {
    reset();
    onClose();
  };

  // 000 §5: with errors in the file, Start needs "skip errors" on (or there is nothing valid to import).
  const startable = Boolean(validation?.summary.valid) && (choices.skipErrors || !validation?.summary.invalid);
  const steps = headers?.needsMapping ? MAPPED_STEPS : STEPS;
  const footer =
    step === 'mapping' ? (
      <Space>
        <Button onClick={reset}>{t('import.buttons.back')}</Button>
        <Button
          type="primary"
          onClick={onMapped}
          loading={busy}
          disabled={missingRequired(columns, mapping).length > 0}
          data-testid="import-mapping-continue"
        >
          {t('imports:mapping.continue')}
        </Button>
      </Space>
    ) : step === 'preview' ? (
      <Space>
        <Button onClick={reset}>{t('import.buttons.back')}</Button>
        <Button type="primary" onClick={onImport} loading={busy} disabled={!startable} data-testid="import-run">
          {t(choices.dryRun ? 'import.buttons.dryRun' : 'import.buttons.import')}
        </Button>
      </Space>
    ) : step === 'result' ? (
      <Space>
        <Button onClick={reset}>{t('import.buttons.another')}</Button>
        <Button type="primary" onClick={close} data-testid="import-done">
          {t('import.buttons.done')}
        </Button>
      </Space>
    ) : null;

  return (
    <Modal open={open} onCancel={close} title={title} footer={footer} width={1120} maskClosable={false} destroyOnHidden>
      <Space direction="vertical" className="full-width" data-testid="import-wizard">
        <Steps
          size="small"
          current={steps.indexOf(step)}
          items={steps.map((s) => ({ title: s === 'mapping' ? t('imports:mapping.step') : t(`import.steps.${s}`) }))}
        />
        {error && <Alert type="error" showIcon message={error} data-testid="import-error" />}
        {step === 'upload' && (
          <Spin spinning={busy}>
            <UploadStep busy={busy} onFile={onFile} onTemplate={() => void run(() => api.downloadTemplate(templateName))} />
          </Spin>
        )}
        {step === 'mapping' && headers && <MappingStep columns={columns} headers={headers} mapping={mapping} onMapping={setMapping} />}
        {step === 'preview' && validation && (
          <PreviewStep
            result={validation}
            columns={columns}
            choices={choices}
            onChoices={setChoices}
            onErrorRows={onErrorRows}
            busy={busy}
            ignoredColumns={ignored}
          />
        )}
        {step === 'importing' && <Progress percent={progress} status="active" data-testid="import-progress" />}
        {step === 'result' && result && <ResultStep result={result} />}
      </Space>
    </Modal>
  );
}
