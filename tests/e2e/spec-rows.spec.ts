/**
 * The last rows of spec 000 (issue 26 item 10), read as an officer reads them, in vi and en, at
 * 1440 px and on a 390 px phone: action icons on tree rows, manual add not offered where only
 * import is (level 3, clubs), the roles status filter's empty text, the phone field's asterisk,
 * member counts on a detail page's child rows, "(inactive)" on a switched-off role, the "apply to
 * the user's organizations" shortcut of the role dialog, and the header's sign-in dialog.
 */
import { join } from 'node:path';
import { expect as baseExpect, test, type Locator, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { apiLogin, signIn } from '../helpers/session';
import { call } from '../helpers/fees';

const expect = baseExpect.configure({ timeout: 30_000 });
// Serial: the roles journey needs the demo's roles all active, which the inactive-role journey changes for a while.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const DCS = '/organizations/doan_co_so/DCS-CNTT';
const CD = `${DCS}/chi_doan/CD-22CNTT1`;

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `rows-${name}.png`), fullPage: true });
}
const english = (page: Page) => page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
const option = (page: Page, text: string) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();
const treeRow = (page: Page, code: string) => page.getByTestId('org-tree').locator(`[data-testid="org-row"][data-code="${code}"]`);
const tooltipOf = async (page: Page, target: Locator) => {
  await target.hover();
  const tip = page.locator('.ant-tooltip:visible .ant-tooltip-inner');
  await expect(tip).toBeVisible();
  return tip;
};
/** The control lies inside the phone's width. */
async function insideViewport(page: Page, target: Locator) {
  const box = (await target.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test('roles: a status filter that matches nothing says so and offers every status (vi, en)', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN, '/permissions');
  const table = page.getByTestId('roles-table');
  await expect(table).toContainText('Quản trị hệ thống');
  await page.locator('.status-filter').click();
  await option(page, 'Ngừng hoạt động').click();
  await expect(table).toContainText('Không có vai trò nào ngừng hoạt động');
  await expect(table).not.toContainText('Chưa có vai trò nào');
  await shot(page, 'roles-empty-status-vi');
  await table.getByText('Xem vai trò ở mọi trạng thái').click();
  await expect(table).toContainText('Quản trị hệ thống');
  await expect(page.locator('.status-filter')).toContainText('Tất cả trạng thái');

  await english(page);
  await page.goto('/permissions');
  await page.locator('.status-filter').click();
  await option(page, 'Inactive').click();
  await expect(table).toContainText('No inactive roles');
  await expect(table).not.toContainText('No roles yet');
  await expect(table.getByText('Show roles of every status')).toBeVisible();
});

