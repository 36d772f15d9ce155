/**
 * Removing a member (issue 25 item 11): "Xóa khỏi tổ chức" on a chi đoàn used to leave the member in
 * every parent while the toast said removed. The API now offers levels, names what is left and
 * what is kept, and by default follows 000 §4 (parents go unless still the parent of a kept unit).
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/fixture';
import { organizationMembers } from '../db/tables/organizations';
import { allRows, runQuery } from '../db/engine';

let t: TestApp;
let root: number, f1: number, c1: number, c1b: number, f2: number;
let fac: { token: string };
let other: { token: string };

const orgsOf = async (userId: number) =>
  (
    await allRows(
      t.db.select({ o: organizationMembers.organizationId }).from(organizationMembers).where(eq(organizationMembers.userId, userId)),
    )
  )
    .map((r) => r.o)
    .sort((a, b) => a - b);
const memberOf = async (...orgs: number[]) => {
  const u = await insertUser(t);
  for (const o of orgs) await runQuery(t.db.insert(organizationMembers).values({ organizationId: o, userId: u }));
  return u;
};
const ids = (xs: { id: number }[]) => xs.map((x) => x.id);

beforeAll(async () => {
  t = await makeTestApp();
  root = await t.createOrg('doan_truong', 'RM-ROOT', null, 'Đoàn Trường RM');
  f1 = await t.createOrg('doan_co_so', 'RM-F1', root, 'Đoàn khoa RM1');
  c1 = await t.createOrg('chi_doan', 'RM-C1', f1, 'Chi đoàn RM1');
  c1b = await t.createOrg('chi_doan', 'RM-C1B', f1, 'Chi đoàn RM1B');
  f2 = await t.createOrg('doan_co_so', 'RM-F2', root, 'Đoàn khoa RM2');
  const role = await t.createRole('rm_faculty', ['organizations.access', 'organizations.remove_member', 'organizations.add_member']);
  fac = await t.createUser('RMFAC', [{ roleId: role, organizationId: f1 }]);
  other = await t.createUser('RMOTHER', [{ roleId: role, organizationId: f2 }]);
});

describe('GET /organizations/:id/members/:userId/removal', () => {
  it('a faculty admin on a chi đoàn: the chi đoàn or the faculty, never the root above its reach; the faculty is recommended', async () => {
    const u = await memberOf(root, f1, c1);
    const res = await t.request('GET', `/api/organizations/${c1}/members/${u}/removal`, { token: fac.token });
    expect(res.status).toBe(200);
    expect(res.body.recommended).toBe(f1);
    expect(res.body.options.map((o: { organization: { id: number } }) => o.organization.id)).toEqual([c1, f1]);
    expect(ids(res.body.options[0].leaves)).toEqual([c1]);
    expect(ids(res.body.options[0].staysIn)).toEqual([f1, root]);
    expect(ids(res.body.options[1].leaves)).toEqual([c1, f1]);
    expect(ids(res.body.options[1].staysIn)).toEqual([root]);
  });

  it('a member of a second chi đoàn of the faculty: only the chi đoàn is recommended; the faculty option names both chi đoàn', async () => {
    const u = await memberOf(root, f1, c1, c1b);
    const res = await t.request('GET', `/api/organizations/${c1}/members/${u}/removal`, { token: fac.token });
    expect(res.body.recommended).toBe(c1);
    expect(ids(res.body.options[1].leaves).sort((a: number, b: number) => a - b)).toEqual([f1, c1, c1b].sort((a, b) => a - b));
  });

  it('refuses a non-member (404), a caller of another faculty (403), no sign-in (401) and a bad id (400)', async () => {
    const u = await memberOf(f1, c1);
    expect((await t.request('GET', `/api/organizations/${c1b}/members/${u}/removal`, { token: fac.token })).status).toBe(404);
    expect((await t.request('GET', `/api/organizations/${c1}/members/${u}/removal`, { token: other.token })).status).toBe(403);
    expect((await t.request('GET', `/api/organizations/${c1}/members/${u}/removal`)).status).toBe(401);
    expect((await t.request('GET', `/api/organizations/${c1}/members/x/removal`, { token: fac.token })).status).toBe(400);
  });
});

describe('DELETE /organizations/:id/members/:userId', () => {
  it('by default leaves the chi đoàn and the faculty it no longer belongs under; the message names both and the root kept', async () => {
    const u = await memberOf(root, f1, c1);
    const res = await t.request('DELETE', `/api/organizations/${c1}/members/${u}`, { token: fac.token });
    expect(res.status).toBe(200);
    expect(ids(res.body.removed)).toEqual([c1, f1]);
    expect(ids(res.body.staysIn)).toEqual([root]);
    expect(res.body.message).toMatch(/khỏi Chi đoàn RM1 và Đoàn khoa RM1; vẫn là thành viên của Đoàn Trường RM$/);
    expect(await orgsOf(u)).toEqual([root]);
    // The faculty's count and reach went with it.
    const faculty = await t.request('GET', `/api/organizations/${f1}/members`, { token: fac.token });
    expect(faculty.body.members.map((m: { user: { id: number } }) => m.user.id)).not.toContain(u);
  });

  it('?from= the chi đoàn keeps the faculty; ?from= the faculty leaves it and every unit beneath it', async () => {
    const a = await memberOf(root, f1, c1);
    const only = await t.request('DELETE', `/api/organizations/${c1}/members/${a}?from=${c1}`, { token: fac.token });
    expect(ids(only.body.removed)).toEqual([c1]);
    expect(ids(only.body.staysIn)).toEqual([f1, root]);
    expect(await orgsOf(a)).toEqual([root, f1].sort((x, y) => x - y));

    const b = await memberOf(root, f1, c1, c1b);
    const subtree = await t.request('DELETE', `/api/organizations/${f1}/members/${b}?from=${f1}`, { token: fac.token });
    expect(subtree.status).toBe(200);
    expect(await orgsOf(b)).toEqual([root]);
  });

  it('the super admin may take the root too, which the 000 §4 rule recommends when nothing else holds them', async () => {
    const u = await memberOf(root, f1, c1);
    const res = await t.request('DELETE', `/api/organizations/${c1}/members/${u}`, { token: t.adminToken });
    expect(ids(res.body.removed)).toEqual([c1, f1, root]);
    expect(await orgsOf(u)).toEqual([]);
  });

  it('refuses a level above the caller, one off the chain and a bad value (400), with nothing removed', async () => {
    const u = await memberOf(root, f1, c1);
    for (const from of [root, f2, 'abc', 0]) {
      const res = await t.request('DELETE', `/api/organizations/${c1}/members/${u}?from=${from}`, { token: fac.token });
      expect(res.status, String(from)).toBe(400);
    }
    expect((await t.request('DELETE', `/api/organizations/${c1}/members/${u}`, { token: other.token })).status).toBe(403);
    expect(await orgsOf(u)).toEqual([root, f1, c1].sort((x, y) => x - y));
  });

  it('"safely" still leaves only the unit, and bulk-remove takes each member out as the default does', async () => {
    const u = await memberOf(root, f1, c1);
    const safe = await t.request('DELETE', `/api/organizations/${c1}/members/${u}/safely`, { token: fac.token });
    expect(safe.status).toBe(200);
    expect(await orgsOf(u)).toEqual([root, f1].sort((x, y) => x - y));

    const a = await memberOf(root, f1, c1);
    const b = await memberOf(f1, c1, c1b);
    const bulk = await t.request('DELETE', `/api/organizations/${c1}/members/bulk-remove`, { token: fac.token, body: { userIds: [a, b] } });
    expect(bulk.body.removedCount).toBe(2);
    expect(await orgsOf(a)).toEqual([root]);
    expect(await orgsOf(b)).toEqual([f1, c1b].sort((x, y) => x - y));
  });
});
