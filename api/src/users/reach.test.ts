import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser, USER_CODES } from './fixture';
import { users } from '../db/tables/users';
import { allRows, firstRow, runQuery } from '../db/engine';

/**
 * Issue 25 item 8: a faculty admin must not add someone it cannot reach (another faculty's
 * student, or an orphan without memberships) to its unit, and then read and rewrite their record.
 * The code, names and user type follow the e-mail and password guard (manage.ts).
 */
let t: TestApp;
let root: number, f1: number, c1: number, f2: number, c2: number;
let fac: { id: number; token: string };
let globalAdder: { id: number; token: string };

const orgsOf = async (userId: number) =>
  (
    await allRows(
      t.db.select({ o: organizationMembers.organizationId }).from(organizationMembers).where(eq(organizationMembers.userId, userId)),
    )
  ).map((r) => r.o);
const add = (org: number, userId: number, token = fac.token) =>
  t.request('POST', `/api/organizations/${org}/members/${userId}`, { token, body: {} });

beforeAll(async () => {
  t = await makeTestApp();
  root = await t.createOrg('doan_truong', 'RC-ROOT');
  f1 = await t.createOrg('doan_co_so', 'RC-F1', root);
  c1 = await t.createOrg('chi_doan', 'RC-F1-C1', f1);
  f2 = await t.createOrg('doan_co_so', 'RC-F2', root);
  c2 = await t.createOrg('chi_doan', 'RC-F2-C1', f2);
  const role = await t.createRole('rc_faculty_admin', [
    ...USER_CODES,
    'organizations.access',
    'organizations.add_member',
    'organizations.remove_member',
  ]);
  fac = await t.createUser('RCFAC', [{ roleId: role, organizationId: f1 }]);
  const adder = await t.createRole('rc_global_adder', ['organizations.access', 'organizations.add_member', 'users.access']);
  globalAdder = await t.createUser('RCGLOBAL', [{ roleId: adder }]);
});

describe('adding someone outside my reach to my unit is refused', () => {
  it('a student of another faculty, by id, with parents and by code: 403, nothing written, their record stays closed', async () => {
    const victim = await insertUser(t, { code: 'RCVICTIM', email: 'rc.victim@example.vn' }, c2);
    for (const res of [
      await add(f1, victim),
      await add(c1, victim),
      await t.request('POST', `/api/organizations/${c1}/members/${victim}/with-parents`, { token: fac.token }),
      await t.request('POST', `/api/organizations/${c1}/member/RCVICTIM`, { token: fac.token, body: {} }),
      await t.request('POST', `/api/organizations/${c1}/member/x`, { token: fac.token, body: { userCode: 'RCVICTIM' } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/phạm vi quản lý/);
    }
    expect(await orgsOf(victim)).toEqual([c2]);
    // Their e-mail and phone stay out of reach, and so does every field.
    expect((await t.request('GET', `/api/users/${victim}`, { token: fac.token })).status).toBe(404);
    expect((await t.request('PATCH', `/api/users/${victim}`, { token: fac.token, body: { phone: '0911000111' } })).status).toBe(404);
    expect(
      (await t.request('PUT', `/api/users/${victim}/organizations`, { token: fac.token, body: { organizationIds: [c1] } })).status,
    ).toBe(404);
  });

  it('an orphan with no membership: refused to the faculty admin, allowed to a global grant; no password can be set', async () => {
    const orphan = await insertUser(t, { code: 'RCORPHAN' });
    expect((await t.request('POST', `/api/organizations/${c1}/member/RCORPHAN`, { token: fac.token, body: {} })).status).toBe(403);
    expect((await add(c1, orphan)).status).toBe(403);
    expect((await t.request('PATCH', `/api/users/${orphan}`, { token: fac.token, body: { password: 'taken-over-9' } })).status).toBe(404);
    expect(await orgsOf(orphan)).toEqual([]);
    expect((await add(c1, orphan, globalAdder.token)).status).toBe(201);
    expect(await orgsOf(orphan)).toEqual([c1]);
  });

  it('someone already in my faculty can still be added to another of its units; the super admin adds anyone', async () => {
    const own = await insertUser(t, {}, f1);
    const res = await add(c1, own);
    expect(res.status).toBe(201);
    expect((await orgsOf(own)).sort()).toEqual([f1, c1].sort());
    const other = await insertUser(t, {}, f2);
    expect((await add(c1, other, t.adminToken)).status).toBe(201);
  });

  it('bad input still answers as before: unknown user 404, unknown unit 404, a non-numeric id 400', async () => {
    expect((await add(c1, 999_999)).status).toBe(404);
    expect((await add(999_999, await insertUser(t, {}, f1))).status).toBe(404);
    expect((await t.request('POST', `/api/organizations/${c1}/members/abc`, { token: fac.token, body: {} })).status).toBe(400);
    expect((await t.request('POST', `/api/organizations/${c1}/member/NOBODY-RC`, { token: fac.token, body: {} })).status).toBe(404);
  });
});

describe('code, names and user type follow the e-mail and password guard', () => {
  it('a user shared with another faculty: code, family name, given name and type are refused (403); phone and class stay editable', async () => {
    const shared = await insertUser(t, { code: 'RCSHARED', email: 'rc.shared@example.vn' }, c2);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: c1, userId: shared }));
    const patch = (body: object) => t.request('PATCH', `/api/users/${shared}`, { token: fac.token, body });
    for (const body of [{ code: 'RCNEWCODE' }, { familyName: 'Kẻ Gian' }, { givenName: 'Mạo Danh' }, { userType: 'staff' }]) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.message).toMatch(/đổi mã, họ tên, loại người dùng/);
    }
    const row = (await firstRow(t.db.select().from(users).where(eq(users.id, shared))))!;
    expect(row).toMatchObject({ code: 'RCSHARED', userType: 'student' });
    // Sending the unchanged values is no change at all.
    expect((await patch({ code: 'RCSHARED', familyName: row.familyName, givenName: row.givenName, userType: 'student' })).status).toBe(200);
    expect((await patch({ phone: '0911222333' })).status).toBe(200);
    // The super admin still rewrites them.
    expect(
      (await t.request('PATCH', `/api/users/${shared}`, { token: t.adminToken, body: { code: 'RCSHARED2', userType: 'staff' } })).status,
    ).toBe(200);
  });

  it('a user wholly inside the faculty: the faculty admin fixes code, names and type', async () => {
    const own = await insertUser(t, { code: 'RCOWN' }, c1);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: f1, userId: own }));
    const res = await t.request('PATCH', `/api/users/${own}`, {
      token: fac.token,
      body: { code: 'RCOWN2', familyName: 'Trần', givenName: 'An', userType: 'staff' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'RCOWN2', familyName: 'Trần', givenName: 'An', userType: 'staff' });
    // Bad input is still a 400 before any rights question.
    expect((await t.request('PATCH', `/api/users/${own}`, { token: fac.token, body: { code: '' } })).status).toBe(400);
    expect((await t.request('PATCH', `/api/users/${own}`, { token: fac.token, body: { userType: 'boss' } })).status).toBe(400);
  });
});
