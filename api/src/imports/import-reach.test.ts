/**
 * Issue 25 item 8 through the imports: the member import adds only users already within the
 * caller's reach (access/reach.ts), and the users import with updateExisting gives memberships only
 * to such users and changes a code, names or user type only under the e-mail/password guard
 * (users/manage.ts), as PATCH /users/:id and POST …/members do.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/fixture';
import { OUTSIDE_REACH_MESSAGE } from '../access/reach';
import { users } from '../db/tables/users';
import { form, importUsers, UNTHROTTLED, userRow, xlsx, type Cells } from './fixture';
import { allRows, firstRow, runQuery } from '../db/engine';

let t: TestApp;
let o: { root: number; faculty: number; cd1: number; cd2: number; otherFaculty: number; otherCd: number };

const activeOrgs = async (userId: number) =>
  (
    await allRows(
      t.db
        .select({ org: organizationMembers.organizationId })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))),
    )
  )
    .map((m) => m.org)
    .sort((a, b) => a - b);
const userById = async (id: number) => (await firstRow(t.db.select().from(users).where(eq(users.id, id))))!;

async function memberImport(level: 2 | 3, orgId: number, header: string[], rows: Cells[], token: string, lang = 'vi') {
  const up = await t.request('POST', `/api/organizations/members/import/upload?level=${level}&organizationId=${orgId}`, {
    token,
    body: form(await xlsx(header, rows)),
  });
  expect(up.status).toBe(201);
  const headers = { 'accept-language': lang };
  const validation = await t.request('GET', `/api/organizations/import/${up.body.sessionId}/validate`, { token, headers });
  const exec = await t.request('POST', `/api/organizations/import/${up.body.sessionId}/execute`, { token, body: { options: {} }, headers });
  return { validation: validation.body, exec: exec.body };
}
const messages = (body: { errors: { message: string }[] }) => body.errors.map((e) => e.message);

beforeAll(async () => {
  t = await makeTestApp(UNTHROTTLED);
  const root = await t.createOrg('doan_truong', 'IR-DT');
  const faculty = await t.createOrg('doan_co_so', 'IR-DCS', root);
  const cd1 = await t.createOrg('chi_doan', 'IR-CD1', faculty);
  const cd2 = await t.createOrg('chi_doan', 'IR-CD2', faculty);
  const otherFaculty = await t.createOrg('doan_co_so', 'IR-DCS2', root);
  const otherCd = await t.createOrg('chi_doan', 'IR-CDX', otherFaculty);
  o = { root, faculty, cd1, cd2, otherFaculty, otherCd };
});

describe('member import: only users within the caller’s reach', () => {
  it('a faculty officer cannot pull another faculty’s member, nor an orphan, into a unit: row errors with the reach message', async () => {
    const role = await t.createRole('ir_adder', ['organizations.access', 'organizations.add_member']);
    const officer = await t.createUser('IROFF', [{ roleId: role, organizationId: o.faculty }]);
    const inside = await insertUser(t, { code: 'IR-IN' }, o.cd2);
    const foreign = await insertUser(t, { code: 'IR-FOREIGN' }, o.otherCd);
    const orphan = await insertUser(t, { code: 'IR-ORPHAN' });
    const { validation, exec } = await memberImport(3, o.cd1, ['Mã sinh viên'], [['IR-IN'], ['IR-FOREIGN'], ['IR-ORPHAN']], officer.token);
    expect(validation.summary).toMatchObject({ total: 3, valid: 1, invalid: 2 });
    expect(messages(validation)).toEqual([OUTSIDE_REACH_MESSAGE, OUTSIDE_REACH_MESSAGE]);
    expect(exec).toMatchObject({ importedCount: 1, failedCount: 2 });
    expect(await activeOrgs(inside)).toEqual([o.faculty, o.cd1, o.cd2].sort((a, b) => a - b));
    expect(await activeOrgs(foreign)).toEqual([o.otherCd]);
    expect(await activeOrgs(orphan)).toEqual([]);
  });

  it('at level 2 as well, and the message follows the caller’s language', async () => {
    const role = await t.createRole('ir_adder2', ['organizations.access', 'organizations.add_member']);
    const officer = await t.createUser('IROFF2', [{ roleId: role, organizationId: o.faculty }]);
    const foreign = await insertUser(t, { code: 'IR-FOREIGN2' }, o.otherFaculty);
    const { validation, exec } = await memberImport(
      2,
      o.faculty,
      ['Mã sinh viên', 'Mã lớp/đơn vị'],
      [['IR-FOREIGN2', 'IR-CD1']],
      officer.token,
      'en',
    );
    expect(messages(validation)[0]).toMatch(/within your reach/);
    expect(exec).toMatchObject({ importedCount: 0, failedCount: 1 });
    expect(await activeOrgs(foreign)).toEqual([o.otherFaculty]);
  });

  it('a global officer still adds anyone', async () => {
    const role = await t.createRole('ir_global_adder', ['organizations.access', 'organizations.add_member']);
    const officer = await t.createUser('IRGLOB', [{ roleId: role }]);
    const foreign = await insertUser(t, { code: 'IR-FOREIGN3' }, o.otherCd);
    const { exec } = await memberImport(3, o.cd1, ['studentCode'], [['IR-FOREIGN3']], officer.token);
    expect(exec).toMatchObject({ importedCount: 1, failedCount: 0 });
    expect(await activeOrgs(foreign)).toContain(o.cd1);
  });
});

describe('users import with updateExisting: memberships and the account’s identity', () => {
  const row = (u: { code: string; familyName: string; givenName: string; email: string }, extra: Record<string, string> = {}) =>
    userRow({ code: u.code, familyName: u.familyName, givenName: u.givenName, email: u.email, ...extra });

  it('an officer who may update everyone but create only in its faculty cannot pull another faculty’s member into it', async () => {
    const update = await t.createRole('ir_update_all', ['users.access', 'users.update']);
    const create = await t.createRole('ir_create_fac', ['users.access', 'users.create']);
    const officer = await t.createUser('IRUPD', [{ roleId: update }, { roleId: create, organizationId: o.faculty }]);
    const foreignId = await insertUser(t, { code: 'IR-F4' }, o.otherCd);
    const res = await importUsers(
      t,
      [row(await userById(foreignId), { organizationCodes: 'IR-CD1' })],
      { updateExisting: true },
      officer.token,
    );
    expect(res.body).toMatchObject({ importedCount: 0, failedCount: 1 });
    expect(res.body.errors[0].message).toBe(OUTSIDE_REACH_MESSAGE);
    expect(await activeOrgs(foreignId)).toEqual([o.otherCd]);
    // A member of its own faculty still joins another unit of it.
    const insideId = await insertUser(t, { code: 'IR-I4' }, o.cd2);
    const ok = await importUsers(
      t,
      [row(await userById(insideId), { organizationCodes: 'IR-CD1' })],
      { updateExisting: true },
      officer.token,
    );
    expect(ok.body).toMatchObject({ importedCount: 1, failedCount: 0 });
    expect(await activeOrgs(insideId)).toContain(o.cd1);
  });

  it('code, names and user type of a user shared with another faculty are refused like e-mail and password; the phone is not', async () => {
    const role = await t.createRole('ir_fac_users', ['users.access', 'users.create', 'users.update']);
    const officer = await t.createUser('IRFAC', [{ roleId: role, organizationId: o.faculty }]);
    const sharedId = await insertUser(t, { code: 'IR-SHARED', userType: 'student' }, o.cd1);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: o.otherCd, userId: sharedId }));
    const before = await userById(sharedId);
    const header = ['code', 'familyName', 'givenName', 'email', 'phone', 'userType'];
    const base = [before.code, before.familyName, before.givenName, before.email, before.phone ?? '', 'student'];
    const attempts: [string, Cells][] = [
      ['code (matched by e-mail)', ['IR-HIJACK', ...base.slice(1)]],
      ['family name', [base[0], 'Kẻ Gian', ...base.slice(2)]],
      ['given name', [base[0], base[1], 'Mạo Danh', ...base.slice(3)]],
      ['user type', [...base.slice(0, 5), 'staff']],
    ];
    for (const [what, cells] of attempts) {
      const res = await importUsers(t, [cells], { updateExisting: true }, officer.token, header);
      expect(res.body.importedCount, what).toBe(0);
      expect(res.body.errors[0].message, what).toContain('ngoài phạm vi quản lý');
    }
    expect(await userById(sharedId)).toMatchObject({
      code: before.code,
      familyName: before.familyName,
      givenName: before.givenName,
      userType: 'student',
    });
    const phone = await importUsers(t, [[...base.slice(0, 4), '0988777666', 'student']], { updateExisting: true }, officer.token, header);
    expect(phone.body.importedCount).toBe(1);
    expect((await userById(sharedId)).phone).toBe('0988777666');
  });
});
