import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { organizationMembers } from '../db/tables/organizations';
import { feeLevels, paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { userRoles } from '../db/tables/roles';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser, USER_CODES } from './fixture';
import { users } from '../db/tables/users';
import { allRows, firstRow, runQuery } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

let t: TestApp;
const del = (id: number | string, token = t.adminToken) => t.request('DELETE', `/api/users/${id}`, { token });
const bulk = (body: unknown, token = t.adminToken) => t.request('DELETE', '/api/users/bulk-delete', { token, body });
const exists = async (id: number) => !!(await firstRow(t.db.select({ id: users.id }).from(users).where(eq(users.id, id))));

beforeAll(async () => {
  t = await makeTestApp();
});

/** A campaign in `org` with one assignment for the user in the given state. */
async function assignPayment(userId: number, org: number, status: 'PENDING' | 'PAID') {
  const campaignId = (
    await firstRow(
      t.db
        .insert(paymentCampaigns)
        .values({ organizationId: org, name: 'Đoàn phí 2025', startDate: new Date('2025-01-01'), endDate: new Date('2025-12-31') })
        .returning(),
    )
  ).id;
  const feeLevelId = (await firstRow(t.db.insert(feeLevels).values({ campaignId, levelName: 'Sinh viên', amount: 50000 }).returning())).id;
  await runQuery(t.db.insert(paymentAssignments).values({ campaignId, userId, feeLevelId, status }));
}

describe('DELETE /users/:id', () => {
  it('deletes the user with their memberships and role links, and audits it', async () => {
    const org = await t.createOrg('doan_truong', 'X-ROOT');
    const role = await t.createRole('x_role', ['users.access']);
    const id = await insertUser(t, { familyName: 'Xóa', givenName: 'Tôi' }, org);
    await runQuery(t.db.insert(userRoles).values({ userId: id, roleId: role, organizationId: org }));
    const res = await del(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Đã xóa người dùng' });
    expect((await t.request('GET', `/api/users/${id}`, { token: t.adminToken })).status).toBe(404);
    expect(await allRows(t.db.select().from(organizationMembers).where(eq(organizationMembers.userId, id)))).toEqual([]);
    expect(await allRows(t.db.select().from(userRoles).where(eq(userRoles.userId, id)))).toEqual([]);
    const log = (await firstRow(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'user.delete'), eq(auditLogs.entityId, String(id)))),
    ))!;
    expect(JSON.parse(log.before!)).toMatchObject({ id, familyName: 'Xóa', givenName: 'Tôi' });
  });

  it('409 for your own account', async () => {
    const res = await del(t.admin.user.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Không thể xóa tài khoản của chính bạn');
    expect(await exists(t.admin.user.id)).toBe(true);
  });

  it('404 for an unknown user, 400 for a malformed id', async () => {
    expect((await del(999999)).status).toBe(404);
    expect((await del('abc')).status).toBe(400);
  });

  it('409 while the user has paid fees (the payment records would go with the account); pending ones do not block', async () => {
    const org = await t.createOrg('doan_truong', 'X-PAY');
    const paid = await insertUser(t, { code: 'PAID01' });
    const pending = await insertUser(t);
    await assignPayment(paid, org, 'PAID');
    await assignPayment(pending, org, 'PENDING');
    const res = await del(paid);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('PAID01');
    expect(await exists(paid)).toBe(true);
    expect((await del(pending)).status).toBe(200);
  });

  it("only a super admin may delete or change a super admin's account", async () => {
    const role = await t.createRole('x_user_admin', USER_CODES);
    const manager = await t.createUser('XMGR', [{ roleId: role }]);
    expect((await del(t.admin.user.id, manager.token)).status).toBe(403);
    const patch = await t.request('PATCH', `/api/users/${t.admin.user.id}`, { token: manager.token, body: { password: 'chiemquyen' } });
    expect(patch.status).toBe(403);
    expect((await bulk({ ids: [t.admin.user.id] }, manager.token)).status).toBe(403);
    // A super admin may: another super admin account is removable by one.
    const superRole = (await allRows(t.db.select().from((await import('../db/tables/roles')).roles))).find(
      (r) => r.name === 'super_admin',
    )!;
    const other = await t.createUser('XSUPER', [{ roleId: superRole.id }]);
    expect((await del(other.id)).status).toBe(200);
  });
});

describe('DELETE /users/bulk-delete', () => {
  it('deletes every selected user, audits each, and answers the count', async () => {
    const ids = [await insertUser(t), await insertUser(t), await insertUser(t)];
    const res = await bulk({ ids: [...ids, ids[0]] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deletedCount: 3 });
    expect(await mapInOrder(ids, exists)).toEqual([false, false, false]);
    const logs = await allRows(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'user.bulk_delete'), inArray(auditLogs.entityId, ids.map(String)))),
    );
    expect(logs).toHaveLength(3);
  });

  it('409 when the selection includes yourself, and nothing is deleted', async () => {
    const other = await insertUser(t);
    const res = await bulk({ ids: [other, t.admin.user.id] });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('chính bạn');
    expect(await exists(other)).toBe(true);
  });

  it('404 when a selected user does not exist, and nothing is deleted', async () => {
    const other = await insertUser(t);
    const res = await bulk({ ids: [other, 999999] });
    expect(res.status).toBe(404);
    expect(await exists(other)).toBe(true);
  });

  it('409 when one selected user has paid fees, and nothing is deleted', async () => {
    const org = await t.createOrg('doan_truong', 'X-BPAY');
    const paid = await insertUser(t);
    const free = await insertUser(t);
    await assignPayment(paid, org, 'PAID');
    expect((await bulk({ ids: [free, paid] })).status).toBe(409);
    expect([await exists(free), await exists(paid)]).toEqual([true, true]);
  });

  it('400 for an empty or malformed selection', async () => {
    expect((await bulk({ ids: [] })).status).toBe(400);
    expect((await bulk({ ids: ['a'] })).status).toBe(400);
    expect((await bulk({})).status).toBe(400);
  });

  it('401 without a token', async () => {
    expect((await t.request('DELETE', '/api/users/bulk-delete', { body: { ids: [1] } })).status).toBe(401);
  });
});
