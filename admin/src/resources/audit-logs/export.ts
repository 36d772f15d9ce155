import { errorMessage, readBody } from '@doanhoi/shared/client/http';
import { API_URL, authFetch } from '../../providers/http';

/** The server's file name (Content-Disposition) or a fallback. */
function fileNameOf(res: Response): string {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? 'audit.xlsx';
}

/** Downloads the xlsx of the rows the current filters select (GET /audit-logs/export). */
export async function downloadAuditExport(query: Record<string, string | number | undefined>): Promise<void> {
  const qs = new URLSearchParams(
    Object.entries(query)
      .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  const res = await authFetch(`${API_URL}/audit-logs/export${qs.size ? `?${qs}` : ''}`);
  if (!res.ok) throw new Error(errorMessage(res.status, await readBody(res)));
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameOf(res);
  a.click();
  URL.revokeObjectURL(url);
}
