import { errorMessage, readBody } from '@doanhoi/shared/client/http';
import { authFetch } from './http';

/** The file name the server chose (Content-Disposition), or `fallback`. */
export function serverFileName(res: Response, fallback: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? fallback;
}

/**
 * Fetches a file with the signed-in session and saves it under `name` (or the name it computes from
 * the answer); a refusal throws the API's message.
 */
export async function downloadFile(url: string, init: RequestInit, name: string | ((res: Response) => string)): Promise<void> {
  const res = await authFetch(url, init);
  if (!res.ok) throw new Error(errorMessage(res.status, await readBody(res)));
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = typeof name === 'string' ? name : name(res);
  a.click();
  URL.revokeObjectURL(href);
}
