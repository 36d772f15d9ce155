/** The import calls of 000 §7 for one resource base path (e.g. "/departments"). */
import type {
  ImportExecutionResult,
  ImportHeadersResult,
  ImportMapping,
  ImportOptions,
  ImportStatus,
  ImportUpload,
  ImportValidationResult,
} from '@doanhoi/shared';
import { readBody, errorMessage } from '@doanhoi/shared/client/http';
import { API_URL, apiRequest, authFetch } from '../../providers/http';

/** What the wizard keeps of an upload (the API's answer also carries a preview); ignoredColumns: headers that matched none of ours. */
export type Uploaded = Pick<ImportUpload, 'sessionId' | 'fileName' | 'totalRows'> & Partial<Pick<ImportUpload, 'ignoredColumns'>>;

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

async function save(path: string, fileName: string, headers: Record<string, string> = {}) {
  const res = await authFetch(`${API_URL}${path}`, { headers });
  if (!res.ok) throw new Error(errorMessage(res.status, await readBody(res)));
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}

/** `lang`: the screen's language, so the rows' messages and the error file come in it. */
export function importApi(base: string, custom?: ImportPaths, lang = 'vi') {
  const language = { 'Accept-Language': lang };
  const paths: ImportPaths = custom ?? { upload: `${base}/import/upload`, session: `${base}/import`, template: `${base}/template` };
  const withFile = (file: File, mapping?: ImportMapping) => {
    const form = new FormData();
    form.append('file', file);
    if (mapping) form.append('mapping', JSON.stringify(mapping));
    return form;
  };
  return {
    /** The file's headers and the suggested or remembered mapping (the mapping step). */
    headers: (file: File) =>
      send<ImportHeadersResult>(paths.upload.replace('/import/upload', '/import/headers'), {
        method: 'POST',
        headers: language,
        body: withFile(file),
      }),
    upload: (file: File, mapping?: ImportMapping) =>
      send<Uploaded>(paths.upload, { method: 'POST', headers: language, body: withFile(file, mapping) }),
    validate: (sessionId: string) => send<ImportValidationResult>(`${paths.session}/${sessionId}/validate`, { headers: language }),
    execute: (sessionId: string, options: Omit<ImportOptions, 'batchSize'>) =>
      send<ImportExecutionResult>(`${paths.session}/${sessionId}/execute`, {
        method: 'POST',
        headers: { ...language, 'Content-Type': 'application/json' },
        body: JSON.stringify({ options }),
      }),
    status: (sessionId: string) => apiRequest<ImportStatus>(`${paths.session}/${sessionId}/status`),
    /** The template is behind sign-in, so it is fetched with the token and saved from a blob. */
    downloadTemplate: (fileName: string) => save(paths.template, fileName),
    /** The rows validation refused, with their reasons, as an xlsx to fix and upload again. */
    downloadErrorRows: (sessionId: string, fileName: string) => save(`${paths.session}/${sessionId}/error-rows`, fileName, language),
  };
}
