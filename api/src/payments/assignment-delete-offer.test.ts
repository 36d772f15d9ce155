/**
 * Issue 25 item 6 for fee assignments: the answer's canDelete says whether DELETE would be
 * accepted, by the rule remove() applies — so after a reversed payment (fee unpaid again, money
 * record kept) "Xóa" is no longer offered, and the server still refuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness';
import { expectOk, join, sandboxApp, type LiveServer } from './fixture';

let t: TestApp;
let server: LiveServer;
let api: Awaited<ReturnType<typeof sandboxApp>>['api'];
let org: number;
let n = 0;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('ADO-F'));
});
afterAll(() => server.close());

async function fee() {
  const u = await t.createUser(`ADO${++n}`);
  await join(t, u.id, org);
  const { campaign, assignments } = await api.active(org, [u.id], { amount: 80_000 });
  return { campaignId: campaign.id as number, id: assignments[0].id as number };
}
const listed = async (campaignId: number, id: number) => {
  const body = await expectOk(t.request('GET', `/api/payment/assignments?campaignId=${campaignId}`, { token: t.adminToken }));
  return (body.data.assignments as { id: number; canDelete: boolean }[]).find((a) => a.id === id)!;
};
const one = async (id: number) => (await expectOk(t.request('GET', `/api/payment/assignments/${id}`, { token: t.adminToken }))).data;
const del = (id: number) => t.request('DELETE', `/api/payment/assignments/${id}`, { token: t.adminToken });

describe('assignment canDelete follows the server’s delete rule', () => {
  it('a fee without money: canDelete in the list and the detail, and DELETE is accepted', async () => {
    const { campaignId, id } = await fee();
    expect((await listed(campaignId, id)).canDelete).toBe(true);
    expect((await one(id)).canDelete).toBe(true);
    expect((await del(id)).status).toBeLessThan(300);
  });

  it('paid, then reversed (unpaid again): canDelete false, and DELETE is refused', async () => {
    const { campaignId, id } = await fee();
    const paid = await expectOk(
      t.request('PATCH', `/api/payment/assignments/${id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }),
    );
    expect(paid.data.canDelete).toBe(false);
    const reversed = await expectOk(
      t.request('POST', `/api/payment/assignments/${id}/reverse-payment`, { token: t.adminToken, body: { reason: 'Ghi nhầm người' } }),
    );
    expect(reversed.data).toMatchObject({ status: 'PENDING', canDelete: false });
    expect((await listed(campaignId, id)).canDelete).toBe(false);
    const res = await del(id);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('đã có thanh toán');
  });

  it('a finished campaign’s fees are not deletable either', async () => {
    const { campaignId, id } = await fee();
    await expectOk(t.request('POST', `/api/payment-campaigns/${campaignId}/cancel`, { token: t.adminToken, body: { reason: 'Hủy thử' } }));
    expect((await listed(campaignId, id)).canDelete).toBe(false);
    expect((await del(id)).status).toBe(409);
  });
});
