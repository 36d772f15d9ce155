/**
 * The HTTP client of both apps (000 §8, 001 §7): adds the bearer token, refreshes it once on a 401
 * (concurrent 401s wait for that one refresh and are replayed with the new token), and turns error
 * bodies into messages. Framework-free: each app says where a dead session goes (onAuthFailure).
 */
import { session } from './session';

export class ApiError extends Error {
  /** The same status under Refine's HttpError name; an own field so copies of the error keep it. */
  readonly statusCode: number;

  constructor(
    message: string,
    public readonly status: number,
    /** The body's `errors` per input (a 400's failing fields, a 409's taken code): Refine's forms show them under the fields. */
    public readonly errors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = status;
  }
}

/** The body's `{ field: [message] }`, when it has one. */
export function fieldErrors(body: unknown): Record<string, string[]> | undefined {
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, v] of Object.entries(errors)) {
    const list = (Array.isArray(v) ? v : [v]).filter((m): m is string => typeof m === 'string' && m !== '');
    if (list.length) out[field] = list;
  }
  return Object.keys(out).length ? out : undefined;
}

/** 000 §8: the server's JSON `message`, else the raw text, else 'HTTP error! status: N'. */
export function errorMessage(status: number, body: unknown): string {
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message) return message;
  if (typeof body === 'string' && body.trim()) return body;
  return `HTTP error! status: ${status}`;
}

/** JSON when it parses, else the raw text; null for an empty body (a 204). */
export async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface ApiClientOptions {
  /** Prefix of every request() path, and where /auth/refresh lives. */
  baseUrl: string;
  /** Runs once the session keys are cleared after a failed refresh: each app goes to its own sign-in. */
  onAuthFailure: (reason: unknown) => void;
  /**
   * Also end the session on a 401 that no refresh can fix (no token was sent, or the replay is refused).
   * The portal has nothing else to catch those; the admin leaves them to Refine's authProvider.onError.
   */
  endSessionOnAny401?: boolean;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** false: no session bearer and no refresh (the sign-in calls). */
  auth?: boolean;
  /** false: send the session bearer but never refresh or end the session on a 401 (sign-out). */
  refresh?: boolean;
  /** With auth: false, a bearer to send as is (the admin's Google callback checks its tokens this way). */
  token?: string;
}

function withToken(req: Request, token: string | null | undefined): Request {
  if (token) req.headers.set('Authorization', `Bearer ${token}`);
  return req;
}

export function createApiClient({ baseUrl, onAuthFailure, endSessionOnAny401 = false }: ApiClientOptions) {
  let refreshing: Promise<string> | null = null;

  async function refreshAccessToken(): Promise<string> {
    const refreshToken = session.refreshToken();
    if (!refreshToken) throw new Error('No refresh token available');
    const res = await fetch(`${baseUrl}/auth/refresh`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    const body = await readBody(res);
    if (!res.ok) throw new ApiError(errorMessage(res.status, body), res.status);
    const tokens = body as { accessToken?: string; refreshToken?: string } | null;
    if (!tokens?.accessToken) throw new Error('No access token in the refresh response');
    // Refresh tokens rotate: the old one is spent, so both must be stored.
    session.setTokens(tokens.accessToken, tokens.refreshToken ?? refreshToken);
    return tokens.accessToken;
  }

  /** One refresh at a time; every 401 arriving meanwhile waits for the same promise. */
  function refreshOnce(): Promise<string> {
    refreshing ??= refreshAccessToken().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function endSession(reason: unknown) {
    console.warn('[auth] session ended:', reason instanceof Error ? reason.message : reason);
    session.clear();
    onAuthFailure(reason);
  }

  /** fetch with the session bearer and the refresh; a 401 it cannot fix is returned as is. */
  async function authFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    // A request body can be sent only once; keep a copy for the replay after a refresh.
    const spare = request.clone();
    const token = session.accessToken();
    const res = await fetch(withToken(request, token));
    if (res.status !== 401) return res;
    if (!token) {
      if (endSessionOnAny401) endSession(new Error('Not signed in'));
      return res;
    }
    let replay: Response;
    try {
      // Another request may have refreshed while this one was in flight: reuse its token.
      const current = session.accessToken();
      replay = await fetch(withToken(spare, current && current !== token ? current : await refreshOnce()));
    } catch (err) {
      endSession(err);
      return res;
    }
    if (replay.status === 401 && endSessionOnAny401) endSession(new Error('Still unauthorized after refresh'));
    return replay;
  }

  /** A JSON call; an empty (204) or non-JSON success body gives null (000 §7). Failures throw ApiError. */
  async function request<T>(path: string, { method = 'GET', body, auth = true, refresh = true, token }: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const bearer = auth ? (refresh ? null : session.accessToken()) : token;
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    const send = auth && refresh ? authFetch : fetch;
    const res = await send(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await readBody(res);
    if (!res.ok) throw new ApiError(errorMessage(res.status, data), res.status, fieldErrors(data));
    return (typeof data === 'string' ? null : data) as T;
  }

  return { authFetch, request };
}
