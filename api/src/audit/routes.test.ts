import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { auditLogs } from '../db/tables/audit';
import { runQuery } from '../db/engine';

let t: TestApp;
let adminId: number;
let other: { id: number; token: string };

type Log = { id: number; action: string; entity: string; entityId: string | null; actor: { id: number } | null; createdAt: string };
const actions = (body: { data: Log[] }) => body.data.map((l) => l.action);

/** An audit row at a chosen time (Vietnam midnight is 17:00 UTC the day before). */
async function row(entity: string, action: string, createdAt: string, actorId: number | null = null, entityId = '1') {
  await runQuery(
    t.db
      .insert(auditLogs)
      .values({ entity, action, entityId, actorId, createdAt: new Date(createdAt), after: JSON.stringify({ at: createdAt }) }),
  );
}

beforeAll(async () => {
  t = await makeTestApp({ TRUST_PROXY: 'true' });
  adminId = t.admin.user.id;
  other = await t.createUser('AUDOTHER');
});

describe('GET /api/audit-logs', () => {
  it('shows a department create with its actor and the created values', async () => {
    const created = await t.request('POST', '/api/departments', {
      token: t.adminToken,
      body: { name: 'Khoa Nhật ký', code: 'NK' },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(created.status).toBe(201);
    const res = await t.request('GET', '/api/audit-logs', { token: t.adminToken });
    expect(res.status).toBe(200);
    const log = res.body.data[0];
    expect(log).toMatchObject({
      action: 'department.create',
      entity: 'department',
      entityId: String(created.body.id),
      actor: {
        id: adminId,
        code: expect.any(String),
        familyName: expect.any(String),
        givenName: expect.any(String),
        email: 'admin@doanhoi.local',
      },
      before: null,
      after: { id: created.body.id, name: 'Khoa Nhật ký', code: 'NK', isActive: true },
      ip: '203.0.113.9',
    });
    expect(new Date(log.createdAt).toISOString()).toBe(log.createdAt);
    expect(log.actor.passwordHash).toBeUndefined();
  });

  it('lists newest first, paginated, with total and totalPages that follow new rows', async () => {
    await row('pg_test', 'pg.a', '2024-03-01T00:00:00Z');
    await row('pg_test', 'pg.b', '2024-03-02T00:00:00Z');
    await row('pg_test', 'pg.c', '2024-03-03T00:00:00Z');
    const p1 = await t.request('GET', '/api/audit-logs?entity=pg_test&limit=2', { token: t.adminToken });
    expect(p1.body).toMatchObject({ total: 3, totalPages: 2, page: 1, limit: 2 });
    expect(actions(p1.body)).toEqual(['pg.c', 'pg.b']);
    const p2 = await t.request('GET', '/api/audit-logs?entity=pg_test&limit=2&page=2', { token: t.adminToken });
    expect(actions(p2.body)).toEqual(['pg.a']);
    await row('pg_test', 'pg.d', '2024-03-04T00:00:00Z');
    const again = await t.request('GET', '/api/audit-logs?entity=pg_test&limit=2', { token: t.adminToken });
    expect(again.body).toMatchObject({ total: 4, totalPages: 2 });
  });

  it('filters by actor, entity, entity id and action', async () => {
    await row('flt_test', 'flt.create', '2024-05-01T00:00:00Z', other.id, '7');
    await row('flt_test', 'flt.update', '2024-05-02T00:00:00Z', other.id, '8');
    await row('flt_test', 'flt.update', '2024-05-03T00:00:00Z', adminId, '7');
    const q = async (qs: string) => (await t.request('GET', `/api/audit-logs?entity=flt_test&${qs}`, { token: t.adminToken })).body;
    expect((await q(`actorId=${other.id}`)).total).toBe(2);
    expect(actions(await q('entityId=7'))).toEqual(['flt.update', 'flt.create']);
    expect(actions(await q('action=flt.update&entityId=8'))).toEqual(['flt.update']);
    expect((await q(`actorId=${adminId}&action=flt.create`)).total).toBe(0);
    expect((await q('')).data.map((l: Log) => l.actor?.id)).toEqual([adminId, other.id, other.id]);
  });

  it('filters by date: a bare day is a whole Vietnam day, an instant is exact and inclusive', async () => {
    await row('day_test', 'day.before', '2024-06-09T16:59:59Z'); // 23:59:59 on 9 June in Vietnam
    await row('day_test', 'day.start', '2024-06-09T17:00:00Z'); // 00:00 on 10 June in Vietnam
    await row('day_test', 'day.end', '2024-06-10T16:59:59Z'); // 23:59:59 on 10 June in Vietnam
    await row('day_test', 'day.after', '2024-06-10T17:00:00Z');
    const q = async (qs: string) =>
      actions((await t.request('GET', `/api/audit-logs?entity=day_test&${qs}`, { token: t.adminToken })).body);
    expect(await q('from=2024-06-10&to=2024-06-10')).toEqual(['day.end', 'day.start']);
    expect(await q('from=2024-06-10')).toEqual(['day.after', 'day.end', 'day.start']);
    expect(await q('to=2024-06-09')).toEqual(['day.before']);
    expect(await q('from=2024-06-09T17:00:00Z&to=2024-06-10T16:59:59Z')).toEqual(['day.end', 'day.start']);
    expect(await q('from=2024-06-10T00:00:00%2B07:00&to=2024-06-10T00:00:00%2B07:00')).toEqual(['day.start']);
  });

  it('shows a null actor for system rows and keeps unreadable snapshots as text', async () => {
    await runQuery(t.db.insert(auditLogs).values({ entity: 'sys_test', action: 'sys.job', before: 'not json' }));
    const res = await t.request('GET', '/api/audit-logs?entity=sys_test', { token: t.adminToken });
    expect(res.body.data[0]).toMatchObject({ actor: null, before: 'not json', after: null, entityId: null, ip: null });
  });

  it('refuses malformed filters (400)', async () => {
    for (const qs of [
      'from=yesterday',
      'to=2024-13-01',
      'from=2024-06-10T10:00:00',
      'actorId=abc',
      'actorId=0',
      'limit=101',
      'page=0',
      'entity=',
    ]) {
      const res = await t.request('GET', `/api/audit-logs?${qs}`, { token: t.adminToken });
      expect({ qs, status: res.status }).toEqual({ qs, status: 400 });
    }
    const res = await t.request('GET', '/api/audit-logs?from=yesterday', { token: t.adminToken });
    expect(res.body.message).toContain('Ngày không hợp lệ');
  });

  it('answers 401 without a token and 403 without system.view_logs', async () => {
    expect((await t.request('GET', '/api/audit-logs')).status).toBe(401);
    expect((await t.request('GET', '/api/audit-logs', { token: other.token })).status).toBe(403);
  });
});
