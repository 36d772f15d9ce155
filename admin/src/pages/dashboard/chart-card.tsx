import { DownloadOutlined } from '@ant-design/icons';
import { useGetLocale, useTranslate } from '@refinedev/core';
import { App, Button, Card, Skeleton } from 'antd';
import { Suspense, useState, type PropsWithChildren, type ReactNode } from 'react';
import { downloadFile } from '../../providers/download';

interface Props {
  title: ReactNode;
  /** The chart's xlsx (format=xlsx URL); no button without it. */
  xlsx?: string;
  testId: string;
  extra?: ReactNode;
}

/** A dashboard card whose chart body loads lazily, with "download xlsx" of its data. */
export function ChartCard({ title, xlsx, testId, extra, children }: PropsWithChildren<Props>) {
  const t = useTranslate();
  const lang = useGetLocale()();
  const { notification } = App.useApp();
  const [busy, setBusy] = useState(false);

  async function download() {
    if (!xlsx) return;
    setBusy(true);
    try {
      await downloadFile(xlsx, { headers: { 'accept-language': lang === 'en' ? 'en' : 'vi' }, fallback: 'dashboard.xlsx' });
    } catch (e) {
      notification.error({ message: t('dashboard:charts.downloadFailed'), description: (e as Error).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card
      title={title}
      data-testid={testId}
      className="dashboard-card"
      extra={
        <>
          {extra}
          {xlsx && (
            <Button size="small" icon={<DownloadOutlined />} loading={busy} onClick={() => void download()} data-testid={`${testId}-xlsx`}>
              {t('dashboard:charts.download')}
            </Button>
          )}
        </>
      }
    >
      <Suspense fallback={<Skeleton active />}>{children}</Suspense>
    </Card>
  );
}
