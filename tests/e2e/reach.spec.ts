/**
 * Issue 25 item 11, as the officer reads it: the role dialog's scope on a phone, the member
 * removal dialog naming the units left and kept, the dashboard heading of a faculty admin, and a
 * unit switcher offering only units the caller can act in.
 */
import { expect as baseExpect, test, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';
import { callAs } from '../helpers/fees';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const SHOTS = process.env.REACH_SHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
};
const option = (page: Page, text: string) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();

const orgId = async (baseURL: string, type: string, code: string) =>
  (await callAs<{ id: number }>(baseURL, ADMIN, 'GET', `/organizations/by-type-code/${type}/${code}`)).id;

let seq = Date.now() % 100_000;
async function freshStudent(baseURL: string, organizationId: number) {
  seq += 1;
  const body = {
    code: `RE${seq}`,
    familyName: 'Phạm Thu',
    givenName: `Hà${seq}`,
    email: `reach${seq}@doanhoi.local`,
    phone: '0912345670',
    organizationId,
  };
  return callAs<{ id: number; code: string; familyName: string; givenName: string }>(baseURL, ADMIN, 'POST', '/users', body);
}

for (const width of [390, 1440]) {
  test(`role dialog at ${width} px: the scope is visible and required, and saving keeps the chosen unit`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width, height: 844 });
    const dcs = await orgId(baseURL!, 'doan_co_so', 'DCS-CNTT');
    const user = await freshStudent(baseURL!, await orgId(baseURL!, 'chi_doan', 'CD-22CNTT1'));
    await signIn(page, ADMIN, '/users');
    await page.getByTestId('user-search').fill(user.code);
    const row = page.getByTestId('users-table').locator('tbody tr.ant-table-row');
    await expect(row).toHaveCount(1);
    await row.getByTestId('user-roles').click();
    const dialog = page.getByTestId('role-assignments');
    await page.getByTestId('assignment-add').click();
    const line = dialog.getByTestId('assignment-row').last();
    await line.locator('.assignment-role').click();
    await option(page, 'Cán bộ').click();
    const scope = line.locator('.assignment-orgs');
    await expect(scope).toBeVisible();
    expect((await scope.boundingBox())!.width).toBeGreaterThan(200);
    await expect(dialog).toContainText('Phạm vi áp dụng');
    // Left empty it is refused in the dialog, not saved for the whole university.
    await page.getByTestId('assignment-save').click();
    await expect(dialog).toContainText('Chọn phạm vi: một hoặc nhiều tổ chức, hoặc Toàn hệ thống');
    await shot(page, `role-dialog-${width}-required`);
    expect(await callAs<unknown[]>(baseURL!, ADMIN, 'GET', `/users/${user.id}/roles`)).toEqual([]);
    await scope.click();
    await page.keyboard.type('DCS-CNTT');
    await option(page, 'DCS-CNTT').click();
    await page.keyboard.press('Escape');
    await shot(page, `role-dialog-${width}-chosen`);
    await page.getByTestId('assignment-save').click();
    await expect(dialog).toBeHidden();
    const links = await callAs<{ role: { name: string }; organizationId: number | null }[]>(
      baseURL!,
      ADMIN,
      'GET',
      `/users/${user.id}/roles`,
    );
    expect(links.map((l) => [l.role.name, l.organizationId])).toEqual([['staff', dcs]]);
  });

  test(`removing a member at ${width} px names the units left and kept, and leaves the faculty too`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width, height: 844 });
    const cd = await orgId(baseURL!, 'chi_doan', 'CD-22CNTT1');
    const user = await freshStudent(baseURL!, cd);
    await signIn(page, FACULTY_ADMIN, '/organizations/doan_co_so/DCS-CNTT/chi_doan/CD-22CNTT1/members');
    await page.getByTestId('member-search').fill(user.code);
    await page.getByRole('button', { name: 'Lọc', exact: true }).click();
    const member = page.getByTestId('members-table').locator('tbody tr.ant-table-row');
    await expect(member).toHaveCount(1);
    await member.getByTestId('member-remove').click();
    const dialog = page.getByTestId('remove-member-dialog');
    await expect(dialog.getByTestId('remove-option')).toHaveCount(2);
    await expect(dialog.getByTestId('remove-option').first()).toContainText('Chỉ khỏi Chi đoàn 22CNTT1');
    await expect(dialog.getByTestId('remove-option').last()).toContainText('Khỏi Đoàn khoa Công nghệ Thông tin và mọi đơn vị trực thuộc');
    await expect(dialog.getByTestId('remove-option').last()).toContainText('Đề xuất');
    const summary = dialog.getByTestId('remove-summary');
    await expect(summary).toContainText('sẽ rời: Chi đoàn 22CNTT1, Đoàn khoa Công nghệ Thông tin');
    await expect(summary).toContainText('Vẫn là thành viên của đơn vị cấp trên: Đoàn Trường Đại học Bách khoa');
    await shot(page, `remove-member-${width}`);
    // Choosing only the chi đoàn says the faculty is kept.
    await dialog.getByTestId('remove-option').first().click();
    await expect(summary).toContainText(
      'Vẫn là thành viên của đơn vị cấp trên: Đoàn khoa Công nghệ Thông tin, Đoàn Trường Đại học Bách khoa',
    );
    await dialog.getByTestId('remove-option').last().click();
    await page.getByTestId('confirm-remove').click();
    await expect(page.locator('.ant-notification-notice-success')).toContainText('khỏi: Chi đoàn 22CNTT1, Đoàn khoa Công nghệ Thông tin');
    await expect(page.locator('.ant-notification-notice-success')).toContainText('Vẫn là thành viên của: Đoàn Trường Đại học Bách khoa');
    await expect(member).toHaveCount(0);
    const detail = await callAs<{ organizations: { isActive: boolean; organization: { code: string } }[] }>(
      baseURL!,
      ADMIN,
      'GET',
      `/users/${user.id}`,
    );
    expect(detail.organizations.filter((m) => m.isActive).map((m) => m.organization.code)).toEqual(['DTBK']);
  });
}

