/**
 * Ending a membership with a date and a reason, and the year-end bulk end (issue 30 item 2):
 * ended members leave the active list and every trigger-kept count, stay listed with ?status=ended
 * (searchable), keep their fees, and a later add starts them again.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { addMemberships } from '../imports/kinds/user-writes';
import { classes } from '../db/tables/classes';
import { campaigns } from '../payments/fixture';
import { paymentAssignments } from '../db/tables/payments';
import { roles } from '../db/tables/roles';
import type { TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { activeOrgIds, orgWorld, type OrgTree } from './fixture';
import { memberFigures, organizationMemberCounts, organizationMembers } from '../db/tables/organizations';
import { allRows, firstRow, runQuery, sqlAll, sqlGet, withTransaction } from '../db/engine';

let t: TestApp;
let org: OrgTree<'cd2' | 'lch'>;

beforeEach(async () => {
  ({ t, org } = await orgWorld(['cd2', 'lch']));
});

const call = (method: string, path: string, body?: unknown, token = t.adminToken) => t.request(method, path, { token, body });
const member = async (organizationId: number, userId: number) =>
  await runQuery(t.db.insert(organizationMembers).values({ organizationId, userId }));
const counts = async (id: number) =>
  (await firstRow(t.db.select().from(organizationMemberCounts).where(eq(organizationMemberCounts.organizationId, id)))) ?? {
    direct: 0,
    subtree: 0,
  };

/** The trigger-kept counts against a fresh count over active memberships. */
async function expectCountsFresh() {
  const fresh = await sqlAll<{ id: number; direct: number; subtree: number }>(
    t.db,
    sql`SELECT o.id, (SELECT count(*) FROM organization_members m WHERE m.organization_id = o.id AND m.is_active = true) AS direct,
        (SELECT count(DISTINCT m.user_id) FROM organization_members m JOIN organizations x ON x.id = m.organization_id WHERE m.is_active = true AND x.path LIKE o.path || '%') AS subtree
       FROM organizations o ORDER BY o.id`,
  );
  for (const f of fresh) expect({ id: f.id, direct: (await counts(f.id)).direct, subtree: (await counts(f.id)).subtree }).toEqual(f);
  const all = await sqlGet<{ n: number }>(t.db, sql`SELECT count(DISTINCT user_id) AS n FROM organization_members WHERE is_active = true`);
  expect(
    (await allRows(t.db.select().from(memberFigures).where(eq(memberFigures.organizationId, 0)))).find((r) => r.termStart === 0)?.members ??
      0,
  ).toBe(all.n);
}

