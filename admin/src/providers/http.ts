/**
 * The admin's HTTP: the shared client (bearer token, one queued refresh on a 401, 000 §8 error
 * messages; shared/src/client/http.ts) pointed at /api. The axios instance simple-rest needs is in
 * axios-client.ts, loaded with the data provider, so the sign-in page never downloads axios.
 */
import { ApiError, createApiClient, errorMessage, fieldErrors } from '@doanhoi/shared/client/http';
import { session } from './session';

export { ApiError, errorMessage, fieldErrors };
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
