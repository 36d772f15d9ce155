import { expect as baseExpect, test, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { apiLogin, signIn } from '../helpers/session';
import { callAs } from '../helpers/fees';

// The shared 2-core machine stalls the browser for seconds at a time: generous waits, same assertions.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const rows = (page: Page) => page.getByTestId('users-table').locator('tbody tr.ant-table-row');
const option = (page: Page, text: string) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();

async function userByCode(baseURL: string, code: string) {
  const { users } = await callAs<{ users: { id: number; code: string }[] }>(baseURL, ADMIN, 'GET', `/users?search=${code}`);
  return users.find((u) => u.code === code)!;
}

async function orgId(baseURL: string, type: string, code: string) {
  return (await callAs<{ id: number }>(baseURL, ADMIN, 'GET', `/organizations/by-type-code/${type}/${code}`)).id;
}

test('a role granted for one organization is stored for that organization, not globally (item 5)', async ({ page, baseURL }) => {
  const user = await userByCode(baseURL!, '23001042');
  const dcs = await orgId(baseURL!, 'doan_co_so', 'DCS-CNTT');
  type Link = { role: { id: number; name: string }; organizationId: number | null; isActive: boolean };
  const before = await callAs<Link[]>(baseURL!, ADMIN, 'GET', `/users/${user.id}/roles`);
  await signIn(page, ADMIN, '/users');
  await page.getByTestId('user-search').fill('23001042');
  await expect(rows(page)).toHaveCount(1);
  await rows(page).getByTestId('user-roles').click();
  const dialog = page.getByTestId('role-assignments');
  // The rows have column labels.
  await expect(dialog).toContainText('Vai trò');
  await expect(dialog).toContainText('Phạm vi áp dụng');
  await page.getByTestId('assignment-add').click();
  const row = dialog.getByTestId('assignment-row').last();
  await row.locator('.assignment-role').click();
  await option(page, 'Cán bộ').click();
  // "Global" first, then the faculty: the row keeps the faculty only (the old dialog kept both and saved it global).
  await row.locator('.assignment-orgs').click();
  await option(page, 'Toàn hệ thống').click();
  await page.keyboard.type('DCS-CNTT');
  await option(page, 'DCS-CNTT').click();
  await page.keyboard.press('Escape');
  await expect(row.locator('.assignment-orgs')).not.toContainText('Toàn hệ thống');
  await page.getByTestId('assignment-save').click();
  await expect(dialog).toBeHidden();

  const links = await callAs<{ role: { name: string }; organizationId: number | null; isActive: boolean }[]>(
    baseURL!,
    ADMIN,
    'GET',
    `/users/${user.id}/roles`,
  );
  const staff = links.filter((l) => l.role.name === 'staff' && l.isActive);
  expect(staff.map((l) => l.organizationId)).toEqual([dcs]);
  // Leave the student as the seed made them: users.spec grants the same role again.
  const restore = before
    .filter((l) => l.isActive)
    .map((l) => ({ roleId: l.role.id, organizationId: l.organizationId, isGlobal: l.organizationId === null }));
  await callAs(baseURL!, ADMIN, 'POST', `/users/${user.id}/roles`, { roleAssignments: restore });
});

test('duplicate rows and the 10-row limit are explained in the dialog', async ({ page }) => {
  await signIn(page, ADMIN, '/users');
  await page.getByTestId('user-search').fill('23001043');
  await expect(rows(page)).toHaveCount(1);
  await rows(page).getByTestId('user-roles').click();
  const dialog = page.getByTestId('role-assignments');
  for (let i = 0; i < 2; i++) {
    await page.getByTestId('assignment-add').click();
    const row = dialog.getByTestId('assignment-row').last();
    await row.locator('.assignment-role').click();
    await option(page, 'Thành viên').click();
    // The scope is required now (issue 25 item 11): global must be chosen, never left empty.
    await row.locator('.assignment-orgs').click();
    await option(page, 'Toàn hệ thống').click();
    await page.keyboard.press('Escape');
  }
  await page.getByTestId('assignment-save').click();
  await expect(page.getByTestId('assignment-error')).toHaveText('Vai trò "Thành viên" bị lặp ở cùng phạm vi');
  await expect(page.getByTestId('assignment-error')).not.toContainText('roleAssignments');
  while ((await dialog.getByTestId('assignment-row').count()) < 10) await page.getByTestId('assignment-add').click();
  await expect(page.getByTestId('assignment-add')).toBeDisabled();
  await expect(page.getByTestId('assignment-max')).toContainText('tối đa 10');
});

test('a faculty admin is offered only the scopes they may grant (item 3c)', async ({ page }) => {
  await signIn(page, FACULTY_ADMIN, '/users');
  await expect(rows(page).first()).toBeVisible();
  await rows(page).first().getByTestId('user-roles').click();
  const dialog = page.getByTestId('role-assignments');
  await page.getByTestId('assignment-add').click();
  const row = dialog.getByTestId('assignment-row').last();
  await row.locator('.assignment-role').click();
  await option(page, 'Cán bộ').click();
  await row.locator('.assignment-orgs').click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  // The list is virtual and other journeys add units: look each one up by typing, as an officer would.
  const search = row.locator('.assignment-orgs input');
  await search.fill('Toàn hệ thống');
  await expect(options.filter({ hasText: 'Toàn hệ thống' })).toHaveCount(0);
  await search.fill('DTBK');
  await expect(options.filter({ hasText: 'DTBK' })).toHaveCount(0);
  await search.fill('DCS-CNTT');
  await expect(options.filter({ hasText: 'DCS-CNTT' })).toBeVisible();
  // The organization picker shows each option's parent.
  await search.fill('CD-22CNTT1');
  await expect(options.filter({ hasText: 'CD-22CNTT1' })).toContainText('Đoàn khoa Công nghệ Thông tin');
});

test("the edit dialog changes a student's organizations (item 3b) and opens from a deep link", async ({ page, baseURL }) => {
  // A member of Chi đoàn 22CNTT1 (the demo's students have random memberships).
  const cd = await orgId(baseURL!, 'chi_doan', 'CD-22CNTT1');
  const { members } = await callAs<{ members: { user: { id: number; code: string } }[] }>(
    baseURL!,
    ADMIN,
    'GET',
    `/organizations/${cd}/members?limit=1`,
  );
  const user = members[0]!.user;
  await signIn(page, ADMIN, `/users?edit=${user.id}`);
  const form = page.getByTestId('user-edit-form');
  await expect(form.getByLabel('Mã số')).toHaveValue(user.code);
  const orgs = form.getByTestId('user-organizations');
  await expect(orgs).toContainText('Chi đoàn 22CNTT1');
  // Take them out of 22CNTT1 and put them in 22CNTT2.
  await orgs
    .locator('.ant-select-selection-item')
    .filter({ hasText: 'Chi đoàn 22CNTT1' })
    .locator('.ant-select-selection-item-remove')
    .click();
  await orgs.click();
  await page.keyboard.type('CD-22CNTT2');
  await option(page, 'CD-22CNTT2').click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(form).toBeHidden();
  await expect(page.locator('.ant-notification-notice-success')).toContainText('Cập nhật người dùng thành công');
  await expect(page).not.toHaveURL(/edit=/);

  const detail = await callAs<{ organizations: { isActive: boolean; organization: { code: string } }[] }>(
    baseURL!,
    ADMIN,
    'GET',
    `/users/${user.id}`,
  );
  const codes = detail.organizations.filter((m) => m.isActive).map((m) => m.organization.code);
  expect(codes).toContain('CD-22CNTT2');
  expect(codes).not.toContain('CD-22CNTT1');
  expect(codes).toContain('DCS-CNTT');
});

test('the users search filters by itself after typing stops (item 4)', async ({ page }) => {
  await signIn(page, ADMIN, '/users');
  await expect(rows(page).first()).toBeVisible();
  await page.getByTestId('user-search').pressSequentially('23001042');
  await expect(rows(page)).toHaveCount(1);
  await expect(page).toHaveURL(/23001042/);
});

test('the standalone grant-roles dialog picks a user and grants a role (item 6)', async ({ page, baseURL }) => {
  const user = await userByCode(baseURL!, '23001044');
  await signIn(page, ADMIN, '/users');
  await page.getByTestId('user-grant').click();
  await expect(page.getByTestId('assignment-save')).toBeDisabled();
  await page.getByTestId('grant-user').click();
  await page.keyboard.type('23001044');
  await option(page, '23001044').click();
  const dialog = page.getByTestId('role-assignments');
  await page.getByTestId('assignment-add').click();
  const row = dialog.getByTestId('assignment-row').last();
  await row.locator('.assignment-role').click();
  await option(page, 'Cán bộ').click();
  // Global only when chosen (issue 25 item 11).
  await row.locator('.assignment-orgs').click();
  await option(page, 'Toàn hệ thống').click();
  await page.keyboard.press('Escape');
  await page.getByTestId('assignment-save').click();
  await expect(dialog).toBeHidden();
  const links = await callAs<{ role: { name: string }; organizationId: number | null; isActive: boolean }[]>(
    baseURL!,
    ADMIN,
    'GET',
    `/users/${user.id}/roles`,
  );
  expect(links.some((l) => l.role.name === 'staff' && l.organizationId === null && l.isActive)).toBe(true);
});

test('anyone changes their own password from the user menu (item 3d)', async ({ page, baseURL }) => {
  await callAs(baseURL!, ADMIN, 'POST', '/users', {
    code: 'PWD-E2E',
    familyName: 'Đỗ',
    givenName: 'Mật',
    email: 'pwd.e2e@doanhoi.local',
    phone: '0912345679',
    password: 'oldpass1',
  });
  const account = { email: 'pwd.e2e@doanhoi.local', password: 'oldpass1' };
  await signIn(page, account);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('change-password').click();
  const form = page.getByTestId('change-password-form');
  await expect(form.getByLabel('Mật khẩu hiện tại')).toBeFocused();
  await form.getByLabel('Mật khẩu hiện tại').fill('oldpass1');
  await form.getByLabel('Mật khẩu mới', { exact: true }).fill('newpass22');
  await form.getByLabel('Xác nhận mật khẩu mới').fill('newpass22');
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  expect(await apiLogin(baseURL!, { email: account.email, password: 'newpass22' })).toBeTruthy();
});

test("row actions follow the row user's organizations, not the header's (item 14)", async ({ page, baseURL }) => {
  // A CNTT member who also belongs to another faculty: the CNTT admin may edit them but not delete them.
  const cntt = await orgId(baseURL!, 'doan_co_so', 'DCS-CNTT');
  const ddt = await orgId(baseURL!, 'doan_co_so', 'DCS-DDT');
  const { members } = await callAs<{ members: { user: { id: number; code: string } }[] }>(
    baseURL!,
    ADMIN,
    'GET',
    `/organizations/${cntt}/members?limit=1`,
  );
  const user = members[0]!.user;
  const detail = await callAs<{ organizations: { isActive: boolean; organization: { id: number } }[] }>(
    baseURL!,
    ADMIN,
    'GET',
    `/users/${user.id}`,
  );
  const ids = detail.organizations.filter((m) => m.isActive).map((m) => m.organization.id);
  await callAs(baseURL!, ADMIN, 'PUT', `/users/${user.id}/organizations`, { organizationIds: [...ids, ddt] });

  await signIn(page, FACULTY_ADMIN, '/users');
  await expect(rows(page).first()).toBeVisible();
  await page.getByTestId('user-search').fill(user.code);
  const row = rows(page).filter({ hasText: user.code });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('user-edit')).toBeVisible();
  await expect(row.getByTestId('user-roles')).toBeVisible();
  await expect(row.getByTestId('user-delete')).toHaveCount(0);
  // The API agrees: the account is not the faculty admin's to delete.
  const token = await apiLogin(baseURL!, FACULTY_ADMIN);
  const res = await fetch(`${baseURL}/api/users/${user.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(403);
});