test('a faculty admin: the switcher offers only its faculty and beneath, a remembered parent falls back, the dashboard names the faculty', async ({
  page,
  baseURL,
}) => {
  const root = await orgId(baseURL!, 'doan_truong', 'DTBK');
  await page.setViewportSize({ width: 1440, height: 844 });
  await signIn(page, FACULTY_ADMIN);
  const switcher = page.getByTestId('organization-switcher');
  await expect(switcher).toContainText('Đoàn khoa Công nghệ Thông tin');
  await expect(page.getByTestId('dashboard-scope')).toHaveText(
    'Số liệu trực tiếp của Đoàn khoa Công nghệ Thông tin và các đơn vị trực thuộc',
  );
  await switcher.click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(options.filter({ hasText: 'Chi đoàn 22CNTT1' })).toHaveCount(1);
  await expect(options.filter({ hasText: 'Toàn hệ thống' })).toHaveCount(0);
  await expect(options.filter({ hasText: 'Đoàn Trường Đại học Bách khoa' })).toHaveCount(0);
  await shot(page, 'switcher-faculty');
  await page.keyboard.press('Escape');

  // Chosen before this rule: the parent Đoàn Trường, then the whole system; neither stays after a reload.
  for (const remembered of [String(root), 'global']) {
    await page.evaluate((v) => localStorage.setItem('currentOrganizationId', v), remembered);
    await page.reload();
    await expect(switcher).toContainText('Đoàn khoa Công nghệ Thông tin');
    await expect(page.getByTestId('dashboard-scope')).not.toContainText('toàn hệ thống');
    await expect(page.getByTestId('side-nav').getByText('Người dùng', { exact: true })).toBeVisible();
  }
  await shot(page, 'dashboard-faculty-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('dashboard-scope')).toBeVisible();
  await shot(page, 'dashboard-faculty-390');
});

test('the super admin still works in the whole system, and the heading says so', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.evaluate(() => localStorage.setItem('currentOrganizationId', 'global'));
  await page.reload();
  await expect(page.getByTestId('dashboard-scope')).toHaveText('Số liệu trực tiếp của toàn hệ thống và các đơn vị trực thuộc');
  await page.getByTestId('organization-switcher').click();
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Toàn hệ thống' })).toHaveCount(1);
});
