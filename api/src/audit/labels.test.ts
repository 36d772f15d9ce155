/**
 * Issue 26: the audit log speaks the officer's language. Names are captured when a row is written
 * and survive the deletion of what they name; sign-ins can be left out; an organization's auditor
 * never sees another officer's IP address, in the list or in the export.
 */
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from '../payments/fixture';
import { makeTestApp, type TestApp } from '../test/harness';

let t: TestApp;
const org: Record<string, number> = {};
let auditor: { id: number; token: string };
let member: { id: number };
let officer: { id: number; token: string };
let role: number;

type Log = {
  id: number;
  action: string;
  entityId: string | null;
  ip?: string | null;
  actor: { id: number } | null;
  labels: Record<string, unknown>;
};
const list = async (qs: string, token = t.adminToken) => {
  const res = await t.request('GET', `/api/audit-logs?limit=100&${qs}`, { token });
  expect(res.status).toBe(200);
  return res.body.data as Log[];
};
const fromIp = (ip: string) => ({ 'x-forwarded-for': ip });

beforeAll(async () => {
  t = await makeTestApp({ TRUST_PROXY: 'true' });
  const root = await t.createOrg('doan_truong', 'LB-ROOT', null, 'Đoàn trường LB');
  org.faculty = await t.createOrg('doan_co_so', 'LB-F1', root, 'Đoàn khoa Công nghệ');
  org.branch = await t.createOrg('chi_doan', 'LB-F1-C1', org.faculty, 'Chi đoàn 22CNTT1');
  const reader = await t.createRole('lb_audit', ['audit.access']);
  const manager = await t.createRole('lb_manager', [
    'audit.access',
    'organizations.manage_members',
    'organizations.add_member',
    'organizations.remove_member',
    'organizations.access',
  ]);
  role = await t.createRole('lb_helper', ['dashboard.access']);
  auditor = await t.createUser('LBAUD', [{ roleId: reader, organizationId: org.faculty }]);
  officer = await t.createUser('LBOFF', [{ roleId: manager, organizationId: org.faculty }]);
  member = await t.createUser('LBMEM');
  await join(t, member.id, org.faculty);
  // The officer adds then removes the member in the branch, from a known address.
  expect(
    (
      await t.request('POST', `/api/organizations/${org.branch}/members/${member.id}`, {
        token: officer.token,
        body: {},
        headers: fromIp('198.51.100.7'),
      })
    ).status,
  ).toBeLessThan(300);
  expect(
    (
      await t.request('DELETE', `/api/organizations/${org.branch}/members/${member.id}`, {
        token: officer.token,
        headers: fromIp('198.51.100.7'),
      })
    ).status,
  ).toBe(200);
  // The auditor's own change (their own phone) from their own address.
  await join(t, auditor.id, org.faculty);
  expect(
    (
      await t.request('PATCH', '/api/auth/me/profile', {
        token: auditor.token,
        body: { phone: '0912345678' },
        headers: fromIp('203.0.113.50'),
      })
    ).status,
  ).toBe(200);
  // A role granted in the branch, then deleted.
  expect(
    (
      await t.request('POST', `/api/users/${member.id}/assign-role`, {
        token: t.adminToken,
        body: { roleId: role, organizationId: org.branch },
      })
    ).status,
  ).toBe(201);
});

