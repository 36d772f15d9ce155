import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, errorMessage, fieldErrors } from './http';
import { ORGANIZATION_KEY } from './session';

// Node's Request needs absolute URLs; the apps use '/api' against the page's origin.
const BASE = 'http://app.test/api';

/** A Storage backed by a Map: what the session module sees as localStorage. */
function fakeStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, String(v)),
    removeItem: (k: string) => void data.delete(k),
  };
}

type Handler = (req: Request) => Response | Promise<Response>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const tick = () => new Promise((r) => setTimeout(r, 5));

let storage: ReturnType<typeof fakeStorage>;
let seen: Request[];

/** Routes every fetch to `handler`, after turning (input, init) into the Request the server would get. */
function serve(handler: Handler) {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push(req.clone());
    return handler(req);
  });
}

/** An API whose data routes accept only `valid`, and whose /auth/refresh answers with `refresh`. */
function api(valid: string, refresh: () => Response | Promise<Response>): Handler {
  return async (req) => {
    if (req.url.endsWith('/auth/refresh')) return refresh();
    if (req.headers.get('Authorization') !== `Bearer ${valid}`) return json({ message: 'Phiên đã hết hạn' }, 401);
    return json({ path: new URL(req.url).pathname, body: req.method === 'POST' ? await req.json() : null });
  };
}

const refreshCalls = () => seen.filter((r) => r.url.endsWith('/auth/refresh'));

beforeEach(() => {
  storage = fakeStorage();
  seen = [];
  vi.stubGlobal('localStorage', storage);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  storage.setItem('accessToken', 'old');
  storage.setItem('refreshToken', 'r1');
  storage.setItem('user', JSON.stringify({ id: 1 }));
  storage.setItem(ORGANIZATION_KEY, '7');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('refresh on 401', () => {
  it('runs one refresh for concurrent 401s and replays each request with the new token', async () => {
    serve(
      api('new', async () => {
        await tick(); // Keep the refresh in flight while the other 401s arrive.
        return json({ accessToken: 'new', refreshToken: 'r2' });
      }),
    );
    const onAuthFailure = vi.fn();
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure });

    const results = await Promise.all([
      request<{ path: string }>('/a'),
      request<{ path: string }>('/b'),
      request<{ body: unknown }>('/c', { method: 'POST', body: { x: 1 } }),
    ]);

    expect(refreshCalls()).toHaveLength(1);
    expect(await refreshCalls()[0].json()).toEqual({ refreshToken: 'r1' });
    expect(results[0]).toMatchObject({ path: '/api/a' });
    expect(results[1]).toMatchObject({ path: '/api/b' });
    // The replay sends the body again (it was kept aside before the first attempt).
    expect(results[2]).toMatchObject({ body: { x: 1 } });
    const replays = seen.filter((r) => !r.url.endsWith('/auth/refresh') && r.headers.get('Authorization') === 'Bearer new');
    expect(replays).toHaveLength(3);
    expect([storage.getItem('accessToken'), storage.getItem('refreshToken')]).toEqual(['new', 'r2']);
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it('keeps the old refresh token when the server does not rotate it', async () => {
    serve(api('new', () => json({ accessToken: 'new' })));
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure: vi.fn() });
    await request('/a');
    expect([storage.getItem('accessToken'), storage.getItem('refreshToken')]).toEqual(['new', 'r1']);
  });

  it('reuses a token another request refreshed meanwhile instead of refreshing again', async () => {
    serve(async (req) => {
      // The session changes while this request is in flight (another tab or request refreshed).
      storage.setItem('accessToken', 'new');
      return api('new', () => json({ accessToken: 'newer' }))(req);
    });
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure: vi.fn() });
    await expect(request('/a')).resolves.toMatchObject({ path: '/api/a' });
    expect(refreshCalls()).toHaveLength(0);
  });

  it('on a failed refresh clears the session, calls onAuthFailure and throws the first 401', async () => {
    serve(api('new', () => json({ message: 'Refresh token đã hết hạn' }, 401)));
    const onAuthFailure = vi.fn();
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure });

    const err = await request('/a').catch((e: unknown) => e);

    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: 'Phiên đã hết hạn', status: 401, statusCode: 401 });
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
    expect(onAuthFailure.mock.calls[0][0]).toMatchObject({ message: 'Refresh token đã hết hạn' });
    for (const key of ['accessToken', 'refreshToken', 'user']) expect(storage.getItem(key)).toBeNull();
    // Only the session keys: the admin's onAuthFailure decides about its working organization.
    expect(storage.getItem(ORGANIZATION_KEY)).toBe('7');
  });

  it('treats a missing refresh token or a reply without an access token as a failed refresh', async () => {
    const onAuthFailure = vi.fn();
    serve(api('new', () => json({})));
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure });
    await expect(request('/a')).rejects.toThrow('Phiên đã hết hạn');
    storage.setItem('accessToken', 'old');
    await expect(request('/a')).rejects.toBeInstanceOf(ApiError);
    expect(onAuthFailure).toHaveBeenCalledTimes(2);
    expect(refreshCalls()).toHaveLength(1); // The second time there was no refresh token to send.
  });
});

