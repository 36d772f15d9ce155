/**
 * The header's unit switcher (issue 25 item 11) asks GET /organizations/accessible?actionable=true:
 * only where the caller holds organizations.access, not the parent units it merely belongs to.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { organizationMembers } from '../db/tables/organizations';
import { runQuery } from '../db/engine';

let t: TestApp;
let root: number, f1: number, c1: number, f2: number;
let fac: { token: string };

beforeAll(async () => {
  t = await makeTestApp();
  root = await t.createOrg('doan_truong', 'SW-ROOT');
  f1 = await t.createOrg('doan_co_so', 'SW-F1', root);
  c1 = await t.createOrg('chi_doan', 'SW-C1', f1);
  f2 = await t.createOrg('doan_co_so', 'SW-F2', root);
  const role = await t.createRole('sw_faculty', ['organizations.access']);
  const u = await t.createUser('SWFAC', [{ roleId: role, organizationId: f1 }]);
  for (const o of [root, f1]) await runQuery(t.db.insert(organizationMembers).values({ organizationId: o, userId: u.id }));
  fac = u;
});

const ids = (body: { id: number }[]) => body.map((o) => o.id);

describe('GET /organizations/accessible?actionable=true', () => {
  it('a faculty admin: its faculty and what is beneath, not the root it belongs to (still listed without the flag)', async () => {
    const plain = await t.request('GET', '/api/organizations/accessible', { token: fac.token });
    expect(ids(plain.body)).toEqual([root, f1, c1]);
    const actionable = await t.request('GET', '/api/organizations/accessible?actionable=true', { token: fac.token });
    expect(actionable.status).toBe(200);
    expect(ids(actionable.body)).toEqual([f1, c1]);
    // The remembered root asked for by id is not returned, so the admin drops it after a reload.
    expect((await t.request('GET', `/api/organizations/accessible?actionable=true&ids=${root}`, { token: fac.token })).body).toEqual([]);
  });

  it('a super admin gets everything; a bad flag is a 400', async () => {
    const all = await t.request('GET', '/api/organizations/accessible?actionable=true', { token: t.adminToken });
    expect(ids(all.body)).toEqual(expect.arrayContaining([root, f1, c1, f2]));
    expect((await t.request('GET', '/api/organizations/accessible?actionable=yes', { token: fac.token })).status).toBe(400);
  });
});
