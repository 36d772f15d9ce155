import { Space, Tooltip, Typography } from 'antd';
import type { ReactElement } from 'react';

/**
 * A button the server would refuse, shown disabled with the reason (issue 25 item 6): in a tooltip,
 * and with `visible` also as text beside it, so the officer reads why without hovering. The caller
 * disables the button; without a reason the button is returned as it is.
 */
export function WithReason({
  reason,
  visible = false,
  testId,
  children,
}: {
  reason: string | null;
  visible?: boolean;
  testId?: string;
  children: ReactElement;
}) {
  if (!reason) return children;
  return (
    <Space size={6} wrap>
      <Tooltip title={reason}>{children}</Tooltip>
      {visible && (
        <Typography.Text type="secondary" data-testid={testId}>
          {reason}
        </Typography.Text>
      )}
    </Space>
  );
}
