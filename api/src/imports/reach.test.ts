/**
 * Issue 10 item 1 through the users import: a row's organization codes join the member to those
 * organizations and their parents, but only the parents where the importer may create users — an
 * import never writes memberships above the importer's reach (as creating a user in the form does).
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { makeTestApp, type TestApp } from '../test/harness';
import { importUsers } from './fixture';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;
let root: number, faculty: number, unit: number;
let officer: { token: string };

beforeAll(async () => {
  t = await makeTestApp();
  root = await t.createOrg('doan_truong', 'RCH-ROOT');
  faculty = await t.createOrg('doan_co_so', 'RCH-FAC', root);
  unit = await t.createOrg('chi_doan', 'RCH-UNIT', faculty);
  const role = await t.createRole('rch_officer', ['users.access', 'users.view_details', 'users.create', 'users.update']);
  officer = await t.createUser('RCHOFF', [{ roleId: role, organizationId: faculty }]);
});

const header = ['code', 'familyName', 'givenName', 'email', 'phone', 'organizationCodes'];
const orgsOf = async (code: string) => {
  const u = (await firstRow(t.db.select().from(users).where(eq(users.code, code))))!;
  return (
    await allRows(
      t.db
        .select({ id: organizationMembers.organizationId })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.userId, u.id), eq(organizationMembers.isActive, true))),
    )
  )
    .map((r) => r.id)
    .sort((a, b) => a - b);
};

describe('users import memberships stay within the importer’s reach', () => {
  it('a new user joins the unit and the faculty, not the university above the importer', async () => {
    const res = await importUsers(t, [['RCH1', 'Lê', 'Một', 'rch1@test.vn', '0901234567', 'RCH-UNIT']], {}, officer.token, header);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ importedCount: 1, failedCount: 0 });
    expect(await orgsOf('RCH1')).toEqual([faculty, unit].sort((a, b) => a - b));
  });

  it('an existing user added to the unit by an update does not join above either', async () => {
    expect(
      (await importUsers(t, [['RCH2', 'Lê', 'Hai', 'rch2@test.vn', '0901234567', 'RCH-FAC']], {}, officer.token, header)).body
        .importedCount,
    ).toBe(1);
    const res = await importUsers(
      t,
      [['RCH2', 'Lê', 'Hai', 'rch2@test.vn', '0901234567', 'RCH-UNIT']],
      { updateExisting: true },
      officer.token,
      header,
    );
    expect(res.body.failedCount).toBe(0);
    expect(await orgsOf('RCH2')).toEqual([faculty, unit].sort((a, b) => a - b));
  });

  it('a global importer still joins every parent (000 §4)', async () => {
    await importUsers(t, [['RCH3', 'Lê', 'Ba', 'rch3@test.vn', '0901234567', 'RCH-UNIT']], {}, t.adminToken, header);
    expect(await orgsOf('RCH3')).toEqual([root, faculty, unit].sort((a, b) => a - b));
  });
});