describe('POST /organizations/:id/members/:userId/end', () => {
  it('ends with a date and a reason: gone from the active list and counts, listed and searchable as ended, audited on the user', async () => {
    const u = await t.createUser('SV1');
    const v = await t.createUser('SV2');
    for (const id of [org.doan, org.dcs, org.cd]) await member(id, u.id);
    for (const id of [org.doan, org.dcs, org.cd]) await member(id, v.id);
    const c = campaigns(t);
    const campaign = await c.create(org.dcs);
    const fee = await c.assign(campaign.id, u.id, (await c.level(campaign.id, 24_000)).id);
    const res = await call('POST', `/api/organizations/${org.cd}/members/${u.id}/end`, {
      reason: 'graduated',
      endedAt: '2026-07-31',
      note: 'Tốt nghiệp K22',
    });
    expect(res.status).toBe(200);
    expect(res.body.ended.map((o: { id: number }) => o.id)).toEqual([org.cd, org.dcs, org.doan]);
    expect(await activeOrgIds(t, u.id)).toEqual([]);
    expect(await counts(org.cd)).toMatchObject({ direct: 1, subtree: 1 });
    expect(await counts(org.doan)).toMatchObject({ subtree: 1 });
    await expectCountsFresh();
    // The unpaid fee stays.
    expect(await allRows(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.userId, u.id)))).toEqual([
      expect.objectContaining({ id: fee.id, status: 'PENDING' }),
    ]);

    const activeList = await call('GET', `/api/organizations/${org.cd}/members`);
    expect(activeList.body.members.map((m: { user: { id: number } }) => m.user.id)).toEqual([v.id]);
    const ended = await call('GET', `/api/organizations/${org.cd}/members?status=ended`);
    expect(ended.body.total).toBe(1);
    expect(ended.body.members[0]).toMatchObject({
      user: { id: u.id },
      endReason: 'graduated',
      endNote: 'Tốt nghiệp K22',
      endedAt: '2026-07-30T17:00:00.000Z',
    });
    expect((await call('GET', `/api/organizations/${org.cd}/members?status=ended&search=sv1`)).body.total).toBe(1);
    expect((await call('GET', `/api/organizations/${org.cd}/members?status=ended&search=sv2`)).body.total).toBe(0);
    expect((await call('GET', `/api/organizations/${org.cd}/members?status=gone`)).status).toBe(400);

    const row = (await firstRow(t.db.select().from(auditLogs).where(eq(auditLogs.action, 'membership.end'))))!;
    expect(row).toMatchObject({ entity: 'user', entityId: String(u.id), organizationId: org.cd });
    expect(JSON.parse(row.after!)).toMatchObject({ reason: 'graduated', endedAt: '2026-07-31', ended: [org.cd, org.dcs, org.doan] });

    // Ended twice: nothing left to end. Added again: active, the ending cleared.
    expect((await call('POST', `/api/organizations/${org.cd}/members/${u.id}/end`, { reason: 'graduated' })).status).toBe(404);
    expect((await call('POST', `/api/organizations/${org.cd}/members/${u.id}/with-parents`)).status).toBe(201);
    expect(await activeOrgIds(t, u.id)).toEqual([org.doan, org.dcs, org.cd]);
    const back = await allRows(t.db.select().from(organizationMembers).where(eq(organizationMembers.userId, u.id)));
    expect(back.every((m) => m.isActive && m.endedAt === null && m.endReason === null)).toBe(true);
    await expectCountsFresh();
  });

  it('keeps a parent that still holds another unit of the member', async () => {
    const u = await t.createUser('SV3');
    for (const id of [org.doan, org.dcs, org.cd, org.cd2]) await member(id, u.id);
    const res = await call('POST', `/api/organizations/${org.cd}/members/${u.id}/end`, { reason: 'moved_away', endedAt: '2026-11-01' });
    expect(res.body.ended.map((o: { id: number }) => o.id)).toEqual([org.cd]);
    expect(await activeOrgIds(t, u.id)).toEqual([org.doan, org.dcs, org.cd2]);
  });

  it('refuses bad input and callers outside the unit', async () => {
    const u = await t.createUser('SV4');
    for (const id of [org.doan, org.dcs, org.cd]) await member(id, u.id);
    const path = `/api/organizations/${org.cd}/members/${u.id}/end`;
    expect((await call('POST', path, { reason: 'transferred' })).status).toBe(400);
    expect((await call('POST', path, { reason: 'bored' })).status).toBe(400);
    expect((await call('POST', path, {})).status).toBe(400);
    expect((await call('POST', path, { reason: 'other', endedAt: '31/07/2026' })).status).toBe(400);
    expect((await call('POST', path, { reason: 'other', note: 'x'.repeat(501) })).status).toBe(400);
    expect((await call('POST', `/api/organizations/${org.cd2}/members/${u.id}/end`, { reason: 'other' })).status).toBe(404);
    expect((await call('POST', `/api/organizations/${org.cd}/members/424242/end`, { reason: 'other' })).status).toBe(404);
    const hoiAdminRole = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'org_admin'))))!.id;
    const other = await t.createUser('ADH', [{ roleId: hoiAdminRole, organizationId: org.lch }]);
    expect((await call('POST', path, { reason: 'other' }, other.token)).status).toBe(403);
    const staff = await t.createUser('STF', [
      { roleId: (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'staff'))))!.id, organizationId: org.dcs },
    ]);
    expect((await call('POST', path, { reason: 'other' }, staff.token)).status).toBe(403);
    expect(await activeOrgIds(t, u.id)).toEqual([org.doan, org.dcs, org.cd]);
  });
});

