/**
 * Transfers (issue 30 item 1): who may ask and decide, refusal then a new request then acceptance,
 * one pending request per member, the member asking for themself, the receiving side asking after
 * an add outside its reach, and bad input.
 */
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { organizationMemberCounts, organizationMembers } from '../db/tables/organizations';
import { campaigns } from '../payments/fixture';
import { paymentAssignments } from '../db/tables/payments';
import { roles } from '../db/tables/roles';
import { makeTestApp, type TestApp } from '../test/harness';
import { allRows, firstRow, runQuery } from '../db/engine';

let t: TestApp;
let o: Record<'dt' | 'dcsA' | 'cdA' | 'dcsB' | 'cdB' | 'dcsC', number>;
let adminA: { id: number; token: string };
let adminB: { id: number; token: string };
let adminC: { id: number; token: string };
let m: { id: number; token: string };

const member = async (organizationId: number, userId: number) =>
  await runQuery(t.db.insert(organizationMembers).values({ organizationId, userId }));
const as = (token: string) => (method: string, path: string, body?: unknown) => t.request(method, path, { token, body });
const active = async (userId: number) =>
  (
    await allRows(
      t.db
        .select({ id: organizationMembers.organizationId })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))),
    )
  )
    .map((r) => r.id)
    .sort((a, b) => a - b);
const direct = async (id: number) =>
  (await firstRow(t.db.select().from(organizationMemberCounts).where(eq(organizationMemberCounts.organizationId, id))))?.direct ?? 0;
const body = (extra: Record<string, unknown> = {}) => ({
  userId: m.id,
  fromOrganizationId: o.cdA,
  toOrganizationId: o.cdB,
  reason: 'Chuyển ngành',
  effectiveDate: '2026-09-01',
  ...extra,
});

beforeEach(async () => {
  t = await makeTestApp();
  const dt = await t.createOrg('doan_truong', 'DT');
  const dcsA = await t.createOrg('doan_co_so', 'DCSA', dt);
  const cdA = await t.createOrg('chi_doan', 'CDA', dcsA);
  const dcsB = await t.createOrg('doan_co_so', 'DCSB', dt);
  const cdB = await t.createOrg('chi_doan', 'CDB', dcsB);
  const dcsC = await t.createOrg('doan_co_so', 'DCSC', dt);
  o = { dt, dcsA, cdA, dcsB, cdB, dcsC };
  const orgAdmin = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'org_admin'))))!.id;
  adminA = await t.createUser('ADA', [{ roleId: orgAdmin, organizationId: dcsA }]);
  adminB = await t.createUser('ADB', [{ roleId: orgAdmin, organizationId: dcsB }]);
  adminC = await t.createUser('ADC', [{ roleId: orgAdmin, organizationId: dcsC }]);
  m = await t.createUser('SV1');
  for (const id of [dt, dcsA, cdA]) await member(id, m.id);
});

