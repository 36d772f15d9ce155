import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { IMPORT_MAX_BYTES } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Button, Space, Typography, Upload } from 'antd';

interface Props {
  busy: boolean;
  onFile: (file: File) => void;
  onTemplate: () => void;
}

/** Step 1: drop or pick an .xlsx file; the template is one click away. */
export function UploadStep({ busy, onFile, onTemplate }: Props) {
  const t = useTranslate();
  return (
    <Space direction="vertical" className="full-width">
      <Upload.Dragger
        accept=".xlsx,.xls"
        multiple={false}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(file) => {
          onFile(file);
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
