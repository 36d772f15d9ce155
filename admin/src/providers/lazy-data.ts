/**
 * The data provider Refine gets: each call loads data.ts (simple-rest, axios, qs) on first use.
 * Nothing on the sign-in page reads data through Refine, and those libraries were about a tenth of
 * its bytes (issue 12). Only the methods simple-rest defines are listed: Refine falls back to them
 * for the bulk ones (createMany, updateMany, deleteMany) exactly as it did before.
 */
import type { DataProvider } from '@refinedev/core';
import { API_URL } from './http';

let loaded: Promise<DataProvider> | undefined;
const real = () => (loaded ??= import('./data').then((m) => m.dataProvider));

type Method = 'getList' | 'getMany' | 'getOne' | 'create' | 'update' | 'deleteOne' | 'custom';

function forward<M extends Method>(method: M) {
  return (async (params: unknown) => {
    const provider = await real();
    return (provider[method] as (p: unknown) => Promise<unknown>)(params);
  }) as NonNullable<DataProvider[M]>;
}

export const dataProvider: DataProvider = {
  getApiUrl: () => API_URL,
  getList: forward('getList'),
  getMany: forward('getMany'),
  getOne: forward('getOne'),
  create: forward('create'),
  update: forward('update'),
  deleteOne: forward('deleteOne'),
  custom: forward('custom'),
};
