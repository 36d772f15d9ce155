/**
 * A user's detail in one statement (users/detail-row.ts): the memberships and role assignments it
 * builds as JSON on each engine must be what plain joins of the tables give, with real booleans and
 * dates, and the detail route must answer them as the screen reads them.
 */
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { allRows, runQuery } from '../db/engine';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { roles, userRoles } from '../db/tables/roles';
import { makeTestApp, type TestApp } from '../test/harness';
import { detailRow } from './detail-row';
import { addMember, insertUser } from './fixture';
import { membershipsOf } from './memberships-of';

let t: TestApp;
let ids: Record<'both' | 'bare', number>;
let orgs: Record<'root' | 'a' | 'a1', number>;

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'DR-ROOT');
  const a = await t.createOrg('doan_co_so', 'DR-A', root);
  const a1 = await t.createOrg('chi_doan', 'DR-A1', a);
  orgs = { root, a, a1 };
  ids = { both: await insertUser(t, { familyName: 'Trần Thị', givenName: 'Ánh' }, a1), bare: await insertUser(t) };
  await addMember(t, ids.both, a, false);
  await runQuery(t.db.update(organizationMembers).set({ role: 'secretary' }).where(eq(organizationMembers.organizationId, a1)));
  const role = await t.createRole('dr_viewer', ['users.access']);
  await runQuery(
    t.db.insert(userRoles).values([
      { userId: ids.both, roleId: role, organizationId: a },
      { userId: ids.both, roleId: role, organizationId: null, isActive: false },
    ]),
  );
});

/** The same lists from plain joins: what the detail read in three statements before. */
async function reference(userId: number) {
  // The profile's statement: every membership with its organization, in tree order (no path).
  const memberships = await membershipsOf(t.db, userId);
  const paths = await allRows(t.db.select({ id: organizations.id, path: organizations.path }).from(organizations));
  const pathOf = new Map(paths.map((o) => [o.id, o.path]));
  const links = await allRows(
    t.db
      .select({
        id: userRoles.id,
        roleId: userRoles.roleId,
        organizationId: userRoles.organizationId,
        isActive: userRoles.isActive,
        role: { id: roles.id, name: roles.name, displayName: roles.displayName, isActive: roles.isActive },
        organization: { id: organizations.id, name: organizations.name, code: organizations.code, type: organizations.type },
      })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .leftJoin(organizations, eq(organizations.id, userRoles.organizationId))
      .where(eq(userRoles.userId, userId))
      .orderBy(asc(userRoles.id)),
  );
  return { memberships: memberships.map((m) => ({ ...m, path: pathOf.get(m.organizationId)! })), links };
}

describe('a user detail in one statement', () => {
  it('lists the memberships and role assignments as plain joins of the tables do', async () => {
    for (const id of [ids.both, ids.bare]) {
      const row = (await detailRow(t.db, id))!;
      const ref = await reference(id);
      expect(row.memberships).toEqual(ref.memberships);
      expect(row.roleLinks).toEqual(ref.links);
    }
    const row = (await detailRow(t.db, ids.both))!;
    expect(row.memberships.map((m) => [m.organizationId, m.isActive, m.role])).toEqual([
      [orgs.a, false, 'member'],
      [orgs.a1, true, 'secretary'],
    ]);
    expect(row.memberships[0]!.joinedAt).toBeInstanceOf(Date);
    expect(row.roleLinks.map((l) => [l.organizationId, l.isActive, l.organization?.id ?? null])).toEqual([
      [orgs.a, true, orgs.a],
      [null, false, null],
    ]);
    expect(row.memberOf.map((m) => m.organizationId)).toEqual([orgs.a1]);
    expect(await detailRow(t.db, 987_654)).toBeUndefined();
  });

  it('the detail route answers them as the screen reads them', async () => {
    const res = await t.request('GET', `/api/users/${ids.both}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    const ref = await reference(ids.both);
    expect(res.body.organizations).toEqual(ref.memberships.map(({ path: _path, ...m }) => ({ ...m, joinedAt: m.joinedAt.toISOString() })));
    expect(res.body.userRoles).toEqual(ref.links);
    expect(res.body.familyName).toBe('Trần Thị');
    expect(res.body.hasPaidFees).toBe(false);
    const none = await t.request('GET', `/api/users/${ids.bare}`, { token: t.adminToken });
    expect([none.body.organizations, none.body.userRoles]).toEqual([[], []]);
  });
});
