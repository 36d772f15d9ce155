/** Users import: passwords and sign-in of imported accounts, organizations and references, and who may import what. */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import type { TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { importUsers, usersImportHelpers, usersImportWorld, validateUsers } from './fixture';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
let orgs: Awaited<ReturnType<typeof usersImportWorld>>['orgs'];
const { userByCode, membershipsOf, ok } = usersImportHelpers(() => t);

beforeAll(async () => {
  ({ t, orgs } = await usersImportWorld());
});

describe('passwords of imported accounts', () => {
  it('without a password: signs in with the e-mail local part and must change it; with one: signs in with it', async () => {
    const res = await importUsers(t, [
      ok('PW1', { email: 'pw.one@sv.vn', password: '-' }),
      ok('PW2', { email: 'pw.two@sv.vn', password: 'Strong#Pass1' }),
      ok('PW3', { email: 'pw3.three@sv.vn' }),
    ]);
    expect(res.body.importedCount).toBe(3);
    const one = await t.login('pw.one@sv.vn', 'pw.one');
    expect(one.user).toMatchObject({ mustChangePassword: true });
    const two = await t.login('pw.two@sv.vn', 'Strong#Pass1');
    expect(two.user).toMatchObject({ mustChangePassword: false });
    await expect(t.login('pw.two@sv.vn', 'pw.two')).rejects.toThrow();
    expect((await t.login('pw3.three@sv.vn', 'pw3.three')).user).toMatchObject({ mustChangePassword: true });
    expect((await userByCode('PW1'))!.passwordHash).toBeNull();
  });

  it('a default password shorter than the sign-in minimum is flagged', async () => {
    const { body } = await validateUsers(t, [ok('PWS', { email: 'an@sv.vn' })]);
    expect(body.warnings.map((w: { message: string }) => w.message).join(' ')).toContain('không dùng để đăng nhập được');
  });

  it('updating an existing user with a password sets it; "-" leaves the old one', async () => {
    await importUsers(t, [ok('PW4', { password: 'first-pass' })]);
    await importUsers(t, [ok('PW4', { password: '-', givenName: 'X' })], { updateExisting: true });
    await t.login('pw4@sv.vn', 'first-pass');
    await importUsers(t, [ok('PW4', { password: 'second-pass' })], { updateExisting: true });
    await t.login('pw4@sv.vn', 'second-pass');
  });
});

describe('organizations and references', () => {
  it('organizationCodes add memberships with every parent; class and departments by code or name', async () => {
    const res = await importUsers(t, [
      ok('ORG1', { organizationCodes: 'ui-cd1, UI-DCS2', className: 'L22C1', trainingDepartmentCode: 'CNTT' }),
    ]);
    expect(res.body).toMatchObject({ success: true, importedCount: 1 });
    const u = (await userByCode('ORG1'))!;
    expect(await membershipsOf(u.id)).toEqual([orgs.root, orgs.faculty, orgs.chiDoan, orgs.other].sort((a, b) => a - b));
    expect(u.classId).not.toBeNull();
    expect(u.trainingDepartmentId).not.toBeNull();
  });

  it('an existing user gets the new memberships on update', async () => {
    const u = await t.createUser('ORG2');
    const res = await importUsers(
      t,
      [ok('ORG2', { email: u.email, givenName: 'ORG2', familyName: 'Nguyễn Văn', phone: '0901234567', organizationCodes: 'UI-CD1' })],
      { updateExisting: true },
    );
    expect(res.body.importedCount).toBe(1);
    expect(await membershipsOf(u.id)).toEqual([orgs.root, orgs.faculty, orgs.chiDoan]);
  });
});

describe('permissions', () => {
  it('an organization-scoped creator imports only into its organizations, and cannot update users outside its reach', async () => {
    const role = await t.createRole('ui_org_creator', ['users.access', 'users.create', 'users.update']);
    const creator = await t.createUser('UIORGC', [{ roleId: role, organizationId: orgs.faculty }]);
    const outsider = await t.createUser('UIOUT');
    const { body } = await validateUsers(
      t,
      [ok('OC1', { organizationCodes: 'UI-CD1' }), ok('OC2'), ok('OC3', { organizationCodes: 'UI-DCS2' })],
      creator.token,
    );
    expect(body.data.map((d: { validation: { isValid: boolean } }) => d.validation.isValid)).toEqual([true, false, false]);
    expect(body.errors.map((e: { message: string }) => e.message).join(' ')).toContain('UI-DCS2');

    const res = await importUsers(
      t,
      [ok('UIOUT', { email: outsider.email, givenName: 'Hacked', organizationCodes: 'UI-CD1' })],
      { updateExisting: true },
      creator.token,
    );
    expect(res.body.importedCount).toBe(0);
    expect(res.body.failedCount).toBe(1);
    expect(res.body.errors[0].message).toContain('quyền cập nhật');
    expect((await userByCode('UIOUT'))!.givenName).toBe('UIOUT');
  });

  it('a new password or e-mail through an import needs the right over all of the user’s organizations (takeover)', async () => {
    const role = await t.createRole('ui_fac_users', ['users.access', 'users.create', 'users.update']);
    const creator = await t.createUser('UIFAC', [{ roleId: role, organizationId: orgs.faculty }]);
    const shared = await t.createUser('UISHARED');
    await runQuery(
      t.db.insert(organizationMembers).values([
        { organizationId: orgs.chiDoan, userId: shared.id },
        { organizationId: orgs.other, userId: shared.id },
      ]),
    );
    const before = (await userByCode('UISHARED'))!;
    const pw = await importUsers(
      t,
      [ok('UISHARED', { email: shared.email, password: 'taken-over-9' })],
      { updateExisting: true },
      creator.token,
    );
    expect(pw.body.importedCount).toBe(0);
    expect(pw.body.errors[0].message).toContain('ngoài phạm vi quản lý');
    const mail = await importUsers(t, [ok('UISHARED', { email: 'attacker@ui.vn' })], { updateExisting: true }, creator.token);
    expect(mail.body.importedCount).toBe(0);
    expect(await userByCode('UISHARED')).toMatchObject({ email: before.email, passwordHash: before.passwordHash });
    // Names say who the account is: the same guard (issue 25 item 8); other columns are still its to update.
    const name = await importUsers(
      t,
      [ok('UISHARED', { email: shared.email, givenName: 'Đổi tên' })],
      { updateExisting: true },
      creator.token,
    );
    expect(name.body.importedCount).toBe(0);
    expect(name.body.errors[0].message).toContain('ngoài phạm vi quản lý');
    const phone = await importUsers(
      t,
      [ok('UISHARED', { email: shared.email, givenName: 'UISHARED', familyName: 'Nguyễn Văn', phone: '0911222333' })],
      { updateExisting: true },
      creator.token,
    );
    expect(phone.body.importedCount).toBe(1);
  });

  it('only a super admin may update a super admin account through an import', async () => {
    const role = await t.createRole('ui_global_users', ['users.access', 'users.create', 'users.update']);
    const manager = await t.createUser('UIGLOB', [{ roleId: role }]);
    const res = await importUsers(t, [['ADMIN-HIJACK', 'Evil', 'Admin', 'admin@doanhoi.local']], { updateExisting: true }, manager.token, [
      'code',
      'familyName',
      'givenName',
      'email',
    ]);
    expect(res.body.importedCount).toBe(0);
    expect(res.body.failedCount).toBe(1);
    const admin = (await firstRow(t.db.select().from(users).where(eq(users.email, 'admin@doanhoi.local'))))!;
    expect(admin.familyName).not.toBe('Evil');
  });

  it('without users.update, conflicts are never updated', async () => {
    const role = await t.createRole('ui_create_only', ['users.access', 'users.create']);
    const creator = await t.createUser('UICO', [{ roleId: role }]);
    const target = await t.createUser('UICOT');
    const res = await importUsers(t, [ok('UICOT', { email: target.email, givenName: 'Changed' })], { updateExisting: true }, creator.token);
    expect(res.body.importedCount).toBe(0);
    expect((await userByCode('UICOT'))!.givenName).toBe('UICOT');
  });
});