describe('names captured when the row is written', () => {
  it('a membership removal names the actor, the member and the organization', async () => {
    const [removal] = await list(`action=membership.remove&entityId=${org.branch}`);
    expect(removal!.labels).toMatchObject({
      actor: 'Nguyễn Văn LBOFF',
      user: 'Nguyễn Văn LBMEM',
      target: 'Chi đoàn 22CNTT1',
      organization: 'Chi đoàn 22CNTT1',
    });
  });

  it('the names survive the deletion of the role, the organization and both people', async () => {
    expect((await t.request('DELETE', `/api/roles/${role}`, { token: t.adminToken })).status).toBe(200);
    expect((await t.request('DELETE', `/api/organizations/${org.branch}`, { token: t.adminToken })).status).toBe(200);
    expect((await t.request('DELETE', `/api/users/${member.id}`, { token: t.adminToken })).status).toBe(200);
    expect((await t.request('DELETE', `/api/users/${officer.id}`, { token: t.adminToken })).status).toBe(200);

    const [removal] = await list(`action=membership.remove&entityId=${org.branch}`);
    // The actor's account is gone (actor null) but its name stayed with the row.
    expect(removal!.actor).toBeNull();
    expect(removal!.labels).toMatchObject({ actor: 'Nguyễn Văn LBOFF', user: 'Nguyễn Văn LBMEM', target: 'Chi đoàn 22CNTT1' });

    const [grant] = await list(`action=user.roles.assign&entityId=${member.id}`);
    expect(grant!.labels).toMatchObject({
      target: 'Nguyễn Văn LBMEM',
      names: { [`role:${role}`]: 'lb_helper', [`organization:${org.branch}`]: 'Chi đoàn 22CNTT1' },
    });

    const [roleGone] = await list(`action=role.delete&entityId=${role}`);
    expect(roleGone!.labels.target).toBe('lb_helper');
    const [orgGone] = await list(`action=organization.delete&entityId=${org.branch}`);
    expect(orgGone!.labels).toMatchObject({ target: 'Chi đoàn 22CNTT1', organization: 'Đoàn khoa Công nghệ' });
    const [userGone] = await list(`action=user.delete&entityId=${member.id}`);
    expect(userGone!.labels.target).toBe('Nguyễn Văn LBMEM');
  });

  it('a user edit names the class and departments its snapshot refers to', async () => {
    const dept = await t.request('POST', '/api/departments', {
      token: t.adminToken,
      body: { name: 'Khoa Công nghệ Thông tin', code: 'LBCNTT' },
    });
    const someone = await t.createUser('LBDEPT');
    expect(
      (await t.request('PATCH', `/api/users/${someone.id}`, { token: t.adminToken, body: { managementDepartmentId: dept.body.id } }))
        .status,
    ).toBe(200);
    const [edit] = await list(`action=user.update&entityId=${someone.id}`);
    expect(edit!.labels.names).toMatchObject({ [`department:${dept.body.id}`]: 'Khoa Công nghệ Thông tin' });
  });
});

describe('sign-ins can be left out', () => {
  it('excludeAuth=true leaves every auth.* row out; false or absent keeps them', async () => {
    const all = await list('entity=user');
    expect(all.some((l) => l.action.startsWith('auth.'))).toBe(true);
    const without = await list('entity=user&excludeAuth=true');
    expect(without.length).toBeGreaterThan(0);
    expect(without.some((l) => l.action.startsWith('auth.'))).toBe(false);
    expect((await list('entity=user&excludeAuth=false')).length).toBe(all.length);
    const totals = await Promise.all(
      ['', '&excludeAuth=true'].map(
        async (q) => (await t.request('GET', `/api/audit-logs?entity=user${q}`, { token: t.adminToken })).body.total,
      ),
    );
    expect(totals[1]).toBeLessThan(totals[0]);
    expect((await t.request('GET', '/api/audit-logs?excludeAuth=maybe', { token: t.adminToken })).status).toBe(400);
  });
});

describe('IP addresses', () => {
  it('an organization’s auditor sees the IP of its own rows only; a global reader sees every IP', async () => {
    const seen = await list('', auditor.token);
    const others = seen.filter((l) => l.actor?.id !== auditor.id);
    expect(others.length).toBeGreaterThan(0);
    for (const l of others) expect(l).not.toHaveProperty('ip');
    expect(JSON.stringify(seen)).not.toContain('198.51.100.7');
    const own = seen.find((l) => l.action === 'user.update_own_contact');
    expect(own?.ip).toBe('203.0.113.50');

    const global = await list('');
    expect(global.find((l) => l.action === 'membership.add')?.ip).toBe('198.51.100.7');
  });

  it('the export follows the same rule', async () => {
    const cells = async (token: string) => {
      const res = await t.app.request('/api/audit-logs/export', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ExcelJS.Buffer);
      const rows: string[] = [];
      wb.worksheets[0]!.eachRow((r) => void rows.push(JSON.stringify(r.values)));
      return rows.join('\n');
    };
    const mine = await cells(auditor.token);
    expect(mine).toContain('Chi đoàn 22CNTT1');
    expect(mine).not.toContain('198.51.100.7');
    expect(mine).toContain('203.0.113.50');
    expect(await cells(t.adminToken)).toContain('198.51.100.7');
  });
});
