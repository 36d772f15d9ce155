import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { IMPORT_MAX_BYTES } from '@doanhoi/shared';
import { useGetLocale, useTranslate } from '@refinedev/core';
import { Alert, Button, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { refusalOf, type Refusal } from './refusal';

interface Props {
  busy: boolean;
  onFile: (file: File) => void;
  onTemplate: () => void;
}

const XLS_STEPS = ['excel', 'libreoffice', 'google'] as const;

function RefusalAlert({ refusal }: { refusal: Refusal }) {
  const t = useTranslate();
  const locale = useGetLocale()() === 'en' ? 'en-US' : 'vi-VN';
  const mb = (bytes: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(bytes / 1024 / 1024);
  if (refusal.kind === 'xls') {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="import-refused"
        message={t('imports:upload.xls')}
        description={
          <ol className="import-steps">
            {XLS_STEPS.map((k) => (
              <li key={k}>{t(`imports:upload.xlsSteps.${k}`)}</li>
            ))}
          </ol>
        }
      />
    );
  }
  if (refusal.kind === 'size') {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="import-refused"
        message={t('imports:upload.tooLarge', { size: mb(refusal.size), max: mb(IMPORT_MAX_BYTES) })}
        description={t('imports:upload.tooLargeHow')}
      />
    );
  }
  return <Alert type="error" showIcon data-testid="import-refused" message={t('imports:upload.notXlsx')} />;
}

/** Step 1: drop or pick an .xlsx file; the template is one click away. */
export function UploadStep({ busy, onFile, onTemplate }: Props) {
  const t = useTranslate();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  return (
    <Space direction="vertical" className="full-width">
      {refusal && <RefusalAlert refusal={refusal} />}
      <Upload.Dragger
        accept=".xlsx,.xls"
        multiple={false}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(file) => {
          const r = refusalOf(file);
          setRefusal(r);
          if (!r) onFile(file);
          return false;
        }}
        data-testid="import-dropzone"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('import.upload.drop')}</p>
        <p className="ant-upload-hint">{t('import.upload.hint', { size: IMPORT_MAX_BYTES / 1024 / 1024 })}</p>
      </Upload.Dragger>
      <Typography.Text>
        {t('import.upload.templateIntro')}{' '}
        <Button type="link" icon={<DownloadOutlined />} onClick={onTemplate} data-testid="import-template">
          {t('import.upload.template')}
        </Button>
      </Typography.Text>
    </Space>
  );
}
