import type { ExportField, ExportGroup, ExportKind } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Alert, App, Button, Checkbox, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { downloadFile } from '../../providers/download';

interface Props {
  open: boolean;
  onClose: () => void;
  title: string;
  fields: readonly ExportField[];
  /** Which export: names the fields' labels in the current language (common:export.fields.<kind>). */
  kind: ExportKind;
  /** API path of the export, e.g. "/export/users". */
  path: string;
  /** Filters sent with the field list (the screen's current ones). */
  filters?: Record<string, unknown>;
}

const GROUPS: ExportGroup[] = ['basic', 'academic', 'organization', 'system'];

/** The export dialog of 000 §2: fields by group, select / deselect all, nothing exported without a field. */
export function ExportDialog({ open, onClose, title, fields, kind, path, filters }: Props) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [chosen, setChosen] = useState<string[]>(() => fields.map((f) => f.key));
  const [busy, setBusy] = useState(false);

  async function run() {
    setBusy(true);
    try {
      await downloadFile(path, { method: 'POST', body: { ...filters, fields: chosen, format: 'xlsx' } });
      notification.success({ message: t('export.done') });
      onClose();
    } catch (e) {
      notification.error({ message: t('export.failed'), description: (e as Error).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={title}
      footer={
        <Space>
          <Button onClick={onClose}>{t('buttons.cancel')}</Button>
          <Button type="primary" disabled={chosen.length === 0} loading={busy} onClick={() => void run()} data-testid="export-run">
            {t('buttons.export')}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" className="full-width" data-testid="export-dialog">
        <Space>
          <Button size="small" onClick={() => setChosen(fields.map((f) => f.key))}>
            {t('export.selectAll')}
          </Button>
          <Button size="small" onClick={() => setChosen([])}>
            {t('export.deselectAll')}
          </Button>
          <Typography.Text type="secondary">{t('export.count', { count: chosen.length, total: fields.length })}</Typography.Text>
        </Space>
        {chosen.length === 0 && <Alert type="warning" showIcon message={t('export.noneSelected')} />}
        <Checkbox.Group value={chosen} onChange={(v) => setChosen(v as string[])} className="full-width">
          <Space direction="vertical" className="full-width">
            {GROUPS.filter((g) => fields.some((f) => f.group === g)).map((g) => (
              <div key={g}>
                <Typography.Text strong>{t(`export.groups.${g}`)}</Typography.Text>
                <div className="export-fields">
                  {fields
                    .filter((f) => f.group === g)
                    .map((f) => (
                      <Checkbox key={f.key} value={f.key}>
                        {t(`export.fields.${kind}.${f.key}`, f.header)}
                      </Checkbox>
                    ))}
                </div>
              </div>
            ))}
          </Space>
        </Checkbox.Group>
      </Space>
    </Modal>
  );
}
