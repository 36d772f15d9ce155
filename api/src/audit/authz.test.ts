import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';

/**
 * system.view_logs is a system-context code: it counts only from a global role (or a super admin).
 * An organization role holding it grants nothing, whichever organization the request names.
 */
let t: TestApp;
const callers: { name: string; token: string; query: string; expected: number }[] = [];

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'AU-ROOT');
  const faculty = await t.createOrg('doan_co_so', 'AU-F1', root);
  const chiDoan = await t.createOrg('chi_doan', 'AU-F1-C1', faculty);
  const otherFaculty = await t.createOrg('doan_co_so', 'AU-F2', root);
  const logs = await t.createRole('log_reader', ['system.view_logs']);
  const other = await t.createRole('not_logs', ['users.access', 'departments.access', 'system.manage_settings']);
  const global = await t.createUser('AUG', [{ roleId: logs }]);
  const orgScoped = await t.createUser('AUO', [{ roleId: logs, organizationId: faculty }]);
  const otherCodes = await t.createUser('AUX', [{ roleId: other }]);
  const noRoles = await t.createUser('AUN');
  callers.push(
    { name: 'superAdmin', token: t.adminToken, query: '', expected: 200 },
    { name: 'global view_logs', token: global.token, query: '', expected: 200 },
    { name: 'org-scoped, own organization', token: orgScoped.token, query: `&organizationId=${faculty}`, expected: 403 },
    { name: 'org-scoped, descendant', token: orgScoped.token, query: `&organizationId=${chiDoan}`, expected: 403 },
    { name: 'org-scoped, outside', token: orgScoped.token, query: `&organizationId=${otherFaculty}`, expected: 403 },
    { name: 'global, other codes', token: otherCodes.token, query: '', expected: 403 },
    { name: 'no roles', token: noRoles.token, query: '', expected: 403 },
  );
});

describe('audit-logs authorization matrix', () => {
  it('GET /audit-logs: only a super admin or a global system.view_logs holder', async () => {
    for (const c of callers) {
      const res = await t.request('GET', `/api/audit-logs?page=1${c.query}`, { token: c.token });
      expect({ caller: c.name, status: res.status }).toEqual({ caller: c.name, status: c.expected });
    }
  });

  it('GET /audit-logs: 401 without a token or with a bad one', async () => {
    expect((await t.request('GET', '/api/audit-logs')).status).toBe(401);
    expect((await t.request('GET', '/api/audit-logs', { token: 'not-a-jwt' })).status).toBe(401);
  });
});