test('tree rows carry action icons: add member or import, edit, delete, each off with its reason (1440 vi, 390 en)', async ({
  page,
  baseURL,
}) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const dcs = await call<{ id: number }>(baseURL!, token, 'GET', '/organizations/by-type-code/doan_co_so/DCS-CNTT');
  await call(baseURL!, token, 'POST', '/organizations', { name: 'Chi đoàn Hàng thử', code: 'CD-ROWS', type: 'chi_doan', parentId: dcs.id });

  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN, '/organizations');
  const faculty = treeRow(page, 'DCS-CNTT');
  await expect(faculty.getByRole('button', { name: 'Thêm thành viên' })).toBeEnabled();
  await expect(faculty.getByRole('button', { name: 'Sửa', exact: true })).toBeEnabled();
  const facultyDelete = faculty.getByRole('button', { name: 'Xóa', exact: true });
  await expect(facultyDelete).toBeDisabled();
  await expect(await tooltipOf(page, facultyDelete)).toHaveText('Không thể xóa tổ chức còn tổ chức trực thuộc');

  await faculty.getByRole('button', { name: 'Mở rộng' }).click();
  const unit = treeRow(page, 'CD-22CNTT1');
  // A chi đoàn takes members by file only (000 §6): the row offers the import, not a manual add.
  await expect(unit.getByRole('button', { name: 'Nhập thành viên từ file' })).toBeEnabled();
  await expect(unit.getByRole('button', { name: 'Thêm thành viên' })).toHaveCount(0);
  await shot(page, 'tree-actions-vi');
  await unit.getByRole('button', { name: 'Nhập thành viên từ file' }).click();
  const wizard = page.locator('.ant-modal').filter({ has: page.getByTestId('import-wizard') });
  await expect(wizard).toContainText('Nhập thành viên vào Chi đoàn 22CNTT1 (cấp 3)');
  await wizard.locator('.ant-modal-close').click();
  await expect(wizard).toBeHidden();

  const fresh = treeRow(page, 'CD-ROWS');
  await fresh.getByRole('button', { name: 'Sửa', exact: true }).click();
  const form = page.getByTestId('organization-edit-form');
  await expect(form.getByLabel('Tên tổ chức')).toHaveValue('Chi đoàn Hàng thử');
  await form.getByLabel('Mô tả').fill('Chi đoàn lập để thử các nút của hàng');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(form).toBeHidden();
  await expect(fresh).toContainText('Chi đoàn lập để thử các nút của hàng');

  await fresh.getByRole('button', { name: 'Xóa', exact: true }).click();
  await expect(page.getByRole('dialog')).toContainText('Xóa tổ chức "Chi đoàn Hàng thử"?');
  await page.getByTestId('confirm-delete').click();
  await expect(page.locator('.ant-notification-notice-success').filter({ hasText: 'Đã xóa tổ chức Chi đoàn Hàng thử' })).toBeVisible();
  await expect(fresh).toHaveCount(0);

  // A faculty officer: the school's row is theirs to read, not to edit.
  await page.setViewportSize(PHONE);
  await english(page);
  await signIn(page, FACULTY_ADMIN, '/organizations');
  const own = treeRow(page, 'DCS-CNTT');
  for (const name of ['Add member', 'Edit', 'Delete']) {
    await expect(own.getByRole('button', { name, exact: true })).toBeVisible();
    await insideViewport(page, own.getByRole('button', { name, exact: true }));
  }
  await expect(own.getByRole('button', { name: 'Add member', exact: true })).toBeEnabled();
  await shot(page, 'tree-actions-en-390');
  const school = treeRow(page, 'DTBK');
  if ((await school.count()) > 0) {
    const edit = school.getByRole('button', { name: 'Edit', exact: true });
    await expect(edit).toBeDisabled();
    await expect(await tooltipOf(page, edit)).toHaveText('You may not edit this organization');
  }
});

