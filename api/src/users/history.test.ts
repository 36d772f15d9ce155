/**
 * GET /users/:id/history (issue 30 item 3): a member joins, is granted a role, is assigned a fee
 * and pays it, loses the role, is transferred and leaves; the timeline tells it newest first with
 * who did it and the names as they were; another faculty's admin cannot read it; fee events are
 * left out without the payments right; bad input is a 400.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organizations } from '../db/tables/organizations';
import { campaigns } from '../payments/fixture';
import { roles } from '../db/tables/roles';
import { ADMIN, makeTestApp, type TestApp } from '../test/harness';
import { USER_CODES } from './fixture';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
let o: Record<'dt' | 'dcsA' | 'cdA' | 'dcsB' | 'cdB' | 'dcsC', number>;
const tokens: Record<string, string> = {};
const users: Record<string, { id: number; email: string }> = {};

/** Moves the clock (Date only) and signs everyone in again, so tokens are issued at the new time. */
async function clock(iso: string) {
  vi.setSystemTime(new Date(iso));
  tokens.admin = (await t.login(ADMIN.email, ADMIN.password)).accessToken;
  for (const [k, u] of Object.entries(users)) tokens[k] = (await t.login(u.email, 'secret123')).accessToken;
}
const as = (who: string) => (method: string, path: string, body?: unknown) => t.request(method, path, { token: tokens[who], body });
const history = (who: string, query = '') => as(who)('GET', `/api/users/${users.m!.id}/history${query}`);

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-08-10T09:00:00+07:00'));
  t = await makeTestApp();
  const dt = await t.createOrg('doan_truong', 'DT', null, 'Đoàn trường');
  const dcsA = await t.createOrg('doan_co_so', 'DCSA', dt, 'Đoàn khoa CNTT');
  const cdA = await t.createOrg('chi_doan', 'CDA', dcsA, 'Chi đoàn 22CNTT1');
  const dcsB = await t.createOrg('doan_co_so', 'DCSB', dt, 'Đoàn khoa Kinh tế');
  const cdB = await t.createOrg('chi_doan', 'CDB', dcsB, 'Chi đoàn 22KT1');
  const dcsC = await t.createOrg('doan_co_so', 'DCSC', dt, 'Đoàn khoa Luật');
  o = { dt, dcsA, cdA, dcsB, cdB, dcsC };
  const orgAdmin = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'org_admin'))))!.id;
  const viewer = await t.createRole('users_only', USER_CODES);
  for (const [k, grants] of [
    ['adminA', [{ roleId: orgAdmin, organizationId: dcsA }]],
    ['adminB', [{ roleId: orgAdmin, organizationId: dcsB }]],
    ['adminC', [{ roleId: orgAdmin, organizationId: dcsC }]],
    ['viewer', [{ roleId: viewer }]],
    ['m', []],
  ] as const) {
    const u = await t.createUser(k.toUpperCase(), [...grants]);
    users[k] = u;
    tokens[k] = u.token;
  }
  tokens.admin = t.adminToken;
});
afterEach(() => vi.useRealTimers());

