/**
 * Issue 25 item 10: four eyes on money for oneself. A treasurer (or the super admin) cannot
 * exempt, reduce, waive, resolve, mark paid or delete their own fee: 403 with a clear message; another
 * officer can. Undoing an adjustment or reversing a payment of one's own fee (both against one's
 * interest) stays allowed.
 */
import { PERMISSIONS } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/tables/users';
import { makeTestApp, ADMIN, type TestApp } from '../test/harness';
import { dataSignature } from '../payos/signature';
import { campaigns, expectOk, join, liveServer, SANDBOX_CREDS, type LiveServer } from './fixture';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { firstRow } from '../db/engine';

let t: TestApp;
let server: LiveServer;
let api: ReturnType<typeof campaigns>;
let org: number;
let treasurer: { id: number; token: string };
let colleague: { id: number; token: string };

beforeAll(async () => {
  t = await makeTestApp();
  server = await liveServer(t);
  api = campaigns(t);
  org = await t.createOrg('doan_co_so', 'EYES');
  const role = await t.createRole(
    'eyes_treasurer',
    PERMISSIONS.map((p) => p.code).filter((c) => c.startsWith('payment-campaigns.')),
  );
  treasurer = await t.createUser('EYEST', [{ roleId: role, organizationId: org }]);
  colleague = await t.createUser('EYESC', [{ roleId: role, organizationId: org }]);
  await join(t, treasurer.id, org);
});
afterAll(() => server.close());

const assignment = async (id: number) => (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!;
const post = (path: string, token: string, body: unknown) => t.request('POST', `/api/payment/assignments${path}`, { token, body });

describe('an officer and their own fee', () => {
  it("exempting, reducing or marking paid one's own fee is 403; a colleague may", async () => {
    const { assignments } = await api.active(org, [treasurer.id], { amount: 60_000 });
    const id = assignments[0].id as number;
    for (const res of [
      await post(`/${id}/exempt`, treasurer.token, { reason: 'Tự miễn' }),
      await post(`/${id}/reduce`, treasurer.token, { amount: 10_000, reason: 'Tự giảm' }),
      await t.request('PATCH', `/api/payment/assignments/${id}/mark-paid`, { token: treasurer.token, body: { method: 'cash' } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/của chính mình.*cán bộ khác/);
    }
    expect(await assignment(id)).toMatchObject({ status: 'PENDING', amount: 60_000, adjustment: null });
    await expectOk(post(`/${id}/reduce`, colleague.token, { amount: 30_000, reason: 'Hoàn cảnh khó khăn' }));
    // Undoing it raises one's own fee: allowed.
    await expectOk(post(`/${id}/revoke-adjustment`, treasurer.token, { reason: 'Không đủ điều kiện' }));
    await expectOk(t.request('PATCH', `/api/payment/assignments/${id}/mark-paid`, { token: colleague.token, body: { method: 'cash' } }));
    expect((await assignment(id)).status).toBe('PAID');
  });

  it('the super admin is no exception', async () => {
    const admin = (await firstRow(t.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN.email))))!;
    await join(t, admin.id, org);
    const { assignments } = await api.active(org, [admin.id]);
    const id = assignments[0].id as number;
    expect((await post(`/${id}/exempt`, t.adminToken, { reason: 'Tự miễn' })).status).toBe(403);
    expect(
      (await t.request('PATCH', `/api/payment/assignments/${id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } })).status,
    ).toBe(403);
    await expectOk(post(`/${id}/exempt`, colleague.token, { reason: 'Cán bộ khác miễn' }));
  });

  it("waiving the balance of one's own underpayment is 403", async () => {
    const { assignments } = await api.active(org, [treasurer.id]);
    const id = assignments[0].id as number;
    const l = (
      await expectOk(t.request('POST', '/api/payment/create-payment-link', { token: treasurer.token, body: { assignmentId: id } }))
    ).data;
    // payOS reports half the fee: a balance is due.
    const o = (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, l.orderCode))))!;
    const data = {
      orderCode: l.orderCode,
      amount: 25_000,
      description: 'DH',
      accountNumber: '1',
      reference: `FT${l.orderCode}`,
      transactionDateTime: '2026-11-23 10:00:00',
      currency: 'VND',
      paymentLinkId: o.paymentLinkId,
      code: '00',
      desc: 'success',
    };
    await expectOk(
      t.request('POST', '/api/payment/webhook/payos', {
        body: { code: '00', desc: 'success', data, signature: dataSignature(data, SANDBOX_CREDS.checksumKey) },
      }),
    );
    const flagged = async () => (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.id, o.id))))!;
    expect((await flagged()).attention).toBe('BALANCE_DUE');
    const resolve = async (token: string) =>
      t.request('POST', `/api/payment-admin/orders/${(await flagged()).id}/resolve`, { token, body: { resolution: 'ACCEPTED' } });
    expect((await resolve(treasurer.token)).status).toBe(403);
    await expectOk(resolve(colleague.token));
  });

  it("deleting one's own unpaid fee is 403 (it waives it like an exemption); a colleague may", async () => {
    const { assignments } = await api.active(org, [treasurer.id]);
    const id = assignments[0].id as number;
    const res = await t.request('DELETE', `/api/payment/assignments/${id}`, { token: treasurer.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/của chính mình.*cán bộ khác/);
    expect(await assignment(id)).toMatchObject({ status: 'PENDING' });
    await expectOk(t.request('DELETE', `/api/payment/assignments/${id}`, { token: colleague.token }));
    expect(await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id)))).toBeUndefined();
  });
});
