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
import { useDataProvider } from '@refinedev/core';
import { useMemo } from 'react';
import { downloadFile } from '../../providers/download';
import { API_URL } from '../../providers/http';

/** What the wizard keeps of an upload (the API's answer also carries a preview); ignoredColumns: headers that matched none of ours. */
export type Uploaded = Pick<ImportUpload, 'sessionId' | 'fileName' | 'totalRows'> & Partial<Pick<ImportUpload, 'ignoredColumns'>>;

/** Where an import's calls live when they differ from `<base>/import/...` (organization members, 000 §7). */
export interface ImportPaths {
  upload: string;
  /** Prefix of `/{sessionId}/validate|execute|status`. */
  session: string;
  template: string;
}

/**
 * The wizard's calls, through the data provider's `custom` (FormData uploads included); files come
 * down through the one download helper. `lang`: the screen's language, so the rows' messages and
 * the error file come in it.
 */
export function useImportApi(base: string, custom?: ImportPaths, lang = 'vi') {
  const dataProvider = useDataProvider();
  return useMemo(() => importApi(dataProvider().custom!, base, custom, lang), [dataProvider, base, custom, lang]);
}

type Custom = NonNullable<ReturnType<ReturnType<typeof useDataProvider>>['custom']>;

function importApi(custom: Custom, base: string, given?: ImportPaths, lang = 'vi') {
  const language = { 'Accept-Language': lang };
  const send = async <T>(path: string, method: 'get' | 'post', payload?: unknown) =>
    (await custom({ url: `${API_URL}${path}`, method, payload, headers: language })).data as T;
  const paths: ImportPaths = given ?? { upload: `${base}/import/upload`, session: `${base}/import`, template: `${base}/template` };
  const withFile = (file: File, mapping?: ImportMapping) => {
    const form = new FormData();
    form.append('file', file);
    if (mapping) form.append('mapping', JSON.stringify(mapping));
    return form;
  };
  return {
    /** The file's headers and the suggested or remembered mapping (the mapping step). */
    headers: (file: File) => send<ImportHeadersResult>(paths.upload.replace('/import/upload', '/import/headers'), 'post', withFile(file)),
    upload: (file: File, mapping?: ImportMapping) => send<Uploaded>(paths.upload, 'post', withFile(file, mapping)),
    validate: (sessionId: string) => send<ImportValidationResult>(`${paths.session}/${sessionId}/validate`, 'get'),
    execute: (sessionId: string, options: Omit<ImportOptions, 'batchSize'>) =>
      send<ImportExecutionResult>(`${paths.session}/${sessionId}/execute`, 'post', { options }),
    status: (sessionId: string) => send<ImportStatus>(`${paths.session}/${sessionId}/status`, 'get'),
    /** The template is behind sign-in, so it is fetched with the token and saved from a blob. */
    downloadTemplate: (fileName: string) => downloadFile(paths.template, { fileName }),
    /** The rows validation refused, with their reasons, as an xlsx to fix and upload again. */
    downloadErrorRows: (sessionId: string, fileName: string) =>
      downloadFile(`${paths.session}/${sessionId}/error-rows`, { headers: language, fileName }),
  };
}
