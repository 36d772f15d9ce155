/** JSON answers built with every header at once (lib/response-headers.ts) against the ones Hono builds. */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isComplete } from './complete-response';
import { compressJson, jsonBody } from './compress';
import { requestId } from 'hono/request-id';
import { APP_SECURITY_HEADERS, securityHeaders } from './security-headers';

function app() {
  const a = new Hono<{ Variables: { requestId: string } }>();
  a.use('*', requestId(), securityHeaders(), compressJson());
  a.get('/json', (c) => c.json({ ok: true }));
  a.get('/big', (c) => c.json({ text: 'x'.repeat(5000) }));
  a.get('/kept', (c) => jsonBody(c, '{"kept":true}'));
  a.get('/limited', (c) => c.json({ message: 'later' }, 429, { 'Retry-After': '30' }));
  a.get('/header-first', (c) => {
    c.header('x-extra', 'yes');
    return c.json({ ok: true });
  });
  a.get('/status-first', (c) => {
    c.status(201);
    return c.json({ ok: true });
  });
  a.get('/text', (c) => c.text('plain'));
  a.get('/sandbox/payos/x', (c) => c.json({ ok: true }));
  return a;
}

const names = (h: Headers) => [...h.keys()].sort();

describe('answers built with every header', () => {
  it('carry exactly what secureHeaders sets, the request id and their own headers', async () => {
    const a = app();
    const fast = await a.request('/json');
    expect(isComplete(fast)).toBe(true);
    const slow = await a.request('/text');
    expect(isComplete(slow)).toBe(false);
    // Hono's secureHeaders, on a plain text answer, sets the same values.
    for (const [name, value] of Object.entries(APP_SECURITY_HEADERS)) {
      expect(fast.headers.get(name), name).toBe(value);
      expect(slow.headers.get(name), name).toBe(value);
    }
    // Nothing secureHeaders sets is missing from the plain object.
    const slowNames = names(slow.headers).filter((n) => !['content-type', 'x-request-id'].includes(n));
    expect(Object.keys(APP_SECURITY_HEADERS).sort()).toEqual(slowNames);
    expect(names(fast.headers)).toEqual([...Object.keys(APP_SECURITY_HEADERS), 'content-type', 'vary', 'x-request-id'].sort());
    expect(fast.headers.get('content-type')).toBe('application/json');
    expect(await fast.json()).toEqual({ ok: true });
  });

  it('keep gzip, a kept body, a status and a header given with the answer', async () => {
    const a = app();
    const big = await a.request('/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(isComplete(big)).toBe(true);
    expect(big.headers.get('content-encoding')).toBe('gzip');
    const kept = await a.request('/kept');
    expect(isComplete(kept)).toBe(true);
    expect(await kept.json()).toEqual({ kept: true });
    const limited = await a.request('/limited');
    expect(isComplete(limited)).toBe(true);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
  });

  it('leave an answer to Hono when a header or the status was set through it, and on the payOS sandbox', async () => {
    const a = app();
    const header = await a.request('/header-first');
    expect(isComplete(header)).toBe(false);
    expect(header.headers.get('x-extra')).toBe('yes');
    expect(header.headers.get('x-frame-options')).toBe('DENY');
    expect(header.headers.get('x-request-id')).toBeTruthy();
    const status = await a.request('/status-first');
    expect(isComplete(status)).toBe(false);
    expect(status.status).toBe(201);
    const sandbox = await a.request('/sandbox/payos/x');
    expect(isComplete(sandbox)).toBe(false);
    expect(sandbox.headers.get('content-security-policy')).not.toContain('form-action');
  });

  it('reach a HEAD request too, built or not', async () => {
    const a = app();
    for (const path of ['/json', '/text']) {
      const head = await a.request(path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-security-policy'), path).toBe(APP_SECURITY_HEADERS['content-security-policy']);
      expect(head.headers.get('x-request-id'), path).toBeTruthy();
    }
  });

  it('answer with the caller’s request id when it is a short token, else a new one', async () => {
    const a = app();
    expect((await a.request('/json', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id')).toBe('abc-123');
    expect((await a.request('/text', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id')).toBe('abc-123');
    const bad = (await a.request('/json', { headers: { 'x-request-id': 'no spaces <>' } })).headers.get('x-request-id');
    expect(bad).toMatch(/^[0-9a-f-]{36}$/);
  });
});
