import { useCustom, type BaseRecord } from '@refinedev/core';
import { API_URL } from '../../providers/http';

export interface ReadOptions {
  enabled?: boolean;
  /** false: a 4xx or a missing record is an answer, not worth three more tries. */
  retry?: false;
  /** Never served from the cache (a plan or a form's current state, read again each time it opens). */
  fresh?: boolean;
  query?: Record<string, string | number | undefined>;
}

/**
 * A GET that is not a resource list or record (a tree, statistics, a dialog's choices): useCustom
 * on /api{path}, the screen showing its own error. `data` is the body once it came.
 */
export function useRead<T>(path: string, { enabled = true, retry, fresh, query }: ReadOptions = {}) {
  // BaseRecord is useCustom's type for a body, which may be a list here.
  const { query: read } = useCustom<BaseRecord>({
    url: `${API_URL}${path}`,
    method: 'get',
    config: query && { query },
    errorNotification: false,
    queryOptions: { enabled, ...(retry === false && { retry }), ...(fresh && { staleTime: 0, gcTime: 0 }) },
  });
  return { query: read, data: read.data?.data as T | undefined };
}
