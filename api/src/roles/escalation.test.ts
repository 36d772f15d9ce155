import { beforeAll, describe, expect, it } from 'vitest';
import { permissionIds } from './defaults';
import { makeTestApp, type TestApp } from '../test/harness';
import { userRoles } from '../db/tables/roles';
import { postRole, uniq } from './fixture';
import { runQuery } from '../db/engine';

// A role editor's writes are bounded by what he holds himself (roles.test.ts covers the routes).
let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
});

/** What a global role editor holds: the role codes and reading users, none of the system ones. */
const EDITOR_CODES = ['permissions.access', 'permissions.create', 'permissions.update', 'users.access'];

/** A new role (`role`) holding EDITOR_CODES globally, and a new user (`code`) holding it. */
async function roleEditor(role: string, code: string) {
  const editorRole = await t.createRole(uniq(role), EDITOR_CODES);
  return { editorRole, editor: await t.createUser(uniq(code), [{ roleId: editorRole }]) };
}

describe('role editing cannot raise anyone above the editor', () => {
  it('a global role editor who is not super admin cannot put permissions he lacks into a role', async () => {
    const { editorRole, editor } = await roleEditor('role_editor', 'EDITOR');
    const escalate = await t.request('POST', '/api/roles', {
      token: editor.token,
      body: { name: uniq('leo_thang'), displayName: 'Leo thang', permissionIds: await permissionIds(t.db, ['system.access_admin']) },
    });
    expect(escalate.status).toBe(403);
    expect(escalate.body.message).toContain('system.access_admin');
    const ok = await postRole(
      t,
      { name: uniq('hop_le'), displayName: 'Hợp lệ', permissionIds: await permissionIds(t.db, ['users.access']) },
      editor.token,
    );
    const add = await t.request('PUT', `/api/roles/${editorRole}`, {
      token: editor.token,
      body: {
        displayName: 'Tự nâng quyền',
        permissionIds: await permissionIds(t.db, [...EDITOR_CODES, 'users.delete']),
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
    const { editor } = await roleEditor('role_editor_off', 'EDITOFF');
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
    const held = await postRole(
      t,
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
