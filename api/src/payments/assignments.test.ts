import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { makeTestApp, type TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { userSearchText } from '../users/search';
import { campaigns, expectOk, join, vnLocal } from './fixture';
import { paymentCampaigns } from '../db/tables/payments';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let faculty: number;
let chiDoan: number;
let outside: number;

beforeAll(async () => {
  t = await makeTestApp();
  api = campaigns(t);
  const root = await t.createOrg('doan_truong', 'AS');
  faculty = await t.createOrg('doan_co_so', 'AS-F1', root);
  chiDoan = await t.createOrg('chi_doan', 'AS-F1-C1', faculty);
  outside = await t.createOrg('doan_co_so', 'AS-F2', root);
});

let n = 0;
/** A member of `org` with a distinct Vietnamese name. */
async function memberOf(org: number, givenName = `Thành${++n}`, familyName = 'Trần Văn') {
  const u = await t.createUser(`ASU${++n}`);
  const row = (await firstRow(t.db.select().from(users).where(eq(users.id, u.id))))!;
  await runQuery(
    t.db
      .update(users)
      .set({ givenName, familyName, searchText: userSearchText({ ...row, givenName, familyName }) })
      .where(eq(users.id, u.id)),
  );
  await join(t, u.id, org);
  return u;
}

const list = async (query: string) => (await expectOk(t.request('GET', `/api/payment/assignments?${query}`, { token: t.adminToken }))).data;

describe('assigning members', () => {
  it('creates an assignment with member, fee level and campaign; the due date defaults to the campaign end', async () => {
    const c = await api.create(faculty);
    const level = await api.level(c.id, 70_000, 'Chuẩn');
    const u = await memberOf(chiDoan);
    const res = await t.request('POST', '/api/payment/assignments', {
      token: t.adminToken,
      body: { campaignId: c.id, userId: u.id, feeLevelId: level.id, notes: 'ghi chú' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'PENDING',
      amount: 70_000,
      notes: 'ghi chú',
      dueDate: c.endDate,
      user: { id: u.id },
      feeLevel: { id: level.id, levelName: 'Chuẩn', amount: 70_000 },
      campaign: { id: c.id, status: 'DRAFT', organization: { id: faculty } },
    });
    const other = await memberOf(faculty);
    const dated = await expectOk(
      t.request('POST', '/api/payment/assignments', {
        token: t.adminToken,
        body: { campaignId: c.id, userId: other.id, feeLevelId: level.id, dueDate: '2026-12-20' },
      }),
      201,
    );
    expect(dated.data.dueDate).toBe('2026-12-20T16:59:59.999Z');
  });

  it('members must belong to the campaign organization or beneath it (400); one user once per campaign (409)', async () => {
    const c = await api.create(faculty);
    const level = await api.level(c.id);
    const stranger = await memberOf(outside, 'Lạ');
    const res = await t.request('POST', '/api/payment/assignments', {
      token: t.adminToken,
      body: { campaignId: c.id, userId: stranger.id, feeLevelId: level.id },
    });
    expect(res.status).toBe(400);
    // An unknown user and one outside the organization get the same answer, naming neither (issue 10).
    const unknown = await t.request('POST', '/api/payment/assignments', {
      token: t.adminToken,
      body: { campaignId: c.id, userId: 987654, feeLevelId: level.id },
    });
    expect(unknown.status).toBe(400);
    expect(res.body.message).toBe(`Không tìm thấy thành viên trong tổ chức của đợt thu (hoặc tổ chức trực thuộc): ${stranger.id}`);
    expect(unknown.body.message).toBe('Không tìm thấy thành viên trong tổ chức của đợt thu (hoặc tổ chức trực thuộc): 987654');
    expect(res.body.message).not.toContain('Lạ');
    const left = await t.createUser(`ASLEFT${++n}`);
    await join(t, left.id, faculty, false);
    expect(
      (
        await t.request('POST', '/api/payment/assignments', {
          token: t.adminToken,
          body: { campaignId: c.id, userId: left.id, feeLevelId: level.id },
        })
      ).status,
    ).toBe(400);

    const u = await memberOf(faculty, 'Lan', 'Nguyễn Thị');
    await api.assign(c.id, u.id, level.id);
    const again = await t.request('POST', '/api/payment/assignments', {
      token: t.adminToken,
      body: { campaignId: c.id, userId: u.id, feeLevelId: level.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('Nguyễn Thị Lan');

    const otherCampaign = await api.create(faculty);
    const foreignLevel = await api.level(otherCampaign.id);
    const wrongLevel = await t.request('POST', '/api/payment/assignments', {
      token: t.adminToken,
      body: { campaignId: c.id, userId: (await memberOf(faculty)).id, feeLevelId: foreignLevel.id },
    });
    expect(wrongLevel.status).toBe(400);
  });

  it('bulk assigns all or nothing, refusing duplicates with their names', async () => {
    const c = await api.create(faculty);
    const level = await api.level(c.id);
    const [a, b, d] = [await memberOf(faculty, 'An'), await memberOf(chiDoan, 'Bình'), await memberOf(faculty, 'Dũng')];
    const entry = (userId: number) => ({ campaignId: c.id, userId, feeLevelId: level.id, notes: null, dueDate: vnLocal(10, '23:59:59') });
    const res = await t.request('POST', '/api/payment/assignments/bulk', {
      token: t.adminToken,
      body: { assignments: [entry(a.id), entry(b.id)], userId: 1 },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.createdCount).toBe(2);
    const dup = await t.request('POST', '/api/payment/assignments/bulk', {
      token: t.adminToken,
      body: { assignments: [entry(d.id), entry(a.id)] },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toContain('An');
    const twice = await t.request('POST', '/api/payment/assignments/bulk', {
      token: t.adminToken,
      body: { assignments: [entry(d.id), entry(d.id)] },
    });
    expect(twice.status).toBe(409);
    expect((await list(`campaignId=${c.id}`)).total).toBe(2);
    const empty = await t.request('POST', '/api/payment/assignments/bulk', { token: t.adminToken, body: { assignments: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('Vui lòng chọn ít nhất một thành viên');
  });
});

describe('listing assignments', () => {
  it('searches member name, code and fee level name without accents; filters; sorts (default createdAt desc)', async () => {
    const c = await api.create(faculty);
    const std = await api.level(c.id, 60_000, 'Mức chuẩn');
    const low = await api.level(c.id, 30_000, 'Hỗ trợ khó khăn');
    const hoa = await memberOf(faculty, 'Hoà', 'Lê Thị');
    const minh = await memberOf(faculty, 'Minh', 'Phạm Văn');
    const khoa = await memberOf(faculty, 'Khoa', 'Đỗ Văn');
    const aHoa = await api.assign(c.id, hoa.id, std.id);
    await api.assign(c.id, minh.id, low.id);
    const aKhoa = await api.assign(c.id, khoa.id, std.id);
    expect((await list(`campaignId=${c.id}`)).assignments.map((a: { id: number }) => a.id)[0]).toBe(aKhoa.id);
    const ids = async (q: string) => (await list(`campaignId=${c.id}&${q}`)).assignments.map((a: { userId: number }) => a.userId);
    expect(await ids('search=le thi hoa')).toEqual([hoa.id]);
    expect(await ids('search=ho tro')).toEqual([minh.id]);
    const code = (await firstRow(t.db.select({ code: users.code }).from(users).where(eq(users.id, khoa.id))))!.code;
    expect(await ids(`search=${code}`)).toEqual([khoa.id]);
    expect(await ids(`feeLevelId=${std.id}&sortBy=memberName&sortOrder=asc`)).toEqual([hoa.id, khoa.id]);
    expect(await ids(`sortBy=amount&sortOrder=asc&limit=1`)).toEqual([minh.id]);
    await expectOk(t.request('PATCH', `/api/payment/assignments/${aHoa.id}/mark-paid`, { token: t.adminToken }));
    expect(await ids('status=PAID')).toEqual([hoa.id]);
    const byOrg = await expectOk(t.request('GET', `/api/payment/assignments/organization/${faculty}?limit=100`, { token: t.adminToken }));
    expect(byOrg.data.assignments.map((a: { userId: number }) => a.userId)).toEqual(expect.arrayContaining([hoa.id, minh.id, khoa.id]));
    expect((await t.request('GET', '/api/payment/assignments?sortBy=nope', { token: t.adminToken })).status).toBe(400);
    const stats = await expectOk(t.request('GET', `/api/payment/assignments/statistics?campaignId=${c.id}`, { token: t.adminToken }));
    expect(stats.data).toMatchObject({ totalMembers: 3, paidCount: 1, totalExpected: 150_000, collected: 60_000 });
  });
});

describe('changing assignments', () => {
  it('updates the fee level, notes and due date; deletes unpaid ones only', async () => {
    const c = await api.create(faculty);
    const a1 = await api.level(c.id, 10_000);
    const a2 = await api.level(c.id, 20_000);
    const u = await memberOf(faculty);
    const a = await api.assign(c.id, u.id, a1.id);
    const upd = await expectOk(
      t.request('PUT', `/api/payment/assignments/${a.id}`, { token: t.adminToken, body: { feeLevelId: a2.id, notes: 'đổi mức' } }),
    );
    expect(upd.data).toMatchObject({ feeLevelId: a2.id, amount: 20_000, notes: 'đổi mức' });
    expect(
      (await t.request('PATCH', `/api/payment/assignments/${a.id}`, { token: t.adminToken, body: { dueDate: 'ngày mai' } })).status,
    ).toBe(400);
    await expectOk(t.request('PATCH', `/api/payment/assignments/${a.id}/mark-paid`, { token: t.adminToken, body: { method: 'transfer' } }));
    expect(
      (await t.request('PATCH', `/api/payment/assignments/${a.id}`, { token: t.adminToken, body: { feeLevelId: a1.id } })).status,
    ).toBe(409);
    expect((await t.request('DELETE', `/api/payment/assignments/${a.id}`, { token: t.adminToken })).status).toBe(409);
    const b = await api.assign(c.id, (await memberOf(faculty)).id, a1.id);
    expect((await t.request('DELETE', `/api/payment/assignments/${b.id}`, { token: t.adminToken })).status).toBe(200);
    expect((await t.request('GET', `/api/payment/assignments/${b.id}`, { token: t.adminToken })).status).toBe(404);
  });

  it('mark-paid records a MANUAL payment with method, note, actor and time, audited; twice → 409', async () => {
    const c = await api.create(faculty);
    const level = await api.level(c.id, 45_000);
    const a = await api.assign(c.id, (await memberOf(faculty, 'Tiền')).id, level.id);
    const res = await expectOk(
      t.request('PATCH', `/api/payment/assignments/${a.id}/mark-paid`, {
        token: t.adminToken,
        body: { method: 'transfer', note: 'CK Vietcombank' },
      }),
    );
    expect(res.data).toMatchObject({ status: 'PAID', paidAmount: 45_000, paymentMethod: 'MANUAL' });
    expect(res.data.paidAt).toBeTruthy();
    const history = await expectOk(t.request('GET', `/api/payment-admin/payment-history/${c.id}`, { token: t.adminToken }));
    expect(history.data.items).toHaveLength(1);
    expect(history.data.items[0]).toMatchObject({
      amount: 45_000,
      status: 'PAID',
      payment_method: 'MANUAL',
      manual_method: 'transfer',
      note: 'CK Vietcombank',
      recorded_by: { id: t.admin.user.id },
      assignment: { user: { givenName: 'Tiền' } },
    });
    expect(history.data.items[0].paid_at).toBeTruthy();
    const logged = await firstRow(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'payment.mark_paid'), eq(auditLogs.entityId, String(a.id)))),
    );
    expect(JSON.parse(logged!.after!)).toMatchObject({ status: 'PAID', method: 'transfer', note: 'CK Vietcombank' });
    expect(
      (await t.request('PATCH', `/api/payment/assignments/${a.id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } })).status,
    ).toBe(409);
    expect((await t.request('PATCH', `/api/payment/assignments/${a.id}/mark-overdue`, { token: t.adminToken })).status).toBe(409);
    const bad = await t.request('PATCH', `/api/payment/assignments/${a.id}/mark-paid`, { token: t.adminToken, body: { method: 'card' } });
    expect(bad.status).toBe(400);
  });
});

describe('my-assignments (001 §4 member view rules)', () => {
  it('shows only ACTIVE and CANCELLED campaigns, the caller’s own, PENDING first then by due date', async () => {
    const me = await memberOf(faculty, 'Tôi');
    const someoneElse = await memberOf(faculty);
    const make = async (status: 'DRAFT' | 'ACTIVE' | 'COMPLETED' | 'CANCELLED', due: string) => {
      const c = await api.create(faculty);
      const level = await api.level(c.id);
      const a = await expectOk(
        t.request('POST', '/api/payment/assignments', {
          token: t.adminToken,
          body: { campaignId: c.id, userId: me.id, feeLevelId: level.id, dueDate: due },
        }),
        201,
      );
      await api.assign(c.id, someoneElse.id, level.id);
      await runQuery(t.db.update(paymentCampaigns).set({ status }).where(eq(paymentCampaigns.id, c.id)));
      return a.data.id as number;
    };
    await make('DRAFT', vnLocal(1));
    await make('COMPLETED', vnLocal(2));
    const cancelled = await make('CANCELLED', vnLocal(3));
    const laterActive = await make('ACTIVE', vnLocal(9));
    const soonActive = await make('ACTIVE', vnLocal(5));
    const paidActive = await make('ACTIVE', vnLocal(1));
    await expectOk(t.request('PATCH', `/api/payment/assignments/${paidActive}/mark-paid`, { token: t.adminToken }));

    const res = await expectOk(t.request('GET', '/api/payment/assignments/my-assignments', { token: me.token }));
    expect(res.data.assignments.map((a: { id: number }) => a.id)).toEqual([cancelled, soonActive, laterActive, paidActive]);
    expect(res.data.assignments.every((a: { userId: number }) => a.userId === me.id)).toBe(true);
    expect(res.data.summary).toMatchObject({ total: 4, pending: 3, paid: 1, overdue: 0 });
    // Pay now only for PENDING assignments of ACTIVE campaigns (with payment configured).
    expect(res.data.assignments.map((a: { canPay: boolean }) => a.canPay)).toEqual([false, false, false, false]);
    const none = await t.createUser(`ASNONE${++n}`);
    expect((await expectOk(t.request('GET', '/api/payment/assignments/my-assignments', { token: none.token }))).data.total).toBe(0);
    // Someone else's assignment is not readable without payment-campaigns.read.
    const theirs = (await list(`userId=${someoneElse.id}&limit=1`)).assignments[0].id;
    expect((await t.request('GET', `/api/payment/assignments/${theirs}`, { token: me.token })).status).toBe(403);
  });
});
