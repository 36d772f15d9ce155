/**
 * simple-rest with our list convention (page/limit/search in, `{ <key>: rows, total }` out),
 * and a custom GET's URL without simple-rest's trailing '?'. Everything else is simple-rest unchanged.
 */
import type { CrudFilter, DataProvider } from '@refinedev/core';
import simpleRest, { stringify } from '@refinedev/simple-rest';
import { httpClient } from './axios-client';
import { API_URL } from './http';

/** Where each list response keeps its rows (000 §3/§7); `…/members` lists use `members`, anything else `data`. */
const LIST_KEYS: Record<string, string> = {
  users: 'users',
  roles: 'data',
  departments: 'departments',
  classes: 'classes',
  organizations: 'data',
  'payment-campaigns': 'campaigns',
};

/** Free-text search arrives as a `search`/`q` filter; other field filters go as plain params. */
function toQuery(filters: CrudFilter[] | undefined): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const f of filters ?? []) {
    if (!('field' in f) || f.value === undefined || f.value === null || f.value === '') continue;
    query[f.field === 'q' ? 'search' : f.field] = f.value;
  }
  return query;
}

const base = simpleRest(API_URL, httpClient);

export const dataProvider: DataProvider = {
  ...base,
  // simple-rest always ends a custom GET's URL with '?' (and '?&' before a query); ours asks for exactly the path and its query.
  custom: async (params) => {
    if (params.method !== 'get' || params.filters || params.sorters) return base.custom!(params);
    const qs = stringify(params.query ?? {});
    const { data } = await httpClient.get(`${params.url}${qs ? `?${qs}` : ''}`, { headers: params.headers });
    return { data };
  },
  getList: async ({ resource, pagination, filters, sorters, meta }) => {
    const { currentPage = 1, pageSize = 10, mode = 'server' } = pagination ?? {};
    const query: Record<string, unknown> = { ...toQuery(filters), ...(meta?.query as Record<string, unknown> | undefined) };
    if (mode === 'server') Object.assign(query, { page: currentPage, limit: pageSize });
    const sorter = sorters?.[0];
    if (sorter) Object.assign(query, { sortBy: sorter.field, sortOrder: sorter.order });
    const qs = stringify(query);
    const { data: body } = await httpClient.get(`${API_URL}/${resource}${qs ? `?${qs}` : ''}`, { headers: meta?.headers });
    // meta.listKey names a nested list ('data.items'); its total sits beside it.
    const path =
      typeof meta?.listKey === 'string'
        ? meta.listKey.split('.')
        : [LIST_KEYS[resource] ?? (resource.endsWith('/members') ? 'members' : 'data')];
    const holder = path.slice(0, -1).reduce((o, k) => o?.[k], body);
    const rows = Array.isArray(body) ? body : (holder?.[path[path.length - 1]] ?? []);
    const total = typeof holder?.total === 'number' ? holder.total : rows.length;
    // A search counted up to `total` with more beyond (GET /users totalCapped): the list says "more than".
    return holder?.totalCapped === true ? { data: rows, total, totalCapped: true } : { data: rows, total };
  },
};
