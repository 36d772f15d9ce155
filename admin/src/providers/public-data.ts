/**
 * Refine's second data provider, "public": the calls made before anyone is signed in (the sign-in
 * options, forgotten and reset passwords). They send no token and never trigger a refresh, and they
 * go through the small shared client, so the sign-in page still loads no axios (issue 12).
 * Screens reach it with `dataProviderName: 'public'` on useCustom / useCustomMutation.
 */
import type { CustomParams, DataProvider } from '@refinedev/core';
import { API_URL, apiRequest } from './http';

const none = () => Promise.reject(new Error('The public data provider only answers custom calls'));

export const publicDataProvider: DataProvider = {
  getApiUrl: () => API_URL,
  getList: none,
  getOne: none,
  create: none,
  update: none,
  deleteOne: none,
  custom: async <T>({ url, method, payload }: CustomParams) => {
    const path = url.startsWith(`${API_URL}/`) ? url.slice(API_URL.length) : url;
    const data = await apiRequest<T>(path, { method: method.toUpperCase() as 'GET', body: payload, auth: false });
    return { data };
  },
};