test('manual add is not offered where only import is: level 3 and clubs (1440 vi, 390 en)', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN, `${CD}/members`);
  await expect(page.getByRole('button', { name: 'Nhập từ file' })).toBeEnabled();
  await expect(page.getByText('Đơn vị cấp 3 và câu lạc bộ nhận thành viên bằng cách nhập từ file')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Thêm thành viên' })).toHaveCount(0);
  await shot(page, 'cd-members-vi');
  // A school club (clb_truong): its detail page lists members with the same import-only toolbar.
  await page.goto('/organizations/clb_truong/CLB-TN');
  await expect(page.getByTestId('org-detail-members').getByRole('button', { name: 'Nhập từ file' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Thêm thành viên' })).toHaveCount(0);
  // A đoàn cơ sở (level 2) still offers both.
  await page.goto(`${DCS}/members`);
  await expect(page.getByRole('button', { name: 'Thêm thành viên' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Nhập từ file' })).toBeEnabled();

  await page.setViewportSize(PHONE);
  await english(page);
  await page.goto(`${CD}/members`);
  await expect(page.getByRole('button', { name: 'Import from file' })).toBeVisible();
  await expect(page.getByText('Level-3 units and clubs take members by importing a file')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add member' })).toHaveCount(0);
  await shot(page, 'cd-members-en-390');
});

test("a detail page's child rows show their member counts (1440 vi, 390 en)", async ({ page, baseURL }) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const dcs = await call<{ children: { code: string; memberCount: number | null }[] }>(
    baseURL!,
    token,
    'GET',
    '/organizations/by-type-code/doan_co_so/DCS-CNTT',
  );
  const n = dcs.children.find((c) => c.code === 'CD-22CNTT1')!.memberCount!;
  expect(n).toBeGreaterThan(0);
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN, DCS);
  const child = page.getByTestId('org-children').locator('[data-testid="org-row"][data-code="CD-22CNTT1"]');
  await expect(child).toContainText(`${n} thành viên`);
  await shot(page, 'detail-children-vi');
  await page.setViewportSize(PHONE);
  await english(page);
  await page.goto(DCS);
  await expect(child).toContainText(`${n} members`);
  await insideViewport(page, child.getByText(`${n} members`));
  await shot(page, 'detail-children-en-390');
});

test('the phone field is marked required like the other required fields (1440 vi, 390 en)', async ({ page }) => {
  const mark = (label: Locator) => label.evaluate((el) => getComputedStyle(el, '::before').content);
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN, '/users');
  await page.getByRole('button', { name: 'Thêm mới' }).click();
  await page.getByRole('menuitem', { name: 'Tạo một người dùng' }).click();
  const form = page.getByTestId('user-create-form');
  const phone = form.locator('label', { hasText: 'Số điện thoại' });
  expect(await mark(phone)).toBe(await mark(form.locator('label', { hasText: 'Email' })));
  expect(await mark(phone)).toContain('*');
  await shot(page, 'user-create-phone-vi');
  await page.setViewportSize(PHONE);
  await english(page);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('menuitem', { name: 'Create one user' }).click();
  const phoneEn = page.getByTestId('user-create-form').locator('label', { hasText: 'Phone' });
  expect(await mark(phoneEn)).toContain('*');
});

/** A student of 22CNTT1 made for these journeys: a member of the chi đoàn, its faculty and the school. */
async function freshStudent(baseURL: string, token: string, code: string) {
  const cd = await call<{ id: number }>(baseURL, token, 'GET', '/organizations/by-type-code/chi_doan/CD-22CNTT1');
  const user = await call<{ id: number }>(baseURL, token, 'POST', '/users', {
    code,
    familyName: 'Phạm Thị',
    givenName: 'Hàng',
    email: `${code.toLowerCase()}@sv.bachkhoa.edu.vn`,
    phone: '0912345670',
    organizationId: cd.id,
  });
  return { id: user.id, cdId: cd.id };
}

test('a switched-off role reads "(inactive)" in the role dialog, not its bare id (1440 vi, 390 en)', async ({ page, baseURL }) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const code = `ROWS${Date.now() % 1_000_000}`;
  const { id: userId, cdId } = await freshStudent(baseURL!, token, code);
  const perms = await call<{ id: number; code: string }[]>(baseURL!, token, 'GET', '/roles/available-permissions');
  const permissionIds = perms.filter((p) => p.code === 'dashboard.access').map((p) => p.id);
  const role = await call<{ id: number }>(baseURL!, token, 'POST', '/roles', {
    name: `tam_ngung_${code.toLowerCase()}`,
    displayName: 'Vai trò tạm ngừng',
    description: 'Thử nhãn',
    permissionIds,
  });
  await call(baseURL!, token, 'POST', `/users/${userId}/roles`, {
    roleAssignments: [{ roleIds: [role.id], organizationIds: [cdId], isGlobal: false }],
  });
  await call(baseURL!, token, 'PUT', `/roles/${role.id}`, {
    displayName: 'Vai trò tạm ngừng',
    description: 'Thử nhãn',
    permissionIds,
    isActive: false,
  });
  try {
    await page.setViewportSize(DESKTOP);
    await signIn(page, ADMIN, '/users');
    await page.getByTestId('user-search').fill(code);
    const row = page.getByTestId('users-table').locator('tbody tr.ant-table-row');
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: 'Phân vai trò' }).click();
    const dialog = page.getByTestId('role-assignments');
    const assignment = dialog.getByTestId('assignment-row').first();
    await expect(assignment.locator('.assignment-role')).toHaveText('Vai trò tạm ngừng (ngừng hoạt động)');
    await expect(assignment.locator('.assignment-orgs')).toContainText('Chi đoàn 22CNTT1');
    await shot(page, 'inactive-role-vi');

    await page.setViewportSize(PHONE);
    await english(page);
    await page.goto(`/users?q=${code}`);
    await page.getByTestId('user-search').fill(code);
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: 'Assign roles' }).click();
    await expect(assignment.locator('.assignment-role')).toHaveText('Vai trò tạm ngừng (inactive)');
    await shot(page, 'inactive-role-en-390');
  } finally {
    await call(baseURL!, token, 'DELETE', `/roles/${role.id}`);
  }
});

