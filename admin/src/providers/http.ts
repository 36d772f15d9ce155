/**
 * The admin's HTTP: the shared client (bearer token, one queued refresh on a 401, 000 §8 error
 * messages; shared/src/client/http.ts) pointed at /api. Refine's simple-rest provider needs an
 * axios instance, so `httpClient` is axios running on the client's authFetch.
 */
import axios from 'axios';
import { ApiError, createApiClient, errorMessage } from '@doanhoi/shared/client/http';
import { session } from './session';

export { ApiError };
export const API_URL = '/api';

/** Leaves for /login, remembering where the user was. */
function redirectToLogin() {
  // The shared client removed the tokens and user; the working organization goes too.
  session.clear();
  const { pathname, search } = window.location;
  if (pathname === '/login') return;
  const from = `${pathname}${search}`;
  window.location.assign(from.length > 1 ? `/login?to=${encodeURIComponent(from)}` : '/login');
}

// A 401 left after the refresh is returned, not handled here: Refine's authProvider.onError signs out.
const client = createApiClient({ baseUrl: API_URL, onAuthFailure: redirectToLogin });

export const authFetch = client.authFetch;
/** JSON call for providers; `{ auth: false }` for the sign-in calls, which must never trigger a refresh. */
export const apiRequest = client.request;

/** axios on top of authFetch, for @refinedev/simple-rest; errors become Refine HttpErrors. */
export const httpClient = axios.create({ adapter: 'fetch', env: { fetch: authFetch } });

httpClient.interceptors.response.use(
  (response) => response,
  (error: unknown) => {
    if (axios.isAxiosError(error) && error.response) {
      const { status, data } = error.response;
      return Promise.reject(new ApiError(errorMessage(status, data), status));
    }
    return Promise.reject(error);
  },
);
