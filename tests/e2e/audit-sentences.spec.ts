/**
 * Issue 26: the audit log speaks the officer's language. Trần Minh Khoa (faculty admin of DCS-CNTT)
 * adds a member to a new chi đoàn and removes them again; the super admin then deletes that member.
 * The faculty admin reads "Trần Minh Khoa đã xóa … khỏi Chi đoàn …" (and the English sentence) with
 * the member's name kept, sign-ins left out until switched on, and no other officer's IP address,
 * at 1440 px and at 390 px. SHOTS_DIR=… saves the screens.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { call } from '../helpers/fees';
import { apiLogin, signIn } from '../helpers/session';

const stamp = Date.now() % 1_000_000;
const branch = `Chi đoàn Nhật ký ${stamp}`;
const member = { familyName: 'Nguyễn Văn', givenName: `An${stamp}` };
const memberName = `${member.familyName} ${member.givenName}`;
const SHOTS = process.env.SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function useLanguage(page: Page, lng: 'vi' | 'en') {
  await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lng);
  await page.reload();
}

test.describe.configure({ mode: 'default' });

test.beforeAll(async ({ baseURL }) => {
  const admin = await apiLogin(baseURL!, ADMIN);
  const faculty = await call<{ id: number }>(baseURL!, admin, 'GET', '/organizations/by-type-code/doan_co_so/DCS-CNTT');
  const org = await call<{ id: number }>(baseURL!, admin, 'POST', '/organizations', {
    name: branch,
    code: `CD-NK-${stamp}`,
    type: 'chi_doan',
    parentId: faculty.id,
  });
  const user = await call<{ id: number }>(baseURL!, admin, 'POST', '/users', {
    code: `NK${stamp}`,
    ...member,
    email: `nk${stamp}@test.vn`,
    phone: '0901234567',
    organizationId: faculty.id,
  });
  const officer = await apiLogin(baseURL!, FACULTY_ADMIN);
  await call(baseURL!, officer, 'POST', `/organizations/${org.id}/members/${user.id}`, {});
  await call(baseURL!, officer, 'DELETE', `/organizations/${org.id}/members/${user.id}`);
  // The member is gone: the log still names them as they were.
  await call(baseURL!, admin, 'DELETE', `/users/${user.id}`);
});

for (const width of [1440, 390]) {
  test(`a faculty admin reads the changes as sentences in Vietnamese and English (${width} px)`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, FACULTY_ADMIN, '/audit-logs');
    const table = page.getByTestId('audit-table');
    const removed = table.locator('tbody tr.ant-table-row', { hasText: `Trần Minh Khoa đã xóa ${memberName} khỏi ${branch}` });
    await expect(removed).toHaveCount(1, { timeout: 30_000 });
    await expect(table.locator('tbody tr.ant-table-row', { hasText: `Trần Minh Khoa đã thêm ${memberName} vào ${branch}` })).toHaveCount(1);
    // No codes, no bare record numbers.
    await expect(table).not.toContainText('membership.');
    await shot(page, `audit-sentences-vi-${width}`);

    // The officer's own rows may show an address; another officer's never do.
    await removed.getByRole('button', { name: 'Xem thay đổi' }).click();
    const drawer = page.getByTestId('audit-change');
    await expect(drawer.getByText(`Trần Minh Khoa đã xóa ${memberName} khỏi ${branch}`)).toBeVisible();
    // The removed member's id reads as their name, under the form's word for it.
    await expect(drawer.getByTestId('audit-diff').locator('tr', { hasText: 'Thành viên' })).toContainText(memberName);
    await expect(drawer).not.toContainText('userId');
    await expect(drawer.getByText('Địa chỉ IP')).toBeVisible();
    await page.keyboard.press('Escape');
    // The super admin created the member: that row shows no address to the faculty admin.
    const created = table.locator('tbody tr.ant-table-row', { hasText: `đã tạo người dùng ${memberName}` });
    await created.getByRole('button', { name: 'Xem thay đổi' }).click();
    await expect(drawer.getByText(`đã tạo người dùng ${memberName}`)).toBeVisible();
    await expect(drawer.getByTestId('audit-diff').locator('tr', { hasText: 'Họ và tên đệm' })).toContainText(member.familyName);
    await expect(drawer.getByText('Địa chỉ IP')).toHaveCount(0);
    await shot(page, `audit-change-vi-${width}`);
    await page.keyboard.press('Escape');

    await useLanguage(page, 'en');
    await expect(table.locator('tbody tr.ant-table-row', { hasText: `Trần Minh Khoa removed ${memberName} from ${branch}` })).toHaveCount(
      1,
      { timeout: 30_000 },
    );
    await expect(table.locator('tbody tr.ant-table-row', { hasText: `Trần Minh Khoa added ${memberName} to ${branch}` })).toHaveCount(1);
    await expect(table.getByText(`created the user ${memberName}`)).toBeVisible();
    await shot(page, `audit-sentences-en-${width}`);
    await useLanguage(page, 'vi');
  });
}

test('sign-ins are left out until the officer switches them on', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // Sign-ins are global rows: the super admin reads them.
  await signIn(page, ADMIN, '/audit-logs');
  const table = page.getByTestId('audit-table');
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
  await expect(table).not.toContainText('đã đăng nhập');
  await page.getByText('Hiện đăng nhập, đăng xuất').click();
  await expect(table.getByText(/đã đăng nhập/).first()).toBeVisible({ timeout: 30_000 });
  // The choice is in the address: a reload keeps it.
  await page.reload();
  await expect(table.getByText(/đã đăng nhập/).first()).toBeVisible({ timeout: 30_000 });
  await page.getByText('Hiện đăng nhập, đăng xuất').click();
  await expect(table.getByText(/đã đăng nhập/)).toHaveCount(0, { timeout: 30_000 });
});
