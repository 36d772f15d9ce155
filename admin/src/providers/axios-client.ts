/** axios on top of the admin's authFetch, for @refinedev/simple-rest (data.ts); errors become Refine HttpErrors. */
import axios from 'axios';
import { ApiError, authFetch, errorMessage, fieldErrors } from './http';

export const httpClient = axios.create({ adapter: 'fetch', env: { fetch: authFetch } });

httpClient.interceptors.response.use(
  (response) => response,
  (error: unknown) => {
    if (axios.isAxiosError(error) && error.response) {
      const { status, data } = error.response;
      return Promise.reject(new ApiError(errorMessage(status, data), status, fieldErrors(data)));
    }
    return Promise.reject(error);
  },
);
