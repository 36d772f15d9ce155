/**
 * The one place that talks HTTP: adds the bearer token, refreshes it once on a 401 (concurrent
 * requests wait for that refresh and are replayed), and turns error bodies into 000 §8 messages.
 * Refine's simple-rest provider needs an axios instance, so `httpClient` is axios running on this fetch.
 */
import axios from 'axios';
import type { HttpError } from '@refinedev/core';
import { session } from './session';

export const API_URL = '/api';

export class ApiError extends Error implements HttpError {
  [key: string]: unknown;
  constructor(
    message: string,
    public statusCode: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 000 §8: the server's `message` when the body is JSON, else the raw text, else the status. */
export function errorMessage(status: number, body: unknown): string {
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message) return message;
  if (typeof body === 'string' && body.trim()) return body;
  return `HTTP error! status: ${status}`;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

let refreshing: Promise<string> | null = null;

async function refreshAccessToken(): Promise<string> {
  const refreshToken = session.refreshToken();
  if (!refreshToken) throw new Error('No refresh token available');
  const res = await fetch(`${API_URL}/auth/refresh`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  const body = await readBody(res);
  if (!res.ok) throw new ApiError(errorMessage(res.status, body), res.status);
  const tokens = body as { accessToken: string; refreshToken?: string };
  // Refresh tokens rotate: the old one is now spent, so the new one must be stored.
  session.setTokens(tokens.accessToken, tokens.refreshToken ?? refreshToken);
  return tokens.accessToken;
}

/** Only one refresh runs at a time; every 401 that arrives meanwhile waits for the same promise. */
function refreshOnce(): Promise<string> {
  refreshing ??= refreshAccessToken().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Clears the session and leaves for /login, remembering where the user was. */
export function redirectToLogin() {
  session.clear();
  const { pathname, search } = window.location;
  if (pathname === '/login') return;
  const from = `${pathname}${search}`;
  window.location.assign(from.length > 1 ? `/login?to=${encodeURIComponent(from)}` : '/login');
}

function withToken(req: Request, token: string | null): Request {
  if (token) req.headers.set('Authorization', `Bearer ${token}`);
  return req;
}

export async function authFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  // A request body can be sent only once; keep a copy for the replay after a refresh.
  const spare = request.clone();
  const token = session.accessToken();
  const res = await fetch(withToken(request, token));
  if (res.status !== 401 || !token) return res;
  try {
    // Another request may have refreshed while this one was in flight: reuse its token.
    const current = session.accessToken();
    const fresh = current && current !== token ? current : await refreshOnce();
    return await fetch(withToken(spare, fresh));
  } catch (err) {
    console.warn('[auth] token refresh failed:', err instanceof Error ? err.message : err);
    redirectToLogin();
    return res;
  }
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** false for the sign-in calls, which must never trigger a refresh. */
  auth?: boolean;
  /** A bearer token to send as is (with auth: false): the Google callback checks its tokens this way. */
  token?: string;
}

/** JSON call for providers; a 204, empty or non-JSON success body gives null (000 §7). */
export async function apiRequest<T>(path: string, { method = 'GET', body, auth = true, token }: RequestOptions = {}): Promise<T> {
  const send = auth ? authFetch : fetch;
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await send(`${API_URL}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await readBody(res);
  if (!res.ok) throw new ApiError(errorMessage(res.status, data), res.status);
  return (typeof data === 'string' ? null : data) as T;
}

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
