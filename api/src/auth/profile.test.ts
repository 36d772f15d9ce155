import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLogs } from '../db/tables/audit';
import { classes } from '../db/tables/classes';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { firstRow, runQuery } from '../db/engine';

/** Issue 15 part 6: GET/PATCH /auth/me/profile, the member's own record in the portal. */
let t: TestApp;
let me: { id: number; token: string };
let other: { id: number; token: string };
let chiDoan: number;

beforeAll(async () => {
  t = await makeTestApp();
  const faculty = await t.createOrg('doan_co_so', 'PF-F1', null, 'Đoàn khoa CNTT');
  chiDoan = await t.createOrg('chi_doan', 'PF-C1', faculty, 'Chi đoàn 21CTT1');
  const ended = await t.createOrg('chi_doan', 'PF-C2', faculty, 'Chi đoàn cũ');
  const klass = (await firstRow(t.db.insert(classes).values({ name: '21CTT1', code: '21CTT1', year: 2021 }).returning())).id;
  me = await t.createUser('PFME');
  other = await t.createUser('PFOTHER');
  await runQuery(t.db.update(users).set({ classId: klass, membershipStatus: 'both' }).where(eq(users.id, me.id)));
  await runQuery(
    t.db.insert(organizationMembers).values([
      { organizationId: chiDoan, userId: me.id },
      { organizationId: ended, userId: me.id, isActive: false },
      { organizationId: faculty, userId: other.id },
    ]),
  );
});

describe('GET /auth/me/profile', () => {
  it("returns the caller's own record: class, Đoàn/Hội status and active organizations, never the hash", async () => {
    const res = await t.request('GET', '/api/auth/me/profile', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: me.id, code: 'PFME', membershipStatus: 'both', class: { name: '21CTT1' }, phone: '0901234567' });
    expect(res.body.organizations.map((o: { organization: { code: string } }) => o.organization.code)).toEqual(['PF-C1']);
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|searchText|\$argon/);
    const theirs = await t.request('GET', '/api/auth/me/profile', { token: other.token });
    expect(theirs.body).toMatchObject({ id: other.id, code: 'PFOTHER' });
    expect(theirs.body.organizations.map((o: { organization: { code: string } }) => o.organization.code)).toEqual(['PF-F1']);
  });

  it('answers 401 without a token', async () => {
    expect((await t.request('GET', '/api/auth/me/profile')).status).toBe(401);
    expect((await t.request('PATCH', '/api/auth/me/profile', { body: { phone: '0911111111' } })).status).toBe(401);
  });
});

describe('PATCH /auth/me/profile', () => {
  it("changes the caller's phone (spaces removed), records it in the audit log, and leaves others alone", async () => {
    const res = await t.request('PATCH', '/api/auth/me/profile', { token: me.token, body: { phone: '091 222 3333' } });
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe('0912223333');
    expect((await firstRow(t.db.select({ phone: users.phone }).from(users).where(eq(users.id, other.id))))!.phone).toBe('0901234567');
    const row = (await firstRow(t.db.select().from(auditLogs).where(eq(auditLogs.action, 'user.update_own_contact'))))!;
    expect(row).toMatchObject({ actorId: me.id, entityId: String(me.id) });
    expect(JSON.parse(row.after!)).toEqual({ phone: '0912223333' });
  });

  it('refuses any non-contact field (400) and changes nothing', async () => {
    for (const body of [
      { phone: '0912223334', membershipStatus: 'none' },
      { email: 'x@y.vn' },
      { code: 'HACK' },
      { familyName: 'Khác' },
      { phone: '0912223334', classId: null },
      { phone: '0912223334', id: other.id },
    ]) {
      const res = await t.request('PATCH', '/api/auth/me/profile', { token: me.token, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const row = (await firstRow(t.db.select().from(users).where(eq(users.id, me.id))))!;
    expect(row).toMatchObject({
      phone: '0912223333',
      membershipStatus: 'both',
      code: 'PFME',
      email: 'pfme@test.vn',
      familyName: 'Nguyễn Văn',
    });
  });

  it('refuses a malformed phone with the shared message (400)', async () => {
    const res = await t.request('PATCH', '/api/auth/me/profile', { token: me.token, body: { phone: '12ab' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBeTruthy();
  });
});
