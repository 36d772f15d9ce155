/**
 * Refine's antd notification provider reads antd's <App> context, so the 5 s toast duration
 * (000 §2, §9) is set once on <App notification={NOTIFICATION_CONFIG}> rather than per toast.
 */
export { useNotificationProvider } from '@refinedev/antd';

// Bottom right: at the top the toasts covered the screens' action buttons for five seconds.
export const NOTIFICATION_CONFIG = { duration: 5, placement: 'bottomRight' as const };