describe('POST /transfers, accept, refuse', () => {
  it('requested by the sending unit, refused, requested again and accepted by the receiving unit; the membership moves on acceptance only', async () => {
    const req = await as(adminA.token)('POST', '/api/transfers', body());
    expect(req.status).toBe(201);
    expect(req.body).toMatchObject({
      status: 'PENDING',
      userId: m.id,
      fromOrganizationId: o.cdA,
      toOrganizationId: o.cdB,
      requestedSide: 'from',
    });
    expect(await active(m.id)).toEqual([o.dt, o.dcsA, o.cdA]);

    // A second pending request for the same member.
    const again = await as(adminA.token)('POST', '/api/transfers', body());
    expect(again.status).toBe(409);

    // Both sides see it; another faculty's admin neither sees nor decides it.
    const seenB = await as(adminB.token)('GET', `/api/transfers?status=PENDING`);
    expect(seenB.body.data.map((x: { id: number }) => x.id)).toEqual([req.body.id]);
    expect(seenB.body.data[0].canDecide).toBe(true);
    expect((await as(adminA.token)('GET', `/api/transfers?organizationId=${o.dcsA}`)).body.total).toBe(1);
    expect((await as(adminC.token)('GET', '/api/transfers')).body.total).toBe(0);
    expect((await as(adminC.token)('POST', `/api/transfers/${req.body.id}/accept`)).status).toBe(403);
    expect((await as(adminC.token)('POST', `/api/transfers/${req.body.id}/refuse`, { reason: 'x' })).status).toBe(403);
    // The sending side cannot decide its own request.
    expect((await as(adminA.token)('POST', `/api/transfers/${req.body.id}/accept`)).status).toBe(403);

    expect((await as(adminB.token)('POST', `/api/transfers/${req.body.id}/refuse`, {})).status).toBe(400);
    const refused = await as(adminB.token)('POST', `/api/transfers/${req.body.id}/refuse`, { reason: 'Hết chỉ tiêu' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ status: 'REFUSED', refuseReason: 'Hết chỉ tiêu', decidedBy: { id: adminB.id } });
    expect((await as(adminB.token)('POST', `/api/transfers/${req.body.id}/accept`)).status).toBe(409);
    expect(await active(m.id)).toEqual([o.dt, o.dcsA, o.cdA]);

    // A fee assigned before the move stays with its campaign.
    const c = campaigns(t);
    const campaign = await c.create(o.dcsA);
    const fee = await c.assign(campaign.id, m.id, (await c.level(campaign.id, 24_000)).id);

    const second = await as(adminA.token)('POST', '/api/transfers', body());
    expect(second.status).toBe(201);
    const accepted = await as(adminB.token)('POST', `/api/transfers/${second.body.id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('ACCEPTED');
    expect(await active(m.id)).toEqual([o.dt, o.dcsB, o.cdB]);
    const old = (await firstRow(
      t.db
        .select()
        .from(organizationMembers)
        .where(and(eq(organizationMembers.userId, m.id), eq(organizationMembers.organizationId, o.cdA))),
    ))!;
    expect(old).toMatchObject({ isActive: false, endReason: 'transferred' });
    expect(old.endedAt!.toISOString()).toBe('2026-08-31T17:00:00.000Z');
    expect([await direct(o.cdA), await direct(o.dcsA), await direct(o.cdB), await direct(o.dcsB), await direct(o.dt)]).toEqual([
      0, 0, 1, 1, 1,
    ]);
    // The old unit lists them as ended (transferred); the new one as active.
    const endedList = await t.request('GET', `/api/organizations/${o.cdA}/members?status=ended`, { token: t.adminToken });
    expect(endedList.body.members[0]).toMatchObject({ user: { id: m.id }, endReason: 'transferred' });
    expect((await t.request('GET', `/api/organizations/${o.cdB}/members`, { token: t.adminToken })).body.total).toBe(1);

    expect(await allRows(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.userId, m.id)))).toEqual([
      expect.objectContaining({ id: fee.id, campaignId: campaign.id, amount: 24_000, status: 'PENDING' }),
    ]);

    const actions = (await allRows(t.db.select().from(auditLogs).where(eq(auditLogs.entity, 'user')))).filter((a) =>
      a.action.startsWith('transfer.'),
    );
    expect(actions.map((a) => a.action)).toEqual(['transfer.request', 'transfer.refuse', 'transfer.request', 'transfer.accept']);
    expect(actions.every((a) => a.entityId === String(m.id))).toBe(true);
    expect(JSON.parse(actions[3]!.after!)).toMatchObject({ transferId: second.body.id, ended: [o.cdA, o.dcsA], joined: [o.dcsB, o.cdB] });
  });

  it('the member asks for themself (only for themself) and may cancel it', async () => {
    const other = await t.createUser('SV2');
    await member(o.cdA, other.id);
    expect((await as(m.token)('POST', '/api/transfers', body({ userId: other.id }))).status).toBe(403);
    const own = await as(m.token)('POST', '/api/transfers', body());
    expect(own.status).toBe(201);
    expect(own.body.canCancel).toBe(true);
    expect((await as(m.token)('POST', `/api/transfers/${own.body.id}/accept`)).status).toBe(403);
    const mine = await as(m.token)('GET', '/api/transfers/mine');
    expect(mine.body.units.map((u: { id: number }) => u.id)).toEqual([o.cdA]);
    expect(mine.body.transfers).toHaveLength(1);
    expect((await as(adminB.token)('POST', `/api/transfers/${own.body.id}/cancel`)).status).toBe(403);
    const cancelled = await as(m.token)('POST', `/api/transfers/${own.body.id}/cancel`);
    expect(cancelled.body.status).toBe('CANCELLED');
    expect((await as(m.token)('GET', '/api/transfers/units?search=CDB')).body.map((u: { code: string }) => u.code)).toEqual(['CDB']);
  });

  it('an add outside the reach answers 403 with a transfer hint; the receiving side asks and the sending side decides', async () => {
    const add = await as(adminB.token)('POST', `/api/organizations/${o.cdB}/members/${m.id}`, {});
    expect(add.status).toBe(403);
    expect(add.body.transfer).toMatchObject({ userId: m.id, toOrganizationId: o.cdB, fromOrganizations: [{ id: o.cdA }] });
    const found = await as(adminB.token)('GET', `/api/transfers/candidate?code=SV1&toOrganizationId=${o.cdB}`);
    expect(found.body).toMatchObject({ user: { id: m.id }, units: [{ id: o.cdA }], pending: false });
    expect((await as(adminC.token)('GET', `/api/transfers/candidate?code=SV1`)).status).toBe(403);
    const req = await as(adminB.token)('POST', '/api/transfers', body());
    expect(req.status).toBe(201);
    expect(req.body.requestedSide).toBe('to');
    expect((await as(adminB.token)('POST', `/api/transfers/${req.body.id}/accept`)).status).toBe(403);
    expect((await as(adminA.token)('POST', `/api/transfers/${req.body.id}/accept`)).status).toBe(200);
    expect(await active(m.id)).toEqual([o.dt, o.dcsB, o.cdB]);
  });

  it('refuses bad input', async () => {
    const post = as(adminA.token);
    expect((await post('POST', '/api/transfers', body({ reason: '' }))).status).toBe(400);
    expect((await post('POST', '/api/transfers', body({ effectiveDate: '2026-02-30' }))).status).toBe(400);
    expect((await post('POST', '/api/transfers', body({ effectiveDate: 'tomorrow' }))).status).toBe(400);
    expect((await post('POST', '/api/transfers', body({ toOrganizationId: o.cdA }))).status).toBe(400);
    expect((await post('POST', '/api/transfers', body({ toOrganizationId: o.dcsA }))).status).toBe(400);
    expect((await post('POST', '/api/transfers', body({ toOrganizationId: 424242 }))).status).toBe(400);
    expect((await post('POST', '/api/transfers', body({ userId: 'x' }))).status).toBe(400);
    expect((await post('POST', '/api/transfers', body({ userId: 424242 }))).status).toBe(404);
    const stranger = await t.createUser('SV3');
    expect((await post('POST', '/api/transfers', body({ userId: stranger.id }))).status).toBe(400);
    // Another faculty's admin cannot ask on the sending unit's behalf.
    expect((await as(adminC.token)('POST', '/api/transfers', body())).status).toBe(403);
    expect((await post('POST', '/api/transfers/424242/accept')).status).toBe(404);
    expect((await post('GET', '/api/transfers?status=DONE')).status).toBe(400);
    expect((await t.request('GET', '/api/transfers')).status).toBe(401);
  });
});
