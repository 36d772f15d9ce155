/**
 * Request logs as an operator reads them: one JSON line per request with its id, method, path,
 * status and duration; an unexpected error's stack once; no password, token or query string.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { openDb } from '../db/client';
import { runMigrations } from '../db/migrate';
import { seedAdmin, seedDefaultRoles, seedPermissions } from '../seed/seed';
import { testEnv } from '../env';
import { createLogger } from './logger';

type Line = Record<string, any>;
let lines: Line[];
let raw: string;

async function build() {
  const env = testEnv();
  const db = openDb(':memory:');
  runMigrations(db);
  await seedPermissions(db);
  await seedDefaultRoles(db);
  const log = createLogger('info', {
    write: (s: string) => {
      raw += s;
      lines.push(JSON.parse(s));
    },
  });
  const app = createApp({ db, env }, { adminDist: '/nonexistent', portalDist: '/nonexistent', logger: log });
  return { app, db, env };
}

async function signIn(app: Awaited<ReturnType<typeof build>>['app']) {
  const res = await app.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@doanhoi.local', password: 'admin123' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string; refreshToken: string }).accessToken;
}

const requests = () => lines.filter((l) => l.msg === 'request');

beforeEach(() => {
  lines = [];
  raw = '';
});

describe('request logs', () => {
  it('log each request once with its id, method, path, status and duration, and answer the id in X-Request-Id', async () => {
    const { app, db, env } = await build();
    await seedAdmin(db, env);
    await signIn(app);
    const res = await app.request('/api/users?page=1', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');

    const [login, users] = requests();
    expect(requests()).toHaveLength(2);
    expect(login).toMatchObject({ level: 30, method: 'POST', path: '/api/auth/login', status: 200 });
    expect(login!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(users).toMatchObject({ requestId: 'trace-abc-123', method: 'GET', path: '/api/users', status: 401 });
    expect(typeof users!.ms).toBe('number');
  });

  it('never contain the password, the tokens or the query string', async () => {
    const { app, db, env } = await build();
    await seedAdmin(db, env);
    const token = await signIn(app);
    await app.request('/api/auth/me/organizations?code=oauth-secret-code', { headers: { authorization: `Bearer ${token}` } });
    await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@doanhoi.local', password: 'wrong-pass-xyz' }),
    });
    expect(requests().map((l) => l.status)).toEqual([200, 200, 401]);
    for (const secret of ['admin123', 'wrong-pass-xyz', token, token.split('.')[2]!, 'oauth-secret-code'])
      expect(raw).not.toContain(secret);
  });

  it('log an unexpected error with its stack once, and answer a generic 500', async () => {
    const { app, db, env } = await build();
    await seedAdmin(db, env);
    const token = await signIn(app);
    db.$client.close();
    const res = await app.request('/api/users', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Lỗi máy chủ nội bộ' });
    const id = res.headers.get('x-request-id');
    const withStack = lines.filter((l) => l.err?.stack);
    expect(withStack).toHaveLength(1);
    expect(withStack[0]).toMatchObject({ level: 50, requestId: id });
    expect(requests().at(-1)).toMatchObject({ requestId: id, status: 500, level: 50 });
    expect(requests().at(-1)!.err).toBeUndefined();
  });
});
