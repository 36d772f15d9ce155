import type { ExportField, ExportGroup, ExportKind } from '@doanhoi/shared';
import { errorMessage, readBody } from '@doanhoi/shared/client/http';
import { useTranslate } from '@refinedev/core';
import { Alert, App, Button, Checkbox, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { API_URL, authFetch } from '../../providers/http';

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

/** The file name the server chose (Content-Disposition), or a fallback. */
function fileNameOf(res: Response): string {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? 'export.xlsx';
}

/** The export dialog of 000 §2: fields by group, select / deselect all, nothing exported without a field. */
export function ExportDialog({ open, onClose, title, fields, kind, path, filters }: Props) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [chosen, setChosen] = useState<string[]>(() => fields.map((f) => f.key));
  const [busy, setBusy] = useState(false);

  async function run() {
    setBusy(true);
    try {
      const res = await authFetch(`${API_URL}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...filters, fields: chosen, format: 'xlsx' }),
      });
      if (!res.ok) throw new Error(errorMessage(res.status, await readBody(res)));
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameOf(res);
      a.click();
      URL.revokeObjectURL(url);
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
