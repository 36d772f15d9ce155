/**
 * Issue 26 item 3: GET /organizations/{id}/officers lists who holds which role scoped to the unit,
 * paginated, with the roles held above it on request (labelled), inside the caller's scope; and a
 * user's detail names where each of their roles applies.
 */
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { roles, userRoles } from '../db/tables/roles';
import type { TestApp } from '../test/harness';
import { orgWorld, type OrgTree } from './fixture';
import { organizationMembers } from '../db/tables/organizations';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
let org: OrgTree<'cd2'>;
let role: (name: string) => Promise<number>;

beforeEach(async () => {
  ({ t, org } = await orgWorld(['cd2']));
  role = async (name) => (await firstRow(t.db.select().from(roles).where(eq(roles.name, name))))!.id;
});

const names = (body: { data: { user: { code: string }; role: { name: string }; organization: { id: number }; inherited: boolean }[] }) =>
  body.data.map((o) => `${o.user.code}:${o.role.name}@${o.organization.id}${o.inherited ? '↑' : ''}`);

describe('GET /organizations/:id/officers', () => {
  it('lists the roles held in the unit, then with inherited those above it (nearest first), never global ones', async () => {
    const a = await t.createUser('OF1', [{ roleId: await role('staff'), organizationId: org.cd }]);
    await t.createUser('OF2', [{ roleId: await role('org_admin'), organizationId: org.dcs }]);
    await t.createUser('OF3', [{ roleId: await role('staff'), organizationId: org.cd2 }, { roleId: await role('super_admin') }]);
    await t.createUser('OF4', [{ roleId: await role('org_admin'), organizationId: org.doan }]);
    await runQuery(
      t.db.insert(userRoles).values({ userId: a.id, roleId: await role('org_admin'), organizationId: org.cd, isActive: false }),
    );

    const own = await t.request('GET', `/api/organizations/${org.cd}/officers`, { token: t.adminToken });
    expect(own.status).toBe(200);
    expect(names(own.body)).toEqual([`OF1:staff@${org.cd}`]);
    expect(own.body.data[0]).toMatchObject({
      user: { familyName: 'Nguyễn Văn', givenName: 'OF1' },
      role: { displayName: 'Cán bộ' },
      organization: { code: 'CD1', type: 'chi_doan' },
    });

    const all = await t.request('GET', `/api/organizations/${org.cd}/officers?inherited=true`, { token: t.adminToken });
    expect(names(all.body)).toEqual([`OF1:staff@${org.cd}`, `OF2:org_admin@${org.dcs}↑`, `OF4:org_admin@${org.doan}↑`]);
    expect(all.body).toMatchObject({ total: 3, page: 1, totalPages: 1 });
  });

  it('pages in SQL', async () => {
    for (let i = 0; i < 12; i++)
      await t.createUser(`PG${String(i).padStart(2, '0')}`, [{ roleId: await role('staff'), organizationId: org.dcs }]);
    const p2 = await t.request('GET', `/api/organizations/${org.dcs}/officers?page=2&limit=5`, { token: t.adminToken });
    expect(p2.body).toMatchObject({ total: 12, page: 2, limit: 5, totalPages: 3 });
    expect(p2.body.data.map((o: { user: { code: string } }) => o.user.code)).toEqual(['PG05', 'PG06', 'PG07', 'PG08', 'PG09']);
    expect((await t.request('GET', `/api/organizations/${org.dcs}/officers?limit=500`, { token: t.adminToken })).status).toBe(400);
  });

  it('a faculty admin sees its units’ officers, not another faculty’s nor those of the school above it', async () => {
    const other = await t.createOrg('doan_co_so', 'DCS2', org.doan);
    await t.createUser('OX1', [{ roleId: await role('staff'), organizationId: other }]);
    await t.createUser('OS1', [{ roleId: await role('org_admin'), organizationId: org.doan }]);
    await t.createUser('OC1', [{ roleId: await role('staff'), organizationId: org.cd }]);
    const fac = await t.createUser('FAC1', [{ roleId: await role('org_admin'), organizationId: org.dcs }]);
    // A member of the school too: belonging to it lets them see the unit, not who holds what there.
    await runQuery(t.db.insert(organizationMembers).values([{ organizationId: org.doan, userId: fac.id }]));

    const mine = await t.request('GET', `/api/organizations/${org.cd}/officers?inherited=true`, { token: fac.token });
    expect(mine.status).toBe(200);
    // The faculty's own grant shows above the chi đoàn; the school's officer does not (the school is outside its scope).
    expect(names(mine.body)).toEqual([`OC1:staff@${org.cd}`, `FAC1:org_admin@${org.dcs}↑`]);
    for (const id of [other, org.doan])
      expect([403, 404]).toContain((await t.request('GET', `/api/organizations/${id}/officers`, { token: fac.token })).status);
    expect((await t.request('GET', `/api/organizations/${org.cd}/officers`)).status).toBe(401);
  });
});

describe('GET /users/:id names where each role applies', () => {
  it('the unit of a scoped role, null for a global one', async () => {
    const u = await t.createUser('RS1', [{ roleId: await role('staff'), organizationId: org.cd }, { roleId: await role('super_admin') }]);
    const res = await t.request('GET', `/api/users/${u.id}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    const byRole = Object.fromEntries(
      res.body.userRoles.map((l: { role: { name: string }; organization: unknown }) => [l.role.name, l.organization]),
    );
    expect(byRole).toEqual({ staff: { id: org.cd, name: 'CD1', code: 'CD1', type: 'chi_doan' }, super_admin: null });
  });
});
