import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync, brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { makeTestApp, type TestApp } from '../test/harness';

let t: TestApp;
const dist = mkdtempSync(join(tmpdir(), 'dist-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));
beforeAll(async () => {
  t = await makeTestApp();
});

describe('compression', () => {
  it('gzips JSON answers over 1 KB for clients that accept it, and only them', async () => {
    for (let i = 0; i < 30; i++) await t.createOrg('doan_co_so', `GZ-${i}`, null, `Đoàn khoa nén ${i}`);
    const ask = (encoding?: string) =>
      t.app.request('/api/organizations?limit=100', {
        headers: { authorization: `Bearer ${t.adminToken}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
    const zipped = await ask('gzip, deflate, br');
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const body = Buffer.from(await zipped.arrayBuffer());
    const plain = await ask();
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(gunzipSync(body).toString()).toBe(text);
    expect(body.byteLength).toBeLessThan(text.length / 3);
    // The users list (a cached page, gzipped once) is compressed as well.
    for (let i = 0; i < 8; i++) await t.createUser(`GZU${i}`);
    const users = await t.app.request('/api/users?limit=50', {
      headers: { authorization: `Bearer ${t.adminToken}`, 'accept-encoding': 'gzip' },
    });
    expect(users.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await users.arrayBuffer())).toString()).users.length).toBe(9);
  });

  it('leaves small answers alone', async () => {
    const res = await t.app.request('/api/auth/me/organizations', {
      headers: { authorization: `Bearer ${t.adminToken}`, 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await res.text())).toBeDefined();
  });

  it("serves the build's precompressed assets (brotli first) and gzips translations", async () => {
    const js = 'console.log("x");'.repeat(200);
    writeFileSync(join(dist, 'index.html'), '<html></html>');
    writeFileSync(join(dist, 'app.js'), js);
    writeFileSync(join(dist, 'app.js.br'), brotliCompressSync(js));
    writeFileSync(join(dist, 'app.js.gz'), gzipSync(js));
    const app = createApp({ db: t.db, env: t.env }, { adminDist: dist, portalDist: dist });
    const br = await app.request('/app.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    const gz = await app.request('/app.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(js);
    const none = await app.request('/app.js');
    expect(none.headers.get('content-encoding')).toBeNull();
    expect(await none.text()).toBe(js);
    const locale = await app.request('/locales/vi/common.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(locale.status).toBe(200);
    expect(locale.headers.get('content-encoding')).toBe('gzip');
    const localeBody = gunzipSync(Buffer.from(await locale.arrayBuffer())).toString();
    expect(() => JSON.parse(localeBody)).not.toThrow();
  });
});