test("the role dialog's 'apply to the user's organizations' fills every row, and unticking clears them (1440 vi, 390 en)", async ({
  page,
  baseURL,
}) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const code = `ROWG${Date.now() % 1_000_000}`;
  await freshStudent(baseURL!, token, code);
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN, '/users');
  await page.getByRole('button', { name: 'Cấp vai trò' }).click();
  await page.getByTestId('grant-user').click();
  await page.keyboard.type(code);
  await option(page, code).click();
  const dialog = page.getByTestId('role-assignments');
  await page.getByRole('button', { name: 'Thêm vai trò' }).click();
  await page.getByRole('button', { name: 'Thêm vai trò' }).click();
  const rows = dialog.getByTestId('assignment-row');
  for (const [i, role] of [
    [0, 'Cán bộ'],
    [1, 'Thành viên'],
  ] as const) {
    await rows.nth(i).locator('.assignment-role').click();
    await option(page, role).click();
  }
  const shortcut = dialog.getByRole('checkbox', { name: 'Áp dụng cho các tổ chức của người dùng (3)' });
  await shortcut.check();
  for (const i of [0, 1]) {
    const scope = rows.nth(i).locator('.assignment-orgs');
    await expect(scope).toContainText('Chi đoàn 22CNTT1');
    await expect(scope).toContainText('Đoàn khoa Công nghệ Thông tin');
    await expect(scope).toContainText('Đoàn Trường Đại học Bách khoa');
  }
  await shot(page, 'grant-apply-own-vi');
  await shortcut.uncheck();
  for (const i of [0, 1]) await expect(rows.nth(i).locator('.assignment-orgs .ant-select-selection-item')).toHaveCount(0);
  await dialog.getByRole('checkbox').check();
  await page.getByTestId('assignment-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.ant-notification-notice-success').first()).toBeVisible();

  // A faculty officer on a phone, in English: only the units where they may grant are filled (not the school).
  await page.setViewportSize(PHONE);
  await english(page);
  await signIn(page, FACULTY_ADMIN, '/users');
  await page.getByRole('button', { name: 'Grant roles' }).click();
  await page.getByTestId('grant-user').click();
  await page.keyboard.type(code);
  await option(page, code).click();
  await page.getByRole('button', { name: 'Add a role' }).click();
  const row = dialog.getByTestId('assignment-row').last();
  await row.locator('.assignment-role').click();
  await option(page, 'Cán bộ').click();
  await dialog.getByRole('checkbox', { name: "Apply to the user's organizations (3)" }).check();
  const scope = row.locator('.assignment-orgs');
  await expect(scope).toContainText('Chi đoàn 22CNTT1');
  await expect(scope).toContainText('Đoàn khoa Công nghệ Thông tin');
  await expect(scope).not.toContainText('Đoàn Trường Đại học Bách khoa');
  await insideViewport(page, dialog.getByRole('checkbox'));
  await shot(page, 'grant-apply-own-en-390');
});

test('a signed-out visitor opens the sign-in dialog from the header, closes it and signs in with it (1440 vi, 390 en)', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/login');
  const header = page.getByTestId('signed-out-header');
  await header.getByRole('button', { name: 'Đăng nhập' }).click();
  const dialog = page.getByRole('dialog', { name: 'Đăng nhập' });
  await expect(dialog.getByLabel('Email')).toBeVisible();
  await expect(dialog.getByLabel('Mật khẩu')).toBeVisible();
  await shot(page, 'signin-modal-vi');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  // The backdrop closes it too.
  await header.getByRole('button', { name: 'Đăng nhập' }).click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(20, 880);
  await expect(dialog).toBeHidden();

  await page.setViewportSize(PHONE);
  await english(page);
  await page.goto('/login');
  const button = header.getByRole('button', { name: 'Sign in' });
  await insideViewport(page, button);
  // The header does not cover the page's own form.
  const bar = (await header.boundingBox())!;
  const card = (await page.locator('.login-card').boundingBox())!;
  expect(bar.y + bar.height).toBeLessThanOrEqual(card.y);
  await shot(page, 'signin-page-en-390');
  await button.click();
  const en = page.getByRole('dialog', { name: 'Sign in' });
  await en.getByLabel('Email').fill(ADMIN.email);
  await en.getByLabel('Password').fill(ADMIN.password);
  await shot(page, 'signin-modal-en-390');
  await en.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
