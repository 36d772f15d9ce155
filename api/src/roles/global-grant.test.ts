/**
 * Issue 25 item 11: a role dialog whose scope was left empty saved `organizationId: null`, a grant
 * to the whole university. Someone who may grant only in their units must be refused a global
 * grant however it is spelled (isGlobal, an empty organization list, no organizations at all).
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { userRoles } from '../db/tables/roles';
import { allRows, runQuery } from '../db/engine';

let t: TestApp;
let f1: number;
let fac: { token: string };
let target: number;
let role: number;

const linksOf = async (userId: number) =>
  (await allRows(t.db.select({ o: userRoles.organizationId }).from(userRoles).where(eq(userRoles.userId, userId)))).map((r) => r.o);

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'GG-ROOT');
  f1 = await t.createOrg('doan_co_so', 'GG-F1', root);
  const codes = ['users.access', 'users.view_details', 'users.roles.manage', 'organizations.access'];
  const manager = await t.createRole('gg_manager', codes);
  role = await t.createRole('gg_viewer', ['users.access']);
  fac = await t.createUser('GGFAC', [{ roleId: manager, organizationId: f1 }]);
  target = (await t.createUser('GGTARGET')).id;
  await runQuery(t.db.insert(organizationMembers).values({ organizationId: f1, userId: target }));
});

describe('a global grant by someone who may grant only in their units', () => {
  for (const [label, row] of [
    ['isGlobal', { roleIds: [0], isGlobal: true }],
    ['an empty organization list', { roleIds: [0], organizationIds: [] }],
    ['no organizations at all', { roleIds: [0] }],
    ['the older row form with organizationId null', { roleId: 0, organizationId: null }],
  ] as const) {
    it(`is refused (403) when spelled as ${label}, on both routes, and nothing is written`, async () => {
      const body = (r: object) => JSON.parse(JSON.stringify(r).replace(/0/, String(role)));
      const a = await t.request('POST', `/api/users/${target}/roles`, { token: fac.token, body: { roleAssignments: [body(row)] } });
      const b = await t.request('POST', '/api/roles/grant-roles', {
        token: fac.token,
        body: { userId: target, roleAssignments: [body(row)] },
      });
      for (const res of [a, b]) {
        expect(res.status).toBe(403);
        expect(res.body.message).toMatch(/toàn hệ thống/);
      }
      expect(await linksOf(target)).toEqual([]);
    });
  }

  it('the same role in its own unit is granted', async () => {
    const res = await t.request('POST', `/api/users/${target}/roles`, {
      token: fac.token,
      body: { roleAssignments: [{ roleIds: [role], organizationIds: [f1] }] },
    });
    expect(res.status).toBe(200);
    expect(await linksOf(target)).toEqual([f1]);
  });
});
