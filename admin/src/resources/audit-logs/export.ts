import { downloadFile } from '../../providers/download';

/** Downloads the xlsx of the rows the current filters select (GET /audit-logs/export). */
export function downloadAuditExport(query: Record<string, string | number | undefined>): Promise<void> {
  return downloadFile('/audit-logs/export', { query, fallback: 'audit.xlsx' });
}
