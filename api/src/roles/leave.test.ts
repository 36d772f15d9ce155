/**
 * A role held in a unit ends with the membership of that unit (issue 30 items 1–2, roles/leave.ts):
 * an accepted transfer, an ending, the year-end action and a bulk edit's "end a membership" take
 * away the role links scoped to the units left, audited as user.roles.revoke_on_leave and told in
 * the member's history; global links and links in units still held stay.
 */
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { roles, userRoles } from '../db/tables/roles';
import { allRows, firstRow, runQuery } from '../db/engine';
import { forEachInOrder } from '../lib/in-order';

let t: TestApp;
let o: Record<'dt' | 'dcsA' | 'cdA' | 'cdA2' | 'dcsB' | 'cdB', number>;
let adminA: { id: number; token: string };
let adminB: { id: number; token: string };
let officer: number;
let memberRole: number;

const member = async (userId: number, ...ids: number[]) =>
  await forEachInOrder(ids, async (organizationId) => await runQuery(t.db.insert(organizationMembers).values({ organizationId, userId })));
const grant = async (userId: number, roleId: number, organizationId: number | null) =>
  await runQuery(t.db.insert(userRoles).values({ userId, roleId, organizationId }));
const links = async (userId: number) =>
  (
    await allRows(
      t.db
        .select({ roleId: userRoles.roleId, organizationId: userRoles.organizationId })
        .from(userRoles)
        .where(eq(userRoles.userId, userId)),
    )
  )
    .map((l) => `${l.roleId}@${l.organizationId ?? 'global'}`)
    .sort();
const revocations = async (userId: number) =>
  await allRows(
    t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'user.roles.revoke_on_leave'), eq(auditLogs.entityId, String(userId)))),
  );

beforeEach(async () => {
  t = await makeTestApp();
  const dt = await t.createOrg('doan_truong', 'DT');
  const dcsA = await t.createOrg('doan_co_so', 'DCSA', dt);
  const cdA = await t.createOrg('chi_doan', 'CDA', dcsA);
  const cdA2 = await t.createOrg('chi_doan', 'CDA2', dcsA);
  const dcsB = await t.createOrg('doan_co_so', 'DCSB', dt);
  const cdB = await t.createOrg('chi_doan', 'CDB', dcsB);
  o = { dt, dcsA, cdA, cdA2, dcsB, cdB };
  officer = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'org_admin'))))!.id;
  memberRole = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'member'))))!.id;
  adminA = await t.createUser('ADA', [{ roleId: officer, organizationId: dcsA }]);
  adminB = await t.createUser('ADB', [{ roleId: officer, organizationId: dcsB }]);
});

/** A chi đoàn secretary of CDA (officer there), a member globally, also an officer of the school. */
async function secretary(code: string, unit = o.cdA) {
  const u = await t.createUser(code);
  await member(u.id, o.dt, o.dcsA, unit);
  await grant(u.id, officer, unit);
  await grant(u.id, memberRole, null);
  await grant(u.id, officer, o.dt);
  return u;
}

describe('roles end with the membership of their unit', () => {
  it('an accepted transfer takes away the role in the chi đoàn and faculty left, keeps the global one and the school one, and the history tells it', async () => {
    const s = await secretary('SEC1');
    await grant(s.id, officer, o.dcsA);
    const asked = await t.request('POST', '/api/transfers', {
      token: adminA.token,
      body: { userId: s.id, fromOrganizationId: o.cdA, toOrganizationId: o.cdB, reason: 'Chuyển ngành', effectiveDate: '2026-09-01' },
    });
    expect(asked.status).toBe(201);
    // Nothing moves, no role ends, before acceptance.
    expect(await links(s.id)).toHaveLength(4);
    expect((await t.request('POST', `/api/transfers/${asked.body.id}/accept`, { token: adminB.token })).status).toBe(200);
    expect(await links(s.id)).toEqual([`${memberRole}@global`, `${officer}@${o.dt}`].sort());

    const rows = await revocations(s.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actorId).toBe(adminB.id);
    const before = JSON.parse(rows[0]!.before!) as { organizationId: number | null }[];
    const after = JSON.parse(rows[0]!.after!) as { organizationId: number | null }[];
    expect(before.map((l) => l.organizationId).sort()).toEqual([null, o.dt, o.dcsA, o.cdA].sort());
    expect(after.map((l) => l.organizationId).sort()).toEqual([null, o.dt].sort());

    const history = await t.request('GET', `/api/users/${s.id}/history?kind=role_revoked`, { token: t.adminToken });
    expect(history.status).toBe(200);
    expect(history.body.data.map((e: { organization?: { id: number } }) => e.organization?.id).sort()).toEqual([o.dcsA, o.cdA].sort());
    expect(history.body.data.every((e: { actor?: { id: number } }) => e.actor?.id === adminB.id)).toBe(true);
  });

  it("ending a membership takes away the roles in the units ended only, not another member's", async () => {
    const s = await secretary('SEC2');
    const a = await t.createUser('OTHER');
    await member(a.id, o.dt, o.dcsA, o.cdA2);
    await grant(a.id, officer, o.cdA2);
    const res = await t.request('POST', `/api/organizations/${o.cdA}/members/${s.id}/end`, {
      token: adminA.token,
      body: { reason: 'removed', endedAt: '2026-06-30' },
    });
    expect(res.status).toBe(200);
    // Removed by the faculty officer: the chi đoàn and the faculty end; the school membership (and its role) is beyond their reach.
    expect(await links(s.id)).toEqual([`${memberRole}@global`, `${officer}@${o.dt}`].sort());
    expect(await revocations(s.id)).toHaveLength(1);
    expect(await links(a.id)).toEqual([`${officer}@${o.cdA2}`]);
    expect(await revocations(a.id)).toHaveLength(0);
  });

  it('the year-end action revokes per member, one audit row each, and only for members holding a role there', async () => {
    const s1 = await secretary('SEC3');
    const s2 = await secretary('SEC4');
    const plain = await t.createUser('PLAIN');
    await member(plain.id, o.dt, o.dcsA, o.cdA);
    const res = await t.request('POST', `/api/organizations/${o.dcsA}/members/bulk-end`, {
      token: adminA.token,
      body: { userIds: [s1.id, s2.id, plain.id], reason: 'graduated', endedAt: '2026-06-30' },
    });
    expect(res.status).toBe(200);
    // Graduation ends the member's union life here: the school membership left empty ends too, and its role with it.
    for (const s of [s1, s2]) {
      expect(await links(s.id)).toEqual([`${memberRole}@global`]);
      expect(await revocations(s.id)).toHaveLength(1);
    }
    expect(await revocations(plain.id)).toHaveLength(0);
  });

  it("a bulk edit's end of a membership revokes too; its preview does not", async () => {
    const s = await secretary('SEC5');
    const set = { endMembership: { organizationId: o.cdA, reason: 'other', endedAt: '2026-06-30' } };
    expect(
      (await t.request('POST', '/api/users/bulk-update', { token: adminA.token, body: { ids: [s.id], set, dryRun: true } })).status,
    ).toBe(200);
    expect(await links(s.id)).toHaveLength(3);
    const res = await t.request('POST', '/api/users/bulk-update', { token: adminA.token, body: { ids: [s.id], set } });
    expect(res.status).toBe(200);
    expect(await links(s.id)).toEqual([`${memberRole}@global`, `${officer}@${o.dt}`].sort());
    expect(await revocations(s.id)).toHaveLength(1);
  });
});
