import { API_URL } from '../../providers/http';
import { downloadFile, serverFileName } from '../../providers/download';

/** Downloads the xlsx of the rows the current filters select (GET /audit-logs/export). */
export async function downloadAuditExport(query: Record<string, string | number | undefined>): Promise<void> {
  const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '').map(([k, v]) => [k, String(v)]));
  await downloadFile(`${API_URL}/audit-logs/export${qs.size ? `?${qs}` : ''}`, {}, (res) => serverFileName(res, 'audit.xlsx'));
}
