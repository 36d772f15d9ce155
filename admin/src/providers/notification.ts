/**
 * Refine's toasts through antd's <App> context, so the 5 s duration (000 §2, §9) is set once on
 * <App notification={NOTIFICATION_CONFIG}> rather than per toast. Written here instead of taking
 * @refinedev/antd's provider: importing anything from that package put its whole antd layout,
 * tables and markdown renderer on the sign-in page (issue 12). No mutation here is undoable, so
 * the "progress" (undo) toast of that provider is not needed.
 */
import type { NotificationProvider } from '@refinedev/core';
import { App } from 'antd';
import { useMemo } from 'react';

// Bottom right: at the top the toasts covered the screens' action buttons for five seconds.
export const NOTIFICATION_CONFIG = { duration: 5, placement: 'bottomRight' as const };

export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  return useMemo(
    () => ({
      open: ({ key, message, description, type }) =>
        notification.open({ key, description: message, message: description ?? null, type: type === 'progress' ? 'info' : type }),
      close: (key) => notification.destroy(key),
    }),
    [notification],
  );
}
