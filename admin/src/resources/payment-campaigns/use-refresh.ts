import { useInvalidate } from '@refinedev/core';
import { useCallback } from 'react';
import { API_URL } from '../../providers/http';

/** An absolute API URL for Refine's custom calls. */
export const apiUrl = (path: string) => `${API_URL}${path}`;

/**
 * After any payment write, every open payments query refetches: a mark-paid changes the assignment
 * list, the statistics, the history and the campaign's counts at once. Only active queries
 * refetch (the tab on screen and the campaign), so this costs a few small requests.
 */
export function usePaymentsRefresh() {
  const invalidate = useInvalidate();
  return useCallback(() => void invalidate({ invalidates: ['all'] }), [invalidate]);
}
