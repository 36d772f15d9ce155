/**
 * Changes to users in the audit log (issue 15 part 4): an organization's auditor (audit.access in an
 * organization role) reads the changes to users who are members of its subtree and the role grants
 * made in its subtree, never those about users or grants elsewhere, and never another organization's
 * role links inside a snapshot. Global readers see everything; sign-ins stay with them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from '../payments/fixture';
import { makeTestApp, type TestApp } from '../test/harness';

let t: TestApp;
const org: Record<string, number> = {};
const auditor: Record<string, string> = {};
const user: Record<string, number> = {};
let helper: number;

type Log = { action: string; entityId: string; before: unknown; after: unknown };
const rows = async (token: string, qs: string) => {
  const res = await t.request('GET', `/api/audit-logs?limit=100&entity=user${qs}`, { token });
  expect(res.status).toBe(200);
  return res.body.data as Log[];
};
const actionsAbout = async (token: string, userId: number) => (await rows(token, `&entityId=${userId}`)).map((l) => l.action).sort();
const asAdmin = (method: string, path: string, body?: unknown) => t.request(method, path, { token: t.adminToken, body });

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'US-ROOT');
  org.f1 = await t.createOrg('doan_co_so', 'US-F1', root);
  org.c1 = await t.createOrg('chi_doan', 'US-F1-C1', org.f1);
  org.f2 = await t.createOrg('doan_co_so', 'US-F2', root);
  const reader = await t.createRole('us_audit', ['audit.access']);
  const logs = await t.createRole('us_logs', ['system.view_logs']);
  helper = await t.createRole('us_helper', ['dashboard.access']);
  auditor.faculty = (await t.createUser('USAF', [{ roleId: reader, organizationId: org.f1 }])).token;
  auditor.branch = (await t.createUser('USAC', [{ roleId: reader, organizationId: org.c1 }])).token;
  auditor.other = (await t.createUser('USAO', [{ roleId: reader, organizationId: org.f2 }])).token;
  auditor.global = (await t.createUser('USAG', [{ roleId: logs }])).token;
  for (const [key, where] of [
    ['inBranch', [org.c1]],
    ['inOther', [org.f2]],
    ['both', [org.c1, org.f2]],
    ['leaving', [org.c1]],
  ] as const) {
    user[key] = (await t.createUser(`US-${key}`)).id;
    for (const o of where) await join(t, user[key]!, o);
  }
  for (const key of ['inBranch', 'inOther', 'both'])
    expect((await asAdmin('PATCH', `/api/users/${user[key]}`, { givenName: `Sửa ${key}` })).status).toBe(200);
  expect((await asAdmin('POST', `/api/users/${user.both}/assign-role`, { roleId: helper, organizationId: org.f2 })).status).toBe(201);
  expect((await asAdmin('POST', `/api/users/${user.both}/assign-role`, { roleId: helper, organizationId: org.c1 })).status).toBe(201);
  expect((await asAdmin('POST', `/api/users/${user.both}/assign-role`, { roleId: helper })).status).toBe(201);
  expect((await asAdmin('DELETE', `/api/users/${user.leaving}`)).status).toBe(200);
});

describe('changes to users, by auditor (in and out of scope)', () => {
  it.each([
    ['faculty', 'inBranch', ['user.update']],
    ['branch', 'inBranch', ['user.update']],
    ['other', 'inBranch', []],
    // Global readers also see the user's sign-in (createUser signs every user in).
    ['global', 'inBranch', ['auth.login', 'user.update']],
    ['faculty', 'inOther', []],
    ['branch', 'inOther', []],
    ['other', 'inOther', ['user.update']],
    ['faculty', 'leaving', ['user.delete']],
    ['other', 'leaving', []],
    ['global', 'leaving', ['auth.login', 'user.delete']],
  ])('%s auditor, user %s → %j', async (who, about, expected) => {
    expect(await actionsAbout(auditor[who]!, user[about]!)).toEqual(expected);
  });

  it('a user in two organizations: each auditor reads the edit, but only the grants made in its own subtree', async () => {
    expect(await actionsAbout(auditor.faculty!, user.both!)).toEqual(['user.roles.assign', 'user.update']);
    expect(await actionsAbout(auditor.other!, user.both!)).toEqual(['user.roles.assign', 'user.update']);
    // The global grant is the global readers' alone.
    expect(await actionsAbout(auditor.global!, user.both!)).toEqual([
      'auth.login',
      'user.roles.assign',
      'user.roles.assign',
      'user.roles.assign',
      'user.update',
    ]);
  });

  it('a change to a user shows the organization it concerns, one the reader may see', async () => {
    const orgOf = async (token: string, userId: number) => {
      const res = await t.request('GET', `/api/audit-logs?limit=100&entity=user&action=user.update&entityId=${userId}`, { token });
      return (res.body.data as { organization: { code: string } | null }[]).map((l) => l.organization?.code ?? null);
    };
    expect(await orgOf(auditor.faculty!, user.inBranch!)).toEqual(['US-F1-C1']);
    // A user in two faculties: each auditor sees the one of its own subtree, never the other.
    expect(await orgOf(auditor.faculty!, user.both!)).toEqual(['US-F1-C1']);
    expect(await orgOf(auditor.other!, user.both!)).toEqual(['US-F2']);
    expect(await orgOf(auditor.global!, user.both!)).toHaveLength(1);
  });

  it('a grant’s snapshot shows an organization’s auditor only the links of its subtree', async () => {
    const [grant] = await rows(auditor.faculty!, `&entityId=${user.both}&action=user.roles.assign`);
    expect(grant!.after).toEqual([expect.objectContaining({ roleId: helper, organizationId: org.c1 })]);
    expect(JSON.stringify(grant)).not.toContain(`"organizationId":${org.f2}`);
    const all = await rows(auditor.global!, `&entityId=${user.both}&action=user.roles.assign`);
    expect((all[0]!.after as unknown[]).length).toBe(3);
  });

  it('the organization filter finds the changes to its members; another faculty’s is refused', async () => {
    const inBranch = await rows(auditor.faculty!, `&organizationId=${org.c1}`);
    expect(inBranch.map((l) => Number(l.entityId))).toEqual(expect.arrayContaining([user.inBranch, user.both, user.leaving]));
    expect(inBranch.map((l) => Number(l.entityId))).not.toContain(user.inOther);
    expect((await t.request('GET', `/api/audit-logs?organizationId=${org.f2}`, { token: auditor.faculty })).status).toBe(403);
  });

  it('sign-ins stay with global readers', async () => {
    expect(await rows(auditor.faculty!, '&action=auth.login')).toEqual([]);
    expect((await rows(auditor.global!, '&action=auth.login')).length).toBeGreaterThan(0);
  });

  it('the export applies the same rule', async () => {
    const res = await t.app.request(`/api/audit-logs/export?entity=user&entityId=${user.inOther}`, {
      headers: { authorization: `Bearer ${auditor.faculty}` },
    });
    expect(res.status).toBe(200);
    const mine = await t.app.request(`/api/audit-logs/export?entity=user&entityId=${user.inBranch}`, {
      headers: { authorization: `Bearer ${auditor.faculty}` },
    });
    const ExcelJS = (await import('exceljs')).default;
    const count = async (r: Response) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await r.arrayBuffer());
      return wb.worksheets[0]!.rowCount - 1;
    };
    expect(await count(res)).toBe(0);
    expect(await count(mine)).toBe(1);
  });
});