describe('401s a refresh cannot fix', () => {
  it('are returned as is by default (the admin leaves them to Refine)', async () => {
    serve(api('never', () => json({ accessToken: 'new' })));
    const onAuthFailure = vi.fn();
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure });
    await expect(request('/a')).rejects.toMatchObject({ status: 401 }); // Replay refused.
    storage.removeItem('accessToken');
    await expect(request('/a')).rejects.toMatchObject({ status: 401 }); // No token sent.
    expect(onAuthFailure).not.toHaveBeenCalled();
    expect(storage.getItem('refreshToken')).toBe('r1');
  });

  it('end the session with endSessionOnAny401 (the portal)', async () => {
    serve(api('never', () => json({ accessToken: 'new' })));
    const onAuthFailure = vi.fn();
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure, endSessionOnAny401: true });
    await expect(request('/a')).rejects.toMatchObject({ status: 401, message: 'Phiên đã hết hạn' });
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
    expect(storage.getItem('refreshToken')).toBeNull();
    await expect(request('/a')).rejects.toMatchObject({ status: 401 });
    expect(onAuthFailure).toHaveBeenCalledTimes(2);
  });
});

describe('request options', () => {
  it('auth: false sends no session bearer (or the given token) and never refreshes', async () => {
    serve(api('google', () => json({ accessToken: 'new' })));
    const onAuthFailure = vi.fn();
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure, endSessionOnAny401: true });
    await expect(request('/auth/login', { method: 'POST', body: {}, auth: false })).rejects.toMatchObject({ status: 401 });
    expect(seen[0].headers.get('Authorization')).toBeNull();
    await expect(request('/auth/profile', { auth: false, token: 'google' })).resolves.toMatchObject({ path: '/api/auth/profile' });
    expect(refreshCalls()).toHaveLength(0);
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it('refresh: false sends the session bearer but leaves a 401 alone', async () => {
    serve(api('new', () => json({ accessToken: 'new' })));
    const onAuthFailure = vi.fn();
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure, endSessionOnAny401: true });
    await expect(request('/auth/logout', { method: 'POST', refresh: false })).rejects.toMatchObject({ status: 401 });
    expect(seen[0].headers.get('Authorization')).toBe('Bearer old');
    expect(refreshCalls()).toHaveLength(0);
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it('gives null for an empty or non-JSON success body', async () => {
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure: vi.fn() });
    serve(() => new Response(null, { status: 204 }));
    await expect(request('/a')).resolves.toBeNull();
    serve(() => new Response('<html>ok</html>', { status: 200 }));
    await expect(request('/a')).resolves.toBeNull();
  });
});

describe('error messages', () => {
  it('are the JSON message, else the raw text, else the status', () => {
    expect(errorMessage(400, { message: 'Email không hợp lệ' })).toBe('Email không hợp lệ');
    expect(errorMessage(400, { message: '' })).toBe('HTTP error! status: 400');
    expect(errorMessage(400, { error: 'x' })).toBe('HTTP error! status: 400');
    expect(errorMessage(502, 'Bad gateway')).toBe('Bad gateway');
    expect(errorMessage(502, '   ')).toBe('HTTP error! status: 502');
    expect(errorMessage(500, null)).toBe('HTTP error! status: 500');
  });

  it('reach the caller as ApiError', async () => {
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure: vi.fn() });
    const cases: [Response, string][] = [
      [json({ message: 'Không tìm thấy' }, 404), 'Không tìm thấy'],
      [new Response('Service Unavailable', { status: 503 }), 'Service Unavailable'],
      [new Response(null, { status: 500 }), 'HTTP error! status: 500'],
    ];
    for (const [res, message] of cases) {
      serve(() => res);
      await expect(request('/a')).rejects.toMatchObject({ name: 'ApiError', message, status: res.status });
    }
  });
  it("carry the body's errors per field, for the forms (issue 26 item 7)", async () => {
    const { request } = createApiClient({ baseUrl: BASE, onAuthFailure: vi.fn() });
    serve(() => json({ message: 'Mã tổ chức "X" đã tồn tại', errors: { code: ['Mã tổ chức "X" đã tồn tại'] } }, 409));
    await expect(request('/a')).rejects.toMatchObject({ statusCode: 409, errors: { code: ['Mã tổ chức "X" đã tồn tại'] } });
    expect(fieldErrors({ errors: { email: 'Sai', code: [1, ''], name: ['Trùng'] } })).toEqual({ email: ['Sai'], name: ['Trùng'] });
    expect(fieldErrors({ message: 'x' })).toBeUndefined();
    expect(fieldErrors({ errors: ['x'] })).toBeUndefined();
  });
});
