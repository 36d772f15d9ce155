import { errorMessage, readBody } from '@doanhoi/shared/client/http';
import { API_URL, authFetch } from '../../providers/http';

/** Saves an xlsx answer under the server's file name (Content-Disposition), else the fallback. */
export async function downloadFile(path: string, fallback: string): Promise<void> {
  const res = await authFetch(`${API_URL}${path}`);
  if (!res.ok) throw new Error(errorMessage(res.status, await readBody(res)));
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = star ? decodeURIComponent(star[1]!) : fallback;
  a.click();
  URL.revokeObjectURL(url);
}