describe('POST /organizations/:id/members/bulk-end (year-end)', () => {
  it('ends a graduating class in one action, one audit row per member; the class stays searchable with the ended filter', async () => {
    const k22 = (await firstRow(t.db.insert(classes).values({ name: 'K22 CNTT', code: 'K22', year: 2022 }).returning())).id;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await t.createUser(`K22S${i}`);
      await runQuery(t.db.update(users).set({ classId: k22 }).where(eq(users.id, u.id)));
      for (const id of [org.doan, org.dcs, org.cd]) await member(id, u.id);
      ids.push(u.id);
    }
    const stays = await t.createUser('K23S0');
    for (const id of [org.doan, org.dcs, org.cd]) await member(id, stays.id);

    const res = await call('POST', `/api/organizations/${org.dcs}/members/bulk-end`, {
      classId: k22,
      reason: 'graduated',
      endedAt: '2026-07-31',
    });
    expect(res.status).toBe(200);
    expect(res.body.endedCount).toBe(3);
    for (const id of ids) expect(await activeOrgIds(t, id)).toEqual([]);
    expect(await activeOrgIds(t, stays.id)).toEqual([org.doan, org.dcs, org.cd]);
    expect(
      (await allRows(t.db.select().from(auditLogs).where(eq(auditLogs.action, 'membership.end')))).map((a) => Number(a.entityId)).sort(),
    ).toEqual(ids.sort());
    await expectCountsFresh();
    expect((await call('GET', `/api/organizations/${org.cd}/members?status=ended&search=k22s`)).body.total).toBe(3);
    expect((await call('GET', `/api/organizations/${org.cd}/members`)).body.total).toBe(1);
  });

  it('by chosen members; one who is not an active member refuses the whole action; bad selections are 400', async () => {
    const a = await t.createUser('SA');
    const b = await t.createUser('SB');
    const outsider = await t.createUser('SC');
    for (const u of [a, b]) for (const id of [org.doan, org.dcs, org.cd]) await member(id, u.id);
    const path = `/api/organizations/${org.cd}/members/bulk-end`;
    const refused = await call('POST', path, { userIds: [a.id, outsider.id], reason: 'over_age' });
    expect(refused.status).toBe(400);
    expect(await activeOrgIds(t, a.id)).toEqual([org.doan, org.dcs, org.cd]);
    expect((await call('POST', path, { reason: 'over_age' })).status).toBe(400);
    expect((await call('POST', path, { userIds: [a.id], classId: 1, reason: 'over_age' })).status).toBe(400);
    expect((await call('POST', path, { userIds: [], reason: 'over_age' })).status).toBe(400);
    const ok = await call('POST', path, { userIds: [a.id, b.id], reason: 'over_age', endedAt: '2026-11-27' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ endedCount: 2, memberships: 6 });
    await expectCountsFresh();
  });
});

describe('an import that adds an ended member again', () => {
  it('starts the membership afresh: active, its ending (date, reason, note) cleared, so it is not listed as ended', async () => {
    const u = await t.createUser('SV9');
    for (const id of [org.doan, org.dcs, org.cd]) await member(id, u.id);
    expect(
      (
        await call('POST', `/api/organizations/${org.cd}/members/${u.id}/end`, {
          reason: 'moved_away',
          endedAt: '2026-07-31',
          note: 'Chuyển đi',
        })
      ).status,
    ).toBe(200);
    await withTransaction(t.db, async (tx) => addMemberships(tx, [{ organizationId: org.cd, userId: u.id }]));
    const row = (await allRows(t.db.select().from(organizationMembers).where(eq(organizationMembers.userId, u.id)))).find(
      (m) => m.organizationId === org.cd,
    )!;
    expect(row).toMatchObject({ isActive: true, endedAt: null, endReason: null, endNote: null });
    await expectCountsFresh();
  });
});

describe("an ending that ends the member's union life here (graduated, over age, deceased, moved away)", () => {
  it('a faculty officer ending a graduate also ends the school membership left empty; "removed" stops at the officer\'s reach', async () => {
    const facultyAdmin = await t.createUser('FAC', [
      { roleId: (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'org_admin'))))!.id, organizationId: org.dcs },
    ]);
    const grad = await t.createUser('GRAD1');
    const gone = await t.createUser('RMV1');
    for (const id of [org.doan, org.dcs, org.cd]) {
      await member(id, grad.id);
      await member(id, gone.id);
    }
    expect(
      (await call('POST', `/api/organizations/${org.cd}/members/${grad.id}/end`, { reason: 'graduated' }, facultyAdmin.token)).status,
    ).toBe(200);
    expect(await activeOrgIds(t, grad.id)).toEqual([]);
    expect(
      (await call('POST', `/api/organizations/${org.cd}/members/${gone.id}/end`, { reason: 'removed' }, facultyAdmin.token)).status,
    ).toBe(200);
    expect(await activeOrgIds(t, gone.id)).toEqual([org.doan]);
    await expectCountsFresh();
  });

  it('the year-end action does the same, and a graduate still in another chi đoàn keeps the faculty and the school', async () => {
    const facultyAdmin = await t.createUser('FAC2', [
      { roleId: (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'org_admin'))))!.id, organizationId: org.dcs },
    ]);
    const a = await t.createUser('GRAD2');
    const b = await t.createUser('GRAD3');
    for (const id of [org.doan, org.dcs, org.cd]) {
      await member(id, a.id);
      await member(id, b.id);
    }
    await member(org.cd2, b.id);
    const res = await call(
      'POST',
      `/api/organizations/${org.cd}/members/bulk-end`,
      { userIds: [a.id, b.id], reason: 'graduated' },
      facultyAdmin.token,
    );
    expect(res.status).toBe(200);
    expect(await activeOrgIds(t, a.id)).toEqual([]);
    // Still in another chi đoàn of the faculty: the faculty and the school hold a unit of theirs.
    expect([...(await activeOrgIds(t, b.id))].sort()).toEqual([org.doan, org.dcs, org.cd2].sort());
    await expectCountsFresh();
  });
});
