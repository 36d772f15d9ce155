import { beforeAll, describe, expect, it } from 'vitest';
import { permissionIds } from './defaults';
import { makeTestApp, type TestApp } from '../test/harness';
import { userRoles } from '../db/tables/roles';
import { runQuery } from '../db/engine';

// A role editor's writes are bounded by what he holds himself (roles.test.ts covers the routes).
let t: TestApp;
let seq = 0;
const uniq = (p: string) => `${p}_${++seq}`;

async function createRole(body: Record<string, unknown>, token = t.adminToken) {
  const res = await t.request('POST', '/api/roles', { token, body });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; permissions: { code: string }[] };
}

beforeAll(async () => {
  t = await makeTestApp();
});

describe('role editing cannot raise anyone above the editor', () => {
  it('a global role editor who is not super admin cannot put permissions he lacks into a role', async () => {
    const editorRole = await t.createRole(uniq('role_editor'), [
      'permissions.access',
      'permissions.create',
      'permissions.update',
      'users.access',
    ]);
    const editor = await t.createUser(uniq('EDITOR'), [{ roleId: editorRole }]);
    const escalate = await t.request('POST', '/api/roles', {
      token: editor.token,
      body: { name: uniq('leo_thang'), displayName: 'Leo thang', permissionIds: await permissionIds(t.db, ['system.access_admin']) },
    });
    expect(escalate.status).toBe(403);
    expect(escalate.body.message).toContain('system.access_admin');
    const ok = await createRole(
      { name: uniq('hop_le'), displayName: 'Hợp lệ', permissionIds: await permissionIds(t.db, ['users.access']) },
      editor.token,
    );
    const add = await t.request('PUT', `/api/roles/${editorRole}`, {
      token: editor.token,
      body: {
        displayName: 'Tự nâng quyền',
        permissionIds: await permissionIds(t.db, [
          'permissions.access',
          'permissions.create',
          'permissions.update',
          'users.access',
          'users.delete',
        ]),
      },
    });
    expect(add.status).toBe(403);
    expect(add.body.message).toContain('users.delete');
    // Removing what he holds, or renaming, is fine.
    const rename = await t.request('PUT', `/api/roles/${ok.id}`, {
      token: editor.token,
      body: { displayName: 'Đổi tên', permissionIds: [] },
    });
    expect(rename.status).toBe(200);
  });

  it('nor store them on an inactive role (created inactive, or one he holds switched off), to be switched on later', async () => {
    const editorRole = await t.createRole(uniq('role_editor_off'), [
      'permissions.access',
      'permissions.create',
      'permissions.update',
      'users.access',
    ]);
    const editor = await t.createUser(uniq('EDITOFF'), [{ roleId: editorRole }]);
    const dormant = await t.request('POST', '/api/roles', {
      token: editor.token,
      body: {
        name: uniq('ngu_dong'),
        displayName: 'Ngủ đông',
        isActive: false,
        permissionIds: await permissionIds(t.db, ['system.access_admin']),
      },
    });
    expect(dormant.status).toBe(403);
    const held = await createRole(
      { name: uniq('tam_tat'), displayName: 'Tạm tắt', isActive: false, permissionIds: await permissionIds(t.db, ['users.access']) },
      editor.token,
    );
    await runQuery(t.db.insert(userRoles).values({ userId: editor.id, roleId: held.id }));
    const stored = await t.request('PUT', `/api/roles/${held.id}`, {
      token: editor.token,
      body: { displayName: 'Tạm tắt', permissionIds: await permissionIds(t.db, ['users.access', 'system.access_admin']) },
    });
    expect(stored.status).toBe(403);
    expect(stored.body.message).toContain('system.access_admin');
    expect(
      (await t.request('GET', `/api/roles/${held.id}`, { token: t.adminToken })).body.permissions.map((p: { code: string }) => p.code),
    ).toEqual(['users.access']);
  });
});
