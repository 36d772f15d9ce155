import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join } from './fixture';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let org: number;

beforeAll(async () => {
  t = await makeTestApp();
  api = campaigns(t);
  org = await t.createOrg('doan_co_so', 'FL');
});

const levels = async (campaignId: number) =>
  (await expectOk(t.request('GET', `/api/payment-fee-levels/campaign/${campaignId}`, { token: t.adminToken }))).feeLevels as {
    id: number;
    levelName: string;
    amount: number;
    orderIndex: number;
    isDefault: boolean;
    assignmentCount: number;
  }[];

describe('fee levels', () => {
  it('a new level gets the current count as orderIndex; the first is the default', async () => {
    const c = await api.create(org);
    const a = await api.level(c.id, 100_000, 'Chuẩn');
    const b = await api.level(c.id, 50_000, 'Giảm');
    expect([a.orderIndex, a.isDefault, b.orderIndex, b.isDefault]).toEqual([0, true, 1, false]);
    const explicit = await expectOk(
      t.request('POST', '/api/payment-fee-levels', {
        token: t.adminToken,
        body: { campaignId: c.id, levelName: 'Đầu', amount: 1, orderIndex: 0 },
      }),
      201,
    );
    expect(explicit.orderIndex).toBe(0);
    expect((await levels(c.id)).map((l) => l.levelName)).toEqual(['Chuẩn', 'Đầu', 'Giảm']);
  });

  it('name required, amount an integer VND > 0', async () => {
    const c = await api.create(org);
    const cases: [Record<string, unknown>, string][] = [
      [{ levelName: ' ', amount: 1000 }, 'Vui lòng nhập tên'],
      [{ levelName: 'A', amount: 0 }, 'Số tiền phải lớn hơn 0'],
      [{ levelName: 'A', amount: -5 }, 'Số tiền phải lớn hơn 0'],
      [{ levelName: 'A', amount: 10.5 }, 'Số tiền phải là số nguyên'],
      [{ levelName: 'A', amount: '1000' }, 'Số tiền phải lớn hơn 0'],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('POST', '/api/payment-fee-levels', { token: t.adminToken, body: { campaignId: c.id, ...body } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect(
      (await t.request('POST', '/api/payment-fee-levels', { token: t.adminToken, body: { campaignId: 999999, levelName: 'A', amount: 1 } }))
        .status,
    ).toBe(404);
  });

  it('set-default keeps exactly one default; deleting the default passes it on', async () => {
    const c = await api.create(org);
    const a = await api.level(c.id, 1000, 'A');
    const b = await api.level(c.id, 2000, 'B');
    await expectOk(t.request('POST', `/api/payment-fee-levels/${b.id}/set-default`, { token: t.adminToken }));
    expect((await levels(c.id)).map((l) => l.isDefault)).toEqual([false, true]);
    await expectOk(t.request('DELETE', `/api/payment-fee-levels/${b.id}`, { token: t.adminToken }));
    expect((await levels(c.id)).map((l) => [l.id, l.isDefault])).toEqual([[a.id, true]]);
  });

  it('patches, 404s for unknown ids, and refuses to delete a level with assignments (409)', async () => {
    const c = await api.create(org);
    const a = await api.level(c.id, 1000, 'A');
    const patched = await expectOk(
      t.request('PATCH', `/api/payment-fee-levels/${a.id}`, {
        token: t.adminToken,
        body: { levelName: 'A2', amount: 1500, note: 'ghi chú' },
      }),
    );
    expect(patched).toMatchObject({ levelName: 'A2', amount: 1500, note: 'ghi chú' });
    expect((await t.request('PATCH', `/api/payment-fee-levels/${a.id}`, { token: t.adminToken, body: { amount: 0 } })).status).toBe(400);
    expect((await t.request('GET', '/api/payment-fee-levels/999999', { token: t.adminToken })).status).toBe(404);
    const u = await t.createUser('FLU1');
    await join(t, u.id, org);
    await api.assign(c.id, u.id, a.id);
    const res = await t.request('DELETE', `/api/payment-fee-levels/${a.id}`, { token: t.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('1 thành viên');
    expect((await levels(c.id))[0]!.assignmentCount).toBe(1);
  });
});
