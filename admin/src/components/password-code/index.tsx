import { formatDateTime } from '@doanhoi/shared';
import { useNotification, useTranslate } from '@refinedev/core';
import { Alert, Button, Typography } from 'antd';
import { useState } from 'react';
import { issuePasswordCode } from '../../providers';

/**
 * Issue 25 item 7: an account on its default password needs a one-time code for its first change.
 * An administrator who may manage the account issues one for an owner who cannot read the e-mail;
 * the server keeps only its hash, so it is shown here once.
 */
export function IssuePasswordCode({ userId }: { userId: number }) {
  const t = useTranslate();
  const { open: notify } = useNotification();
  const [issued, setIssued] = useState<{ code: string; expiresAt: string } | null>(null);
  const [loading, setLoading] = useState(false);
  const issue = async () => {
    setLoading(true);
    try {
      setIssued(await issuePasswordCode(userId));
    } catch (err) {
      notify?.({ type: 'error', message: t('auth:passwordCode.failed'), description: err instanceof Error ? err.message : '' });
    } finally {
      setLoading(false);
    }
  };
  if (issued) {
    const time = formatDateTime(issued.expiresAt);
    return (
      <Alert
        type="success"
        showIcon
        data-testid="issued-password-code"
        message={
          <Typography.Text copyable strong>
            {issued.code}
          </Typography.Text>
        }
        description={t('auth:passwordCode.shownOnce', { time })}
      />
    );
  }
  return (
    <>
      <Typography.Paragraph type="secondary">{t('auth:passwordCode.onDefault')}</Typography.Paragraph>
      <Button onClick={() => void issue()} loading={loading} data-testid="issue-password-code">
        {t('auth:passwordCode.issue')}
      </Button>
    </>
  );
}
