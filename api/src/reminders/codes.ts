/** Permission codes of the reminders domain, shared by its service and the outbox resend. */
export const SEND_REMINDERS = 'payment-campaigns.send_reminders';
/** Reads every outbox row, of any organization (decisions.md). */
export const VIEW_LOGS = 'system.view_logs';
