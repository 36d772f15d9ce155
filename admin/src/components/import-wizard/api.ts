/** The import calls of 000 §7 for one resource base path (e.g. "/departments"). */
import type { ImportExecutionResult, ImportOptions, ImportStatus, ImportUpload, ImportValidationResult } from '@doanhoi/shared';
import { readBody, errorMessage } from '@doanhoi/shared/client/http';
import { API_URL, apiRequest, authFetch } from '../../providers/http';

/** What the wizard keeps of an upload (the API's answer also carries a preview). */
export type Uploaded = Pick<ImportUpload, 'sessionId' | 'fileName' | 'totalRows'>;

async function send<T>(path: string, init: RequestInit): Promise<T> {
  const res = await authFetch(`${API_URL}${path}`, init);
  const body = await readBody(res);
  if (!res.ok) throw new Error(errorMessage(res.status, body));
  return body as T;
}

/** Where an import's calls live when they differ from `<base>/import/...` (organization members, 000 §7). */
export interface ImportPaths {
  upload: string;
  /** Prefix of `/{sessionId}/validate|execute|status`. */
  session: string;
  template: string;
}

export function importApi(base: string, custom?: ImportPaths) {
  const paths: ImportPaths = custom ?? { upload: `${base}/import/upload`, session: `${base}/import`, template: `${base}/template` };
  return {
    upload(file: File): Promise<Uploaded> {
      const form = new FormData();
      form.append('file', file);
      return send<Uploaded>(paths.upload, { method: 'POST', body: form });
    },
    validate: (sessionId: string) => apiRequest<ImportValidationResult>(`${paths.session}/${sessionId}/validate`),
    execute: (sessionId: string, options: Omit<ImportOptions, 'batchSize'>) =>
      apiRequest<ImportExecutionResult>(`${paths.session}/${sessionId}/execute`, { method: 'POST', body: { options } }),
    status: (sessionId: string) => apiRequest<ImportStatus>(`${paths.session}/${sessionId}/status`),
    /** The template is behind sign-in, so it is fetched with the token and saved from a blob. */
    async downloadTemplate(fileName: string) {
      const res = await authFetch(`${API_URL}${paths.template}`);
      if (!res.ok) throw new Error(errorMessage(res.status, await readBody(res)));
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = fileName;
      a.click();
      URL.revokeObjectURL(url);
    },
  };
}
