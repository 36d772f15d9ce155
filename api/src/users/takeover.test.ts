import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import { userRoles } from '../db/tables/roles';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser, newUserBody, USER_CODES } from './fixture';
import { allRows, runQuery } from '../db/engine';

/**
 * Account takeover by a scoped admin (security issue item 1): a faculty admin who adds someone to
 * its faculty must not gain the power to change their e-mail or password (and sign in as them),
 * to deactivate or to delete them.
 */
let t: TestApp;
let root: number, f1: number, c1: number, f2: number;
let fac: { id: number; token: string };
let facRole: number;

const orgsOf = async (userId: number) =>
  (
    await allRows(
      t.db.select({ o: organizationMembers.organizationId }).from(organizationMembers).where(eq(organizationMembers.userId, userId)),
    )
  )
    .map((r) => r.o)
    .sort((a, b) => a - b);

const patch = (id: number, body: object, token = fac.token) => t.request('PATCH', `/api/users/${id}`, { token, body });

beforeAll(async () => {
  t = await makeTestApp();
  root = await t.createOrg('doan_truong', 'TK-ROOT');
  f1 = await t.createOrg('doan_co_so', 'TK-F1', root);
  c1 = await t.createOrg('chi_doan', 'TK-F1-C1', f1);
  f2 = await t.createOrg('doan_co_so', 'TK-F2', root);
  facRole = await t.createRole('tk_faculty_admin', [
    ...USER_CODES,
    'organizations.access',
    'organizations.add_member',
    'users.roles.manage',
  ]);
  fac = await t.createUser('TKFAC', [{ roleId: facRole, organizationId: f1 }]);
});

describe('adding someone to my unit gives no power over their account', () => {
  it('a member of another faculty, also in my unit: e-mail, password, active flag and delete are refused (403); other fields stay editable', async () => {
    const victim = await insertUser(t, { email: 'victim.f2@example.vn' }, f2);
    // Adding them is refused now (issue 25 item 8, reach.test.ts): here they were in both faculties already.
    expect((await t.request('POST', `/api/organizations/${f1}/members/${victim}`, { token: fac.token, body: {} })).status).toBe(403);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: f1, userId: victim }));

    const pw = await patch(victim, { password: 'taken-over-1' });
    expect(pw.status).toBe(403);
    expect(pw.body.message).toMatch(/ngoài phạm vi quản lý/);
    expect((await patch(victim, { email: 'attacker@example.vn' })).status).toBe(403);
    expect((await patch(victim, { isActive: false })).status).toBe(403);
    expect((await t.request('DELETE', `/api/users/${victim}`, { token: fac.token })).status).toBe(403);
    expect(
      (await t.request('DELETE', '/api/users/bulk-delete', { token: fac.token, body: { ids: [await insertUser(t, {}, f1), victim] } }))
        .status,
    ).toBe(403);
    // Nothing of the account changed; a harmless field is still the faculty's to fix.
    const after = await t.request('GET', `/api/users/${victim}`, { token: t.adminToken });
    expect(after.body).toMatchObject({ email: 'victim.f2@example.vn', isActive: true });
    expect((await patch(victim, { phone: '0911222333' })).status).toBe(200);
    // The super admin still manages everyone.
    expect((await patch(victim, { password: 'reset-by-admin' }, t.adminToken)).status).toBe(200);
  });

  it('a holder of a global role, added by code, or of an admin role elsewhere: refused', async () => {
    const viewer = await t.createRole('tk_global_viewer', ['users.access']);
    const globalHolder = await t.createUser('TKGLOBAL', [{ roleId: viewer }]);
    // Adding them by code is refused (item 8); a membership in the unit written by someone above.
    expect((await t.request('POST', `/api/organizations/${f1}/member/TKGLOBAL`, { token: fac.token, body: {} })).status).toBe(403);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: f1, userId: globalHolder.id }));
    expect((await patch(globalHolder.id, { password: 'taken-over-2' })).status).toBe(403);

    const otherAdmin = await t.createUser('TKOTHER', [{ roleId: facRole, organizationId: f2 }]);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: c1, userId: otherAdmin.id }));
    expect((await patch(otherAdmin.id, { email: 'other@attacker.vn' })).status).toBe(403);
  });

  it('a role link in its own unit with permissions the caller lacks there: refused', async () => {
    const payments = await t.createRole('tk_payments', ['payment-campaigns.access', 'payment-campaigns.update']);
    const treasurer = await insertUser(t, {}, c1);
    await runQuery(t.db.insert(userRoles).values({ userId: treasurer, roleId: payments, organizationId: c1 }));
    expect((await patch(treasurer, { password: 'taken-over-3' })).status).toBe(403);
  });

  it('"with parents" and add-by-code never write above the caller (the Đoàn root stays untouched)', async () => {
    const u = await insertUser(t, {}, f1);
    expect((await t.request('POST', `/api/organizations/${c1}/members/${u}/with-parents`, { token: fac.token })).status).toBe(201);
    expect(await orgsOf(u)).toEqual([f1, c1].sort((a, b) => a - b));
  });

  it('accounts wholly inside its reach stay its own: created in the unit, it resets their password', async () => {
    const created = await t.request('POST', '/api/users', {
      token: fac.token,
      body: newUserBody({ organizationId: c1, password: 'first-pass-1' }),
    });
    expect(created.status).toBe(201);
    expect(await orgsOf(created.body.id)).toEqual([f1, c1].sort((a, b) => a - b));
    expect((await patch(created.body.id, { password: 'second-pass-2' })).status).toBe(200);
    expect((await patch(created.body.id, { isActive: false })).status).toBe(200);
    expect((await t.request('DELETE', `/api/users/${created.body.id}`, { token: fac.token })).status).toBe(200);
  });
});

describe('add-by-code tells nothing about codes to callers who may not add there', () => {
  it('403 alike for an existing and an unknown code without the add right; 404 alike for an organization it cannot see', async () => {
    const reader = await t.createRole('tk_reader', ['organizations.access']);
    const r = await t.createUser('TKREAD', [{ roleId: reader, organizationId: f1 }]);
    await insertUser(t, { code: 'TKEXISTS' });
    const existing = await t.request('POST', `/api/organizations/${f1}/member/TKEXISTS`, { token: r.token, body: {} });
    const unknown = await t.request('POST', `/api/organizations/${f1}/member/TKNOBODY`, { token: r.token, body: {} });
    expect([existing.status, unknown.status]).toEqual([403, 403]);
    expect(existing.body).toEqual(unknown.body);
    const elsewhere = [
      await t.request('POST', `/api/organizations/${f2}/member/TKEXISTS`, { token: fac.token, body: {} }),
      await t.request('POST', `/api/organizations/${f2}/member/TKNOBODY`, { token: fac.token, body: {} }),
    ];
    expect(elsewhere[0]!.status).toBe(elsewhere[1]!.status);
    expect(elsewhere[0]!.body).toEqual(elsewhere[1]!.body);
  });
});
