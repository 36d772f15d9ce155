/**
 * Issue 25 item 6 for users: deleting a user with paid fees is refused (the payment records would
 * go with the account), so the list and the detail carry hasPaidFees — the same rule as the
 * refusal (users/paid.ts) — and the admin does not offer the delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, join, sandboxApp, type LiveServer } from '../payments/fixture';
import type { TestApp } from '../test/harness';

let t: TestApp;
let server: LiveServer;
let api: Awaited<ReturnType<typeof sandboxApp>>['api'];
let org: number;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('UPO-F'));
});
afterAll(() => server.close());

const listed = async (code: string) => {
  const body = await expectOk(t.request('GET', `/api/users?search=${code}`, { token: t.adminToken }));
  return (body.users as { code: string; hasPaidFees: boolean }[]).find((u) => u.code === code)!;
};
const detail = async (id: number) => (await expectOk(t.request('GET', `/api/users/${id}`, { token: t.adminToken }))).hasPaidFees as boolean;

describe('users answer hasPaidFees by the rule that refuses their deletion', () => {
  it('a member whose fee was paid: true in the list and the detail, and DELETE (single or bulk) is refused', async () => {
    const payer = await t.createUser('UPOPAID');
    const other = await t.createUser('UPOFREE');
    for (const u of [payer, other]) await join(t, u.id, org);
    const { assignments } = await api.active(org, [payer.id, other.id], { amount: 30_000 });
    // Before any payment: both deletable.
    expect((await listed('UPOPAID')).hasPaidFees).toBe(false);
    await expectOk(
      t.request('PATCH', `/api/payment/assignments/${assignments[0].id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }),
    );

    // The list page is cached, the payment did not touch users: the flag is still fresh.
    expect((await listed('UPOPAID')).hasPaidFees).toBe(true);
    expect((await listed('UPOFREE')).hasPaidFees).toBe(false);
    expect(await detail(payer.id)).toBe(true);
    expect(await detail(other.id)).toBe(false);

    const one = await t.request('DELETE', `/api/users/${payer.id}`, { token: t.adminToken });
    expect(one.status).toBe(409);
    const bulk = await t.request('DELETE', '/api/users/bulk-delete', { token: t.adminToken, body: { ids: [payer.id, other.id] } });
    expect(bulk.status).toBe(409);
    // The one without paid fees goes.
    expect((await t.request('DELETE', `/api/users/${other.id}`, { token: t.adminToken })).status).toBeLessThan(300);
  });

  it('a reversed cash payment still counts (its paid order is kept), as the refusal counts it', async () => {
    const u = await t.createUser('UPOREV');
    await join(t, u.id, org);
    const { assignments } = await api.active(org, [u.id], { amount: 30_000 });
    await expectOk(
      t.request('PATCH', `/api/payment/assignments/${assignments[0].id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }),
    );
    await expectOk(
      t.request('POST', `/api/payment/assignments/${assignments[0].id}/reverse-payment`, {
        token: t.adminToken,
        body: { reason: 'Ghi nhầm' },
      }),
    );
    expect(await detail(u.id)).toBe(true);
    expect((await t.request('DELETE', `/api/users/${u.id}`, { token: t.adminToken })).status).toBe(409);
  });
});
