/**
 * Throttles on the heavy routes (issue 25 item 14): 30 calls in a row of an export, an import,
 * an import validation or a dashboard figure, or 10 parallel exports, each stop with 429
 * `{ message }` and Retry-After, per user and per address, with the default limits.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { form, xlsx, USER_HEADER, userRow } from '../imports/fixture';
import { campaigns } from '../payments/fixture';
import { makeTestApp, type TestApp } from '../test/harness';
import { MemoryRateCounter } from './rate-limit';

let t: TestApp;
let exporterRole = 0;
const exporter = async () => (exporterRole ||= await t.createRole('rl-exporter', ['users.export']));
beforeAll(async () => {
  t = await makeTestApp();
});

/** A request from a given client address (the app behind a proxy: TRUST_PROXY). */
const fromAddress = (app: TestApp, ip: string, method: string, path: string, token: string, body?: unknown) =>
  app.request(method, path, { token, body, headers: { 'x-forwarded-for': ip } });

async function inARow(n: number, call: () => Promise<{ status: number }>) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await call()).status);
  return statuses;
}

describe('heavy routes are throttled per user', () => {
  it('exports: 10 a minute, then 429 with a Vietnamese message and Retry-After', async () => {
    const statuses = await inARow(30, () => t.request('POST', '/api/export/users', { token: t.adminToken, body: { fields: ['code'] } }));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
    const res = await t.request('POST', '/api/export/users', { token: t.adminToken, body: { fields: ['code'] } });
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/^Bạn đã xuất file quá nhiều lần trong thời gian ngắn\. Vui lòng thử lại sau \d+ giây$/);
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    // The audit export shares the exports' allowance.
    expect((await t.request('GET', '/api/audit-logs/export', { token: t.adminToken })).status).toBe(429);
  });

  it('10 parallel exports by one user: no more than the limit run', async () => {
    const app = await makeTestApp({ EXPORT_RATE_LIMIT: '4' });
    const statuses = (
      await Promise.all(
        Array.from({ length: 10 }, () => app.request('POST', '/api/export/users', { token: app.adminToken, body: { fields: ['code'] } })),
      )
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  });

  it("the remittance export (issue 30) shares the exports' allowance", async () => {
    const app = await makeTestApp({ EXPORT_RATE_LIMIT: '2' });
    const org = await app.createOrg('doan_co_so', 'RL-REM');
    const campaign = await campaigns(app).create(org);
    const remittance = () => app.request('GET', `/api/payment-campaigns/${campaign.id}/remittance/export`, { token: app.adminToken });
    expect(await inARow(3, remittance)).toEqual([200, 200, 429]);
    expect((await app.request('POST', '/api/export/users', { token: app.adminToken, body: { fields: ['code'] } })).status).toBe(429);
  });

  it("the membership report export (issue 30) shares the exports' allowance", async () => {
    const app = await makeTestApp({ EXPORT_RATE_LIMIT: '2' });
    const org = await app.createOrg('doan_co_so', 'RL-REP');
    const report = () =>
      app.request('GET', `/api/reports/membership/export?organizationId=${org}&from=2026-01-01&to=2026-06-30`, { token: app.adminToken });
    expect(await inARow(3, report)).toEqual([200, 200, 429]);
  });

  it('another user keeps their own allowance', async () => {
    const other = await t.createUser('RL-OTHER', [{ roleId: await exporter() }]);
    expect((await t.request('POST', '/api/export/users', { token: other.token, body: { fields: ['code'] } })).status).toBe(200);
  });

  it('imports (upload) and import validation: 20 a minute each', async () => {
    const file = await xlsx(USER_HEADER, [userRow({ code: 'RL1', familyName: 'Lê', givenName: 'An', email: 'rl1@sv.vn' })]);
    const uploads = await inARow(30, () => t.request('POST', '/api/users/import/upload', { token: t.adminToken, body: form(file) }));
    expect(uploads.filter((s) => s === 201)).toHaveLength(20);
    expect(uploads.slice(20)).toEqual(Array(10).fill(429));
    const app = await makeTestApp();
    const up = await app.request('POST', '/api/users/import/upload', { token: app.adminToken, body: form(file) });
    const validations = await inARow(30, () =>
      app.request('GET', `/api/users/import/${up.body.sessionId}/validate`, { token: app.adminToken }),
    );
    expect(validations.filter((s) => s === 200)).toHaveLength(20);
    expect(validations.slice(20)).toEqual(Array(10).fill(429));
    // Status polls during an execute are not throttled.
    expect((await app.request('GET', `/api/users/import/${up.body.sessionId}/status`, { token: app.adminToken })).status).toBe(200);
  });

  it('dashboard figures: 20 a minute', async () => {
    const statuses = await inARow(30, () => t.request('GET', '/api/dashboard/members', { token: t.adminToken }));
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
  });
});

describe('per address', () => {
  it('one address gets RATE_LIMIT_IP_FACTOR times one user’s allowance, across its users', async () => {
    const app = await makeTestApp({ EXPORT_RATE_LIMIT: '2', RATE_LIMIT_IP_FACTOR: '2', TRUST_PROXY: 'true' });
    const role = await app.createRole('rl-exporter', ['users.export']);
    const users = await Promise.all(['RL-A', 'RL-B', 'RL-C'].map((code) => app.createUser(code, [{ roleId: role }])));
    const call = (token: string, ip = '10.0.0.7') => fromAddress(app, ip, 'POST', '/api/export/users', token, { fields: ['code'] });
    expect([(await call(users[0]!.token)).status, (await call(users[0]!.token)).status, (await call(users[0]!.token)).status]).toEqual([
      200, 200, 429,
    ]);
    expect((await call(users[1]!.token)).status).toBe(200);
    // Four counted from 10.0.0.7 (the refused one too): a third user there is refused, elsewhere not.
    const refused = await call(users[2]!.token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.message).toContain('Bạn đã xuất file quá nhiều lần');
    expect((await call(users[2]!.token, '10.0.0.8')).status).toBe(200);
  });
});

describe('MemoryRateCounter', () => {
  it('counts per key in fixed windows and says when the window ends', async () => {
    const c = new MemoryRateCounter(1000);
    expect(await c.hit('a', 0)).toEqual({ count: 1, resetAt: 1000 });
    expect(await c.hit('a', 500)).toEqual({ count: 2, resetAt: 1000 });
    expect(await c.hit('b', 500)).toEqual({ count: 1, resetAt: 1500 });
    expect(await c.hit('a', 1000)).toEqual({ count: 1, resetAt: 2000 });
  });
});
