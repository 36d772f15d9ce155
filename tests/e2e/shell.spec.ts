import { expect, test, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { mailedCode } from '../helpers/password-code';
import { signIn, signInThroughPage, navigate } from '../helpers/session';

const ALL_NAV_VI = [
  'Bảng điều khiển',
  'Người dùng',
  'Tổ chức',
  'Quản lý dữ liệu',
  'Khoa/Phòng ban',
  'Lớp',
  'Phân quyền',
  'Quản lý thu phí',
  'Khoản phí của tôi',
];

async function navLabels(page: Page): Promise<string[]> {
  const nav = page.getByTestId('side-nav');
  await expect(nav).toBeVisible();
  await expect(nav.getByText('Khoản phí của tôi').or(nav.getByText('My payments'))).toBeVisible();
  return (await nav.locator('.ant-menu-title-content').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

test('the admin signs in, sees every navigation item, switches language and theme, and signs out', async ({ page }) => {
  await signInThroughPage(page, ADMIN);
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.getByTestId('stat-members')).toBeVisible();
  expect(await navLabels(page)).toEqual(expect.arrayContaining(ALL_NAV_VI));

  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: /English/ }).click();
  await expect(page.getByTestId('side-nav')).toContainText('Dashboard');
  await expect(page.getByTestId('side-nav')).toContainText('Departments');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: /Tiếng Việt/ }).click();
  await expect(page.getByTestId('side-nav')).toContainText('Bảng điều khiển');
  await expect(page.locator('html')).toHaveAttribute('lang', 'vi');

  const background = () =>
    page
      .locator('.ant-layout')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  const before = await background();
  await page.getByTestId('theme-toggle').click();
  await expect.poll(background).not.toBe(before);
  expect(await page.evaluate(() => localStorage.getItem('colorMode'))).toBe('dark');
  await page.reload();
  await expect.poll(background).not.toBe(before);
  await page.getByTestId('theme-toggle').click();
  await expect.poll(background).toBe(before);

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login/);
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  await page.goto('/users');
  await expect(page).toHaveURL(/\/login\?to=%2Fusers/);
});

test('a member sees only the dashboard and their payments, and is refused the users page', async ({ page }) => {
  await signIn(page, MEMBER);
  const labels = await navLabels(page);
  expect(labels).toEqual(['Bảng điều khiển', 'Khoản phí của tôi']);
  await page.goto('/users');
  await expect(page.getByTestId('access-denied')).toBeVisible();
  await expect(page.getByTestId('access-denied')).toContainText('Không có quyền truy cập');
  await expect(page.getByRole('button', { name: /trang chủ/i })).toBeVisible();
});

test('an imported user without roles must choose a new password, then sees only "My payments"', async ({ page, baseURL }) => {
  // Demo students are seeded like imported accounts: no password hash, the e-mail's local part signs in once.
  const email = '22001001@sv.bachkhoa.edu.vn';
  await signInThroughPage(page, { email, password: '22001001' });
  const dialog = page.getByRole('dialog', { name: 'Đổi mật khẩu' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Mật khẩu hiện tại').fill('22001001');
  await dialog.getByLabel('Mật khẩu mới', { exact: true }).fill('matkhau-moi-123');
  await dialog.getByLabel('Xác nhận mật khẩu mới').fill('matkhau-moi-123');
  // Issue 25 item 7: the public default password also needs the code e-mailed to the account.
  await dialog.getByTestId('send-password-code').click();
  await expect(page.getByText(`Đã gửi mã xác nhận đến ${email}`)).toBeVisible();
  await dialog.getByLabel('Mã xác nhận').fill(await mailedCode(baseURL!, email));
  await dialog.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(dialog).toBeHidden();
  expect(await navLabels(page)).toEqual(['Khoản phí của tôi']);
  await page.goto('/users');
  await expect(page.getByTestId('access-denied')).toBeVisible();
  await navigate(page, '/permissions');
  await expect(page.getByTestId('access-denied')).toBeVisible();
});

test('a faculty union admin starts in their organization and sees what their organization role allows', async ({ page }) => {
  await signIn(page, FACULTY_ADMIN);
  await expect(page.getByTestId('organization-switcher')).toContainText('Công nghệ Thông tin', { ignoreCase: true });
  const labels = await navLabels(page);
  expect(labels).toEqual(
    expect.arrayContaining(['Bảng điều khiển', 'Người dùng', 'Tổ chức', 'Khoa/Phòng ban', 'Lớp', 'Quản lý thu phí', 'Khoản phí của tôi']),
  );
  // Role and permission administration is system-wide: an organization role never grants it.
  expect(labels).not.toContain('Phân quyền');
  await navigate(page, '/permissions');
  await expect(page.getByTestId('access-denied')).toBeVisible();
});
