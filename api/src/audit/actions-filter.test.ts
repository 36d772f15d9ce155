/**
 * Issue 26: the audit screen's action filter picks actions by name, one or several; the list and
 * the export take them as `actions=a,b` (or repeated), beside the older single `action`. Choosing a
 * sign-in by name shows sign-ins even while the others are left out (excludeAuth=true).
 */
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { auditLogs } from '../db/tables/audit';
import { runQuery } from '../db/engine';

let t: TestApp;
type Log = { action: string };

async function row(action: string, createdAt: string) {
  await runQuery(t.db.insert(auditLogs).values({ entity: 'af_test', action, entityId: '1', createdAt: new Date(createdAt) }));
}

const list = async (qs: string) => {
  const res = await t.request('GET', `/api/audit-logs?entity=af_test&limit=100&${qs}`, { token: t.adminToken });
  expect(res.status).toBe(200);
  return { actions: (res.body.data as Log[]).map((l) => l.action), total: res.body.total as number };
};

beforeAll(async () => {
  t = await makeTestApp();
  await row('membership.remove', '2024-07-01T00:00:00Z');
  await row('membership.add', '2024-07-02T00:00:00Z');
  await row('user.update', '2024-07-03T00:00:00Z');
  await row('auth.login', '2024-07-04T00:00:00Z');
  await row('membership.remove', '2024-07-05T00:00:00Z');
});

describe('GET /api/audit-logs?actions=', () => {
  it('lists the rows of any of the chosen actions, with their total', async () => {
    expect(await list('actions=membership.remove')).toEqual({ actions: ['membership.remove', 'membership.remove'], total: 2 });
    expect(await list('actions=membership.remove,user.update')).toEqual({
      actions: ['membership.remove', 'user.update', 'membership.remove'],
      total: 3,
    });
    // Repeated, as a form or another client sends a list.
    expect((await list('actions=membership.add&actions=user.update')).actions).toEqual(['user.update', 'membership.add']);
    // Spaces and repeats are ignored; an empty choice is no filter.
    expect((await list('actions=%20user.update%20,,user.update')).actions).toEqual(['user.update']);
    expect((await list('actions=')).total).toBe(5);
  });

  it('keeps the single action filter working, and adds it to the chosen ones', async () => {
    expect((await list('action=user.update')).actions).toEqual(['user.update']);
    expect((await list('action=user.update&actions=membership.add')).actions).toEqual(['user.update', 'membership.add']);
  });

  it('a sign-in chosen by name is shown even when sign-ins are otherwise left out', async () => {
    expect((await list('excludeAuth=true')).actions).not.toContain('auth.login');
    expect((await list('excludeAuth=true&actions=auth.login,user.update')).actions).toEqual(['auth.login', 'user.update']);
    expect((await list('excludeAuth=true&action=auth.login')).actions).toEqual(['auth.login']);
  });

  it('refuses an overlong code or too many codes (400)', async () => {
    expect((await t.request('GET', `/api/audit-logs?actions=${'a'.repeat(101)}`, { token: t.adminToken })).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => `x.a${i}`).join(',');
    expect((await t.request('GET', `/api/audit-logs?actions=${many}`, { token: t.adminToken })).status).toBe(400);
  });

  it('the export holds only the chosen actions', async () => {
    const res = await t.app.request('/api/audit-logs/export?entity=af_test&actions=membership.remove,user.update', {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const col = header.indexOf('Hành động');
    const cells: string[] = [];
    sheet.eachRow((r, n) => void (n > 1 && cells.push(String(r.getCell(col).value))));
    expect(cells).toEqual(['membership.remove', 'user.update', 'membership.remove']);
  });
});