describe('GET /users/:id/history', () => {
  it('tells joined, role granted, fee assigned and paid, role taken, transfer requested and done, and leaving, newest first with who did it', async () => {
    const m = users.m!.id;
    const officer = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'org_admin'))))!;
    expect((await as('admin')('POST', `/api/organizations/${o.cdA}/members/${m}`, {})).status).toBe(201);

    await clock('2026-08-11T09:00:00+07:00');
    expect((await as('adminA')('POST', `/api/users/${m}/assign-role`, { roleId: officer.id, organizationId: o.cdA })).status).toBe(201);

    await clock('2026-08-12T09:00:00+07:00');
    const { campaign, assignments } = await campaigns(t, tokens.adminA).active(o.dcsA, [m], { amount: 24_000 });
    await clock('2026-08-13T09:00:00+07:00');
    const paid = await as('adminA')('PATCH', `/api/payment/assignments/${assignments[0].id}/mark-paid`, { method: 'cash' });
    expect(paid.status).toBe(200);

    await clock('2026-08-14T09:00:00+07:00');
    expect((await as('adminA')('POST', `/api/users/${m}/roles`, { roleAssignments: [] })).status).toBe(200);

    await clock('2026-08-20T10:00:00+07:00');
    const req = await as('adminA')('POST', '/api/transfers', {
      userId: m,
      fromOrganizationId: o.cdA,
      toOrganizationId: o.cdB,
      reason: 'Chuyển ngành',
      effectiveDate: '2026-08-25',
    });
    expect(req.status).toBe(201);
    await clock('2026-08-25T10:00:00+07:00');
    expect((await as('adminB')('POST', `/api/transfers/${req.body.id}/accept`)).status).toBe(200);

    // The receiving faculty's admin reads the member now; the campaign is the sending faculty's, so no fee events.
    const seenB = await history('adminB');
    expect(seenB.status).toBe(200);
    expect(seenB.body.data.map((e: { kind: string }) => e.kind)).toEqual([
      'transferred',
      'transfer_requested',
      'role_revoked',
      'role_granted',
      'joined',
    ]);
    // The sending faculty no longer reaches them; another faculty never did.
    expect((await history('adminA')).status).toBe(404);
    expect((await history('adminC')).status).toBe(404);

    await clock('2026-09-10T10:00:00+07:00');
    expect(
      (
        await as('adminB')('POST', `/api/organizations/${o.cdB}/members/${m}/end`, {
          reason: 'graduated',
          endedAt: '2026-09-10',
          note: 'Khóa 2022',
        })
      ).status,
    ).toBe(200);
    // The unit renamed afterwards: it still exists, so its name now; the campaign's too.
    await runQuery(t.db.update(organizations).set({ name: 'Chi đoàn 22CNTT1 (cũ)' }).where(eq(organizations.id, o.cdA)));

    const all = await history('admin');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(8);
    const ev = all.body.data as any[];
    expect(ev.map((e) => e.kind)).toEqual([
      'left',
      'transferred',
      'transfer_requested',
      'role_revoked',
      'fee_paid',
      'fee_assigned',
      'role_granted',
      'joined',
    ]);
    const [left, moved, asked, revoked, pay, assigned, granted, joined] = ev;
    expect(left).toMatchObject({
      at: '2026-09-09T17:00:00.000Z',
      organization: { id: o.cdB, name: 'Chi đoàn 22KT1' },
      reason: 'graduated',
      note: 'Khóa 2022',
      actor: { id: users.adminB!.id },
    });
    expect(moved).toMatchObject({
      at: '2026-08-24T17:00:00.000Z',
      fromOrganization: { id: o.cdA, name: 'Chi đoàn 22CNTT1 (cũ)' },
      organization: { id: o.cdB, name: 'Chi đoàn 22KT1' },
      reason: 'Chuyển ngành',
      actor: { id: users.adminB!.id, name: 'Nguyễn Văn ADMINB' },
    });
    expect(asked).toMatchObject({ kind: 'transfer_requested', actor: { id: users.adminA!.id } });
    expect(revoked).toMatchObject({
      role: { id: officer.id, name: officer.displayName },
      organization: { id: o.cdA },
      actor: { id: users.adminA!.id },
    });
    expect(pay).toMatchObject({ campaign: { id: campaign.id, name: campaign.name }, amount: 24_000, actor: { id: users.adminA!.id } });
    expect(assigned).toMatchObject({ campaign: { id: campaign.id }, amount: 24_000, actor: { id: users.adminA!.id } });
    expect(granted).toMatchObject({
      at: '2026-08-11T02:00:00.000Z',
      role: { id: officer.id },
      organization: { id: o.cdA },
      actor: { id: users.adminA!.id },
    });
    expect(joined).toMatchObject({ at: '2026-08-10T02:00:00.000Z', organization: { id: o.cdA }, actor: { name: 'Quản trị Hệ thống' } });
    expect(ev.length).toBe(8);

    // Paged, newest first; one kind.
    const page2 = await history('admin', '?page=2&limit=3');
    expect(page2.body).toMatchObject({ total: 8, page: 2, limit: 3, totalPages: 3 });
    expect(page2.body.data.map((e: { kind: string }) => e.kind)).toEqual(['role_revoked', 'fee_paid', 'fee_assigned']);
    const fees = await history('admin', '?kind=fee_paid');
    expect(fees.body.data.map((e: { kind: string }) => e.kind)).toEqual(['fee_paid']);

    // A users-only reader (no payments right anywhere) sees the member, not their fees.
    const viewer = await history('viewer');
    expect(viewer.status).toBe(200);
    expect(viewer.body.data.some((e: { kind: string }) => e.kind.startsWith('fee_'))).toBe(false);
    expect((await history('viewer', '?kind=fee_assigned')).body.total).toBe(0);
  });

  it('names a deleted unit as the audit row kept it, and tells a membership that was deleted', async () => {
    const m = users.m!.id;
    const club = await t.createOrg('clb_truong', 'CLB1', null, 'CLB Guitar');
    expect((await as('admin')('POST', `/api/organizations/${club}/members/${m}`, {})).status).toBe(201);
    expect((await as('admin')('POST', `/api/organizations/${o.cdA}/members/${m}`, {})).status).toBe(201);
    await clock('2026-08-11T09:00:00+07:00');
    expect((await as('admin')('DELETE', `/api/organizations/${club}/members/${m}`)).status).toBe(200);
    await clock('2026-08-12T09:00:00+07:00');
    expect((await as('admin')('DELETE', `/api/organizations/${club}`)).status).toBe(200);
    const ev = (await history('admin')).body.data as any[];
    expect(ev.map((e) => e.kind)).toEqual(['removed', 'joined', 'joined']);
    expect(ev[0]).toMatchObject({ organization: { id: null, name: 'CLB Guitar' } });
    expect(ev.find((e) => e.kind === 'joined' && e.organization.name === 'CLB Guitar')).toMatchObject({ organization: { id: null } });
  });

  it('a transfer effective today stands above what happened earlier that day, dated by its day', async () => {
    const m = users.m!.id;
    vi.setSystemTime(new Date('2026-08-10T08:00:00+07:00'));
    expect((await as('admin')('POST', `/api/organizations/${o.cdA}/members/${m}`, {})).status).toBe(201);
    await clock('2026-08-10T15:00:00+07:00');
    const req = await as('admin')('POST', '/api/transfers', {
      userId: m,
      fromOrganizationId: o.cdA,
      toOrganizationId: o.cdB,
      reason: 'Chuyển ngành',
      effectiveDate: '2026-08-10',
    });
    expect((await as('adminB')('POST', `/api/transfers/${req.body.id}/accept`)).status).toBe(200);
    const ev = (await history('admin')).body.data as any[];
    expect(ev.map((e) => e.kind)).toEqual(['transferred', 'transfer_requested', 'joined']);
    expect(ev[0].at).toBe('2026-08-09T17:00:00.000Z');
    expect(ev[0]).not.toHaveProperty('sortAt');
  });

  it('an earlier stint in a unit joined again is still told: joined, left, joined again', async () => {
    const m = users.m!.id;
    expect((await as('admin')('POST', `/api/organizations/${o.cdA}/members/${m}`, {})).status).toBe(201);
    await clock('2026-08-20T09:00:00+07:00');
    expect(
      (await as('adminA')('POST', `/api/organizations/${o.cdA}/members/${m}/end`, { reason: 'moved_away', endedAt: '2026-08-20' })).status,
    ).toBe(200);
    await clock('2026-09-05T09:00:00+07:00');
    expect((await as('admin')('POST', `/api/organizations/${o.cdA}/members/${m}`, {})).status).toBe(201);
    const ev = (await history('admin')).body.data as any[];
    expect(ev.map((e) => [e.kind, e.at])).toEqual([
      ['joined', '2026-09-05T02:00:00.000Z'],
      ['left', '2026-08-19T17:00:00.000Z'],
      ['joined', '2026-08-10T02:00:00.000Z'],
    ]);
    expect(ev[1]).toMatchObject({
      organization: { id: o.cdA, name: 'Chi đoàn 22CNTT1' },
      reason: 'moved_away',
      actor: { id: users.adminA!.id },
    });
  });

  it('units of two trees joined in one save are each told (a Chi đoàn and a Chi hội)', async () => {
    const m = users.m!.id;
    const hsv = await t.createOrg('hoi_sinh_vien_truong', 'HSV', null, 'Hội Sinh viên trường');
    const lch = await t.createOrg('lien_chi_hoi', 'LCHA', hsv, 'Liên chi Hội CNTT');
    const ch = await t.createOrg('chi_hoi', 'CHA', lch, 'Chi hội 22CNTT1');
    expect((await as('admin')('PUT', `/api/users/${m}/organizations`, { organizationIds: [o.cdA, ch] })).status).toBe(200);
    const ev = (await history('admin')).body.data as any[];
    expect(ev.map((e) => [e.kind, e.organization.id]).sort()).toEqual(
      [
        ['joined', o.cdA],
        ['joined', ch],
      ].sort(),
    );
    expect(ev.every((e) => e.actor?.name === 'Quản trị Hệ thống')).toBe(true);
  });

  it('who may read: not signed in 401, no users right 403, an unknown or unreachable user 404; bad input 400', async () => {
    const m = users.m!.id;
    expect((await t.request('GET', `/api/users/${m}/history`)).status).toBe(401);
    expect((await as('m')('GET', `/api/users/${m}/history`)).status).toBe(403);
    expect((await as('admin')('GET', '/api/users/999999/history')).status).toBe(404);
    expect((await as('admin')('GET', '/api/users/abc/history')).status).toBe(400);
    expect((await history('admin', '?kind=everything')).status).toBe(400);
    expect((await history('admin', '?page=0')).status).toBe(400);
    expect((await history('admin', '?limit=1000')).status).toBe(400);
    expect((await history('admin')).body).toMatchObject({ data: [], total: 0, page: 1 });
  });
});
