/**
 * The one way a file reaches the officer: an authenticated request whose answer is a blob, saved
 * under the server's file name (Content-Disposition) unless the caller names it. Blobs and
 * FormData are why this sits beside the data provider rather than in a screen.
 */
import { errorMessage, readBody } from '@doanhoi/shared/client/http';
import { API_URL, authFetch } from './http';

export interface DownloadOptions {
  method?: 'GET' | 'POST';
  /** JSON body (the export dialog's fields and filters). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Query parameters; empty values are left out. */
  query?: Record<string, string | number | undefined>;
  /** Always this name (a template the officer asked for by name). */
  fileName?: string;
  /** The name when the server gives none. */
  fallback?: string;
}

/** The server's file name (RFC 5987 `filename*` first), if it gave one. */
export function fileNameOf(res: Response): string | undefined {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  return /filename="?([^";]+)"?/i.exec(header)?.[1];
}

/** `path` under /api (or a full /api/… URL). Failures throw with the server's message. */
export async function downloadFile(path: string, options: DownloadOptions = {}): Promise<void> {
  const { method = 'GET', body, query, fileName, fallback = 'export.xlsx' } = options;
  const headers = { ...options.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const qs = new URLSearchParams(
    Object.entries(query ?? {})
      .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  const url = `${path.startsWith(`${API_URL}/`) ? path : `${API_URL}${path}`}${qs.size ? `?${qs}` : ''}`;
  const res = await authFetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(errorMessage(res.status, await readBody(res)));
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName ?? fileNameOf(res) ?? fallback;
  a.click();
  URL.revokeObjectURL(href);
}
