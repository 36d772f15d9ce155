/**
 * Probe checklist (issues 10 and 11 tried again against the endpoints added later): without a
 * session every one answers 401, and a session still on its default password (issue 10 item 4)
 * gets 403 MUST_CHANGE_PASSWORD on each, the member profile and reminders included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser, login } from './test-helpers';

const UUID = '00000000-0000-4000-8000-000000000000';
const ROUTES: [string, string, unknown?][] = [
  ['GET', '/api/auth/me/profile'],
  ['PATCH', '/api/auth/me/profile', { phone: '0912345678' }],
  ['GET', '/api/reminders/mine'],
  ['GET', '/api/reminders/outbox'],
  ['GET', '/api/payment-campaigns/1/reminders'],
  ['POST', '/api/payment-campaigns/1/reminders', {}],
  ['PUT', '/api/payment-campaigns/1/reminder-schedule', { daysBefore: 1, onOverdue: true }],
  ['POST', '/api/payment/assignments/1/exempt', { reason: 'x' }],
  ['POST', '/api/payment/assignments/1/reduce', { amount: 1000, reason: 'x' }],
  ['POST', '/api/payment/assignments/1/revoke-adjustment', { reason: 'x' }],
  ['POST', '/api/payment/assignments/1/reverse-payment', { reason: 'x' }],
  ['GET', '/api/audit-logs'],
  ['GET', '/api/audit-logs/export'],
  ['GET', '/api/dashboard/members'],
  ['GET', '/api/dashboard/campaigns'],
  ['GET', '/api/dashboard/weekly?campaignId=1'],
  ['GET', `/api/users/import/${UUID}/error-rows`],
  ['GET', `/api/organizations/import/${UUID}/error-rows`],
  ['GET', '/api/payment/check-status/1'],
];

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

describe('the later endpoints keep the session rules', () => {
  it('401 without a session', async () => {
    for (const [method, path, body] of ROUTES) expect((await t.request(method, path, { body })).status, `${method} ${path}`).toBe(401);
  });

  it('403 MUST_CHANGE_PASSWORD on a default password, whatever the route', async () => {
    await insertUser(t, '20248888', { mustChangePassword: true });
    const res = await login(t, '20248888@sv.edu.vn', '20248888');
    expect(res.status).toBe(200);
    const token = res.body.accessToken as string;
    for (const [method, path, body] of ROUTES) {
      const r = await t.request(method, path, { token, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.code, `${method} ${path}`).toBe('MUST_CHANGE_PASSWORD');
    }
  });
});
